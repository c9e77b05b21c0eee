# Отказы игрового сервиса (vahalite_bot/app): по сообщению на каждый код ServiceError.
# Каждое говорит, что не так, и, где это помогает, что сделать вместо.

service-not_admin = Настройки сервера меняет только его администратор.
service-not_referee = Это может сделать только судья.
service-not_a_player = Вы не участвуете в этой партии.
service-channel_busy = В этом канале уже идёт партия (№{ $game }): доиграйте её, прежде чем начинать новую.
service-already_joined = Вы уже в этой партии.
service-game_full = В этой партии уже два игрока.
service-game_started = Партия уже началась: армии и игроки больше не меняются.
service-game_not_started = Партия ещё не началась: оба игрока должны присоединиться и подать ростеры.
service-game_over = Партия окончена.
service-game_not_over = Зерно кубиков раскрывается после конца партии.
service-game_paused = Судья приостановил партию: дождитесь продолжения.
service-bot_rolls = Бросок за первый ход бот делает сам.
service-not_your_side = Вы играете за другую сторону, не за «{ $side }».
service-undo_count = Отменить можно от 1 до { $maximum } действий за раз, а не { $count }.
service-nothing_to_undo = { $available ->
        [0] В этом ходу нечего отменять из ваших действий.
        [one] Отменить можно только последнее действие, а не { $count }.
        [few] Отменить можно только { $available } последних действия, а не { $count }.
       *[many] Отменить можно только { $available } последних действий, а не { $count }.
    }
service-undo_not_this_turn = Запись { $seq } из прошлого хода: отменить её может только судья.
service-undo_not_own = Запись { $seq } — не ваше действие: отменить её может только судья.
service-undo_needs_consent = Были брошены кубики: попросите соперника согласиться на отмену или обратитесь к судье.
service-no_undo_request = Нет открытой просьбы об отмене.
service-not_your_request = На свою просьбу об отмене отвечает соперник, а не вы.
service-seed_revealed = Зерно кубиков уже раскрыто: эту партию больше нельзя отменять.
service-no_turn_to_end = Заканчивать нечего: партия ещё на расстановке.
service-no_deadline = У этой партии нет идущего срока хода.
service-already_paused = Партия уже на паузе.
service-not_paused = Партия не на паузе.
service-no_game = Партии №{ $game } нет.
service-no_game_in_channel = В этом канале нет партии: сначала начните её.
service-stale = Партия изменилась, пока вы смотрели (версия { $expected }, теперь { $current }): посмотрите на поле и отдайте приказ снова.
service-busy = Партия занята другими приказами: попробуйте ещё раз через мгновение.
service-unknown_scenario = Сценария «{ $scenario }» нет.
service-bad_points_limit = Играют на { $allowed } очков, а не на { $points }.
service-bad_deadline = Срок хода — от { $low } до { $high } часов, а не { $hours }.
service-bad_language = Язык должен быть одним из: { $allowed }, а не «{ $language }».
service-bad_forfeit = Поражение засчитывается не раньше чем после 1 пропущенного хода, а не { $count }.
service-bad_hp = У { $unit } может быть от 1 до { $maximum } HP, а не { $hp }: чтобы убрать отряд с поля, удалите его.
service-roster_rejected = Ростер не по правилам: { $count ->
        [one] { $count } ошибка
        [few] { $count } ошибки
       *[many] { $count } ошибок
    }.
# K2: слово игрока для зерна кубиков (docs/dice.md)
service-bad_word = Слово для кубиков: от 1 до { $limit } печатных символов в одну строку.
# Серверы: роли и права администратора действуют только на своём сервере.
service-other_server = Ваши роли и права на другом сервере здесь ничего не значат.
service-referee_plays = Вы играете в этой партии и не можете её судить: на этом сервере это не разрешено.
service-transport_not_on_board = { $unit } не на поле: садиться не во что.
service-off_board = Клетки { $cell } нет на поле этой партии: назовите клетку поля, например C4.
# Ключи повтора: один ключ — одна команда.
service-key_reused = Этот номер запроса уже использован для другого приказа ({ $command }): пришлите новый.
# Значения, проверяемые на входе сервиса (имя аргумента — программное, не игровое).
service-bad_type = У «{ $argument }» значение не того вида.
service-bad_range = «{ $argument }» должно быть от { $low } до { $high }.
service-bad_length = «{ $argument }» — от 1 до { $maximum } символов.
service-bad_text = В «{ $argument }» недопустимые символы.
service-bad_count = В «{ $argument }» слишком много элементов (не больше { $maximum }).
service-bad_cell = «{ $argument }» — не клетка ни одного поля.
service-bad_argument = Параметра «{ $argument }» нет.
service-pause_asked = Вы уже попросили: соперник соглашается кнопкой под вашей просьбой или той же командой.
service-bad_remind = Напоминание приходит за 1–{ $high } ч до срока (0 — правило по умолчанию), а не за { $hours }.
