# python -m vahalite_bot.verify и приказ консоли «проверка» (docs/dice.md)
verify-game = Партия #{ $game }: хэш зерна кубиков, опубликованный при её создании, { $commitment }
verify-word = Слово, добавленное в зерно стороной { $side }: «{ $word }»
verify-die = #{ $seq } кубик на позиции { $position } ({ $purpose }): { $value }
verify-die-checked = #{ $seq } кубик на позиции { $position } ({ $purpose }): { $value }, по зерну { $expected }
verify-no-seed = { $count ->
        [one] { $count } кубик идёт по порядку
        [few] { $count } кубика идут по порядку
       *[many] { $count } кубиков идут по порядку
    }; их значения можно проверить, когда партия закончится и зерно будет раскрыто.
verify-failed = { $count ->
        [one] { $count } проблема
        [few] { $count } проблемы
       *[many] { $count } проблем
    }: журнал не проходит проверку.
verify-ok = Проверено: { $count ->
        [one] { $count } кубик
        [few] все { $count } кубика
       *[many] все { $count } кубиков
    } этой партии получены из зерна { $seed }, хэш которого был опубликован до того, как добавили слова.
verify-seq = Запись #{ $seq } стоит на месте #{ $expected }: записи пропущены или переставлены.
verify-no-creation = Первая запись — не создание партии: опубликованный хэш нельзя проверить.
verify-commitment-mismatch = Хэш в заголовке файла не тот, что был опубликован при создании партии.
verify-late-word = Запись #{ $seq } добавляет слово после того, как кубики уже брошены.
verify-two-words = Запись #{ $seq } добавляет второе слово для той же стороны.
verify-bad-word = В записи #{ $seq } слово — не от 1 до 32 печатных символов.
verify-bad-seed = Запись #{ $seq } раскрывает зерно, записанное не в шестнадцатеричном виде.
verify-two-seeds = Запись #{ $seq } раскрывает другое зерно, чем указано.
verify-seed-mismatch = Раскрытое зерно не совпадает с хэшем, опубликованным при создании партии.
verify-position = Запись #{ $seq }: кубик на позиции { $position }, а должна быть позиция { $expected }: кубик пропущен или повторён.
verify-wrong-die = Запись #{ $seq }: на кубике на позиции { $position } выпало { $value }, а по зерну — { $expected }.
verify-empty = Файл пуст.
verify-not-a-log = Это не выгруженный журнал партии Vaha-Lite.
verify-version = Журнал в формате версии { $version }, которую эта проверка не знает.
verify-bad-line = Строка { $line } файла — не запись журнала.
verify-too-big = Файл слишком велик для журнала партии.
verify-unreadable = Не удалось прочитать файл: { $error }
