# Текстовые приказы (vahalite_bot/orders): отказы, справка, отчёт о сообщении.
# Каждый отказ говорит, что не так и что написать вместо этого.

orders-quoted = «{ $text }»
orders-did-you-mean = Может быть, { $options }?
orders-for-example = Например: «{ $example }».

## Приказы, которые не удалось прочитать

orders-empty = Пустой приказ: список приказов — «помощь».
orders-no_order = В «{ $line }» нет приказа, который я могу прочитать: назовите отряд и куда ему идти («{ $ex_unit } C4») или напишите «помощь».
orders-unknown_verb = Не знаю приказа «{ $word }». Список приказов: «помощь».
orders-unit_without_order = Что делать «{ $unit }»? Укажите клетку, куда идти («{ $unit } C4»), или цель атаки («{ $unit } > { $ex_target }»).
orders-missing_verb = Скажите, что «{ $unit }» делать с «{ $other }»: «{ $unit } > { $other }» — атаковать, «посадка { $unit } { $other }» — сесть в него.
orders-missing_unit = Назовите отряд, который это делает: по метке ({ $ex_unit }), по началу названия или по клетке.
orders-missing_destination = Куда? Укажите для «{ $unit }» клетку (C4) или путь (C2-C3-C4).
orders-disembark_one_cell = Высадка — это один шаг на одну клетку: укажите для «{ $unit }» одну клетку.
orders-missing_target = Кого атаковать «{ $unit }»? Назовите цель после атакующего.
orders-where_target_starts = Не понять, где в «{ $words }» кончается атакующий и начинается цель: поставьте между ними «>».
orders-bad_weapon_number = Оружие нумеруется с 1, как в листе армии; «{ $number }» — не его номер.
orders-mixed_attack_kinds = Одна атака — либо рукопашная, либо стрельба, не обе сразу.
orders-unexpected = Не понимаю «{ $words }» в приказе «{ $verb }».
orders-missing_terrain_kind = Укажите, что ставить: препятствие, водоём, высоту или укрытие.
orders-unknown_terrain = «{ $word }» — не вид местности: препятствие, водоём, высота или укрытие.
orders-ambiguous_terrain = «{ $word }» — это может быть { $options }. Напишите слово полнее.
orders-missing_cell = Укажите клетку, например C3.
orders-unknown_help_topic = Нет приказа «{ $word }», чтобы о нём рассказать. Список приказов: «помощь».
orders-bad_count = «{ $number }» — не количество: нужно целое число от 1.
orders-bad_rule_id = «{ $word }» — не номер правила: номер — это буква и число, например E8.

## Приказы, которые в этой игре ничего разумного не называют

orders-unknown_word = Не знаю ни отряда, ни приказа «{ $word }». Может быть, { $options }?
orders-unknown_unit = Нет отряда «{ $ref }». Назовите отряд по метке на карте, по началу названия или по клетке.
orders-unit_destroyed = { $unit } уничтожен: отдайте приказ другому отряду.
orders-no_unit_at = На { $cell } нет отряда: назовите отряд по метке или по клетке, где он стоит.
orders-no_passenger = В { $unit } на { $cell } никого нет: назовите отряд, который высаживается.
orders-ambiguous_unit = «{ $ref }» — это { $count } { $count ->
        [one] отряд
        [few] отряда
       *[many] отрядов
    }: { $options }. Назовите по метке.
orders-already_embarked = { $unit } уже в { $transport }: двигайте транспорт или сначала высадитесь («высадка { $unit } C3»).
orders-not_a_transport = { $unit } — не транспорт: назовите транспорт («посадка { $ex_unit } { $ex_transport }»).
orders-no_transport_in_reach = { $unit } не может дойти в этот ход ни до одного своего свободного транспорта: подведите его ближе или подгоните транспорт.
orders-which_transport = { $unit } может сесть в разные транспорты: { $options }. Назовите один, например «посадка { $unit } { $ex_transport }».
orders-which_cell = Куда высаживать { $unit }? Укажите одну из клеток: { $options }.
orders-not_embarked = { $unit } не в транспорте: чтобы его передвинуть, напишите «{ $unit } C4».
orders-no_room_to_disembark = Рядом с транспортом нет свободной клетки, куда мог бы выйти { $unit }: сначала сдвиньте транспорт или оставайтесь внутри.
orders-already_there = { $unit } уже стоит на { $cell }: укажите другую клетку.
orders-destination_enemy = Там стоит вражеский { $target }. Чтобы его атаковать, напишите «{ $attack }».
orders-no_path = { $unit } не дойдёт до { $cell } в этот ход: путь перекрыт. { $count ->
        [0] Сейчас ему некуда идти.
        [one] Он может дойти только до { $count } клетки: { $options }.
       *[other] Он может дойти до { $count } клеток: { $options }.
    }

## Короткие примеры, по одному на приказ (для справки и отказов)

# The units examples name when there is no game to take them from (training units).
orders-example-default-unit = tac1
orders-example-default-target = kab1
orders-example-default-transport = rhi1
orders-example-any-transport = транспорт
orders-example-default-unit-name = Тактическое отделение
orders-example-default-target-name = Рабы
orders-example-move = ход { $ex_unit } C4
orders-example-attack = атака { $ex_unit } { $ex_target }
orders-example-embark = посадка { $ex_unit } { $ex_transport }
orders-example-disembark = высадка { $ex_unit } C3
orders-example-end = конец
orders-example-undo = отмена
orders-example-board = карта
orders-example-status = статус
orders-example-odds = шансы { $ex_unit } { $ex_target }
orders-example-army = армия противника
orders-example-log = лог 10
orders-example-help = помощь атака
orders-example-roll = бросок
orders-example-deploy_order = первым
orders-example-terrain = местность укрытие C2
orders-example-sp = сп C3
orders-example-deploy = расстановка { $ex_unit } B2
orders-example-advance = вперёд
orders-example-resign = сдаюсь
orders-example-rule = правило E8
orders-example-verify = проверка

## Справка

orders-help-intro = Приказы — по одному в строке; английские слова тоже понимаются. Отряд называют меткой ({ $ex_unit }), началом названия ({ $ex_prefix }) или клеткой (C2); буквы клеток можно писать по-русски: С2, Д4.
orders-help-outro = Подробнее о приказе: «помощь» и его название, например «помощь атака».
orders-help-move = ход (иди, двигай) — «{ orders-example-move }», или просто «{ $ex_unit } C4», или «C2-C4».
orders-help-move-details =
    Ход на клетку кратчайшим разрешённым путём: «ход { $ex_unit } C4», «{ $ex_unit } C4».
    Или весь путь: «ход { $ex_unit } C2-C3-C4», или «C2-C3-C4» для отряда на C2.
    «C2-C4» — отряд с C2 идёт на C4. Ход на клетку своего транспорта — посадка.
    Клетки пути разделяют тире, стрелки (→, ->) и пробелы.
orders-help-attack = атака (стреляй, бей, руби) — «{ orders-example-attack }», или «{ $ex_unit } > { $ex_target }», «C2>D4».
orders-help-attack-details =
    «атака { $ex_unit } { $ex_target }» — всем оружием, которое достаёт (рукопашным, если оно достаёт).
    «стреляй» — только стрелковым, «руби» (или «рукопашная») — только рукопашным.
    Номера выбирают оружие, как в листе армии: «атака { $ex_unit } { $ex_target } 1 2».
    Коротко: «{ $ex_unit } > { $ex_target }», «C2>D4». Между названиями из нескольких слов ставьте «>»: «атака { $ex_unit_name } > { $ex_target_name }».
orders-help-embark = посадка (садись) — «{ orders-example-embark }», или «посадка { $ex_unit }», если транспорт в досягаемости один.
orders-help-embark-details =
    Отряд входит в клетку своего транспорта, и его ход кончается; транспорт потом ещё может ехать.
    «посадка { $ex_unit }» выбирает транспорт сам, если дойти можно только до одного; ход на клетку транспорта — тоже посадка.
orders-help-disembark = высадка (выйти) — «{ orders-example-disembark }».
orders-help-disembark-details =
    Один шаг из транспорта на свободную соседнюю клетку: «высадка { $ex_unit } C3», или «высадка C2 C3» для пассажира транспорта на C2.
    Если свободная клетка одна, хватит «высадка { $ex_unit }». Высадившийся отряд в этот ход не атакует.
orders-help-end = конец (конец хода, готово) — «{ orders-example-end }»: закончить ход.
orders-help-end-details = Заканчивает ваш ход; отряды, которые ничего не сделали, просто ничего не сделали.
orders-help-undo = отмена — «{ orders-example-undo }»: отменить своё последнее действие в этом ходу («отмена 2» — два последних).
orders-help-undo-details = Отменяет ваши последние действия в этом ходу, насколько позволяет игра (то, где бросались кубики, — только с согласия противника).
orders-help-board = карта (поле) — «{ orders-example-board }»: показать поле.
orders-help-board-details = Показывает поле, как оно есть сейчас.
orders-help-status = статус — «{ orders-example-status }»: положение в игре: чей ход, раунд, стратегические позиции.
orders-help-status-details = Показывает, чей ход или шаг расстановки, раунд, стратегические позиции и раны отрядов.
orders-help-odds = шансы — «{ orders-example-odds }»: шансы атаки до того, как её делать.
orders-help-odds-details =
    Те же слова, что в атаке («шансы { $ex_unit } > { $ex_target } 2», «шансы { $ex_unit } { $ex_target } рукопашная»); ничего не бросается.
    Показывает кубики, какое значение нужно каждому и вероятность каждого числа ран.
orders-help-army = армия — «армия»: ваш лист армии; «{ orders-example-army }» — его.
orders-help-army-details = Отряды с метками, ранами, оружием (с номерами) и клетками.
orders-help-log = лог — «лог»: журнал игры («{ orders-example-log }» — последние десять записей).
orders-help-log-details = Каждое действие со всеми кубиками, так что любой бросок можно проверить.
orders-help-help = помощь — «помощь»: этот список; «{ orders-example-help }» — об одном приказе.
orders-help-help-details = «помощь» — список приказов; «помощь» и название приказа — подробно о нём.
orders-help-roll = бросок — «{ orders-example-roll }»: бросок за первый ход (кубик бросает бот).
orders-help-roll-details = Один d6: 1-3 — первым в каждом раунде ходит южный игрок, 4-6 — северный.
orders-help-deploy_order = первым / вторым — «{ orders-example-deploy_order }» или «вторым»: проигравший бросок выбирает, расставляться первым или вторым.
orders-help-deploy_order-details = Игрок, проигравший бросок, выбирает: «первым» (или «расстановка первым») или «вторым».
orders-help-terrain = местность — «{ orders-example-terrain }», или просто «укрытие C2».
orders-help-terrain-details =
    Поставить элемент своего набора на своей половине: препятствие, водоём, высоту или укрытие («высота B3», «вода D2»).
    Название можно сокращать: «выс B3».
orders-help-sp = сп — «{ orders-example-sp }»: поставить стратегическую позицию.
orders-help-sp-details = Три на своей половине, не на краю поля, не на препятствии и не в воде, по одной на клетку.
orders-help-deploy = расстановка (поставь) — «{ orders-example-deploy }», или «расстановка { $ex_unit } { $ex_transport }», чтобы начать в транспорте.
orders-help-deploy-details =
    Расставьте отряды в своей зоне, по одному на клетку; отряд может начать в транспорте, поставленном раньше него.
    Если транспорт уничтожен и его пассажиру есть куда выйти на выбор, тот же приказ ставит его: «поставь { $ex_unit } C3».
orders-help-advance = вперёд / стой — «{ orders-example-advance }» или «стой»: после убийства в рукопашной занять клетку цели или остаться.
orders-help-advance-details = «вперёд» (или «вперёд да») занимает клетку уничтоженной цели; «стой» (или «вперёд нет») — остаться на месте.
orders-help-resign = сдаюсь — «{ orders-example-resign }»: сдать партию.
orders-help-resign-details = Сразу заканчивает игру победой противника.
orders-help-rule = правило — «{ orders-example-rule }»: текст правила игры («правило» без номера — список правил).
orders-help-rule-details = У каждого правила есть номер: буква и число (E8 — укрытие); «правило E8» покажет его, «правило» — список номеров.
orders-help-verify = проверка — «{ orders-example-verify }»: проверить каждый кубик партии по её зерну.
orders-help-verify-details = Записывает журнал партии в файл и проверяет его так же, как это может сделать любой (python -m vahalite_bot.verify ФАЙЛ): позицию и значение каждого кубика, слова игроков и зерно по хэшу, опубликованному в начале (docs/dice.md). До конца партии можно проверить только порядок кубиков: зерно раскрывается в конце.

## Правила игры, ответ на «правило E8»

orders-rule-heading = Правило { $rule }: { $title }
orders-rule-unknown = Правила «{ $rule }» нет. { $count ->
        [0] Список правил — «правило».
       *[other] Может быть, { $options }?
    }
orders-rule-list = Правила: { $ids }. Чтобы прочитать одно, напишите «правило» и номер, например «{ orders-example-rule }».

## Отчёт о сообщении из нескольких приказов

orders-report-applied = ✓ { $line }
orders-report-refused = ✗ { $line } — { $reason }
orders-report-skipped = … не выполнено: { $line }
