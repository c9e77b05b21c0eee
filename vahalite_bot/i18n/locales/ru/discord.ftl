# Адаптер Discord (vahalite_bot/discord): имена и описания команд, кнопки, лобби, сообщения
# в ветке или посте партии, отказы, особые для Discord.

## Слэш-команды: имена (строчные, без пробелов) и описания (не длиннее 100 символов).
discord-cmd-vl = vl
discord-cmd-vl-desc = Играть в Ваху-Лайт
discord-cmd-new = новая
discord-cmd-new-desc = Открыть новую партию в отдельной ветке или посте форума
discord-cmd-join = вступить
discord-cmd-join-desc = Вступить в партию этой ветки вторым игроком
discord-cmd-army = армия
discord-cmd-army-desc = Подать армию: готовый список фракции или свой список
discord-cmd-setup = расстановка
discord-cmd-setup-desc = Шаги расстановки: очерёдность, местность, SP, войска; домашние: приказы, резервы
discord-cmd-first = очерёдность
discord-cmd-first-desc = Выиграли бросок: кто расставляется первым (B2)
discord-cmd-terrain = местность
discord-cmd-terrain-desc = Поставить элемент местности в своей половине (B3)
discord-cmd-sp = sp
discord-cmd-sp-desc = Поставить стратегическую точку (B4)
discord-cmd-deploy = выставить
discord-cmd-deploy-desc = Выставить отряд в своей зоне (B5); с M5 — ввести резерв
discord-cmd-move = ход
discord-cmd-move-desc = Передвинуть отряд (на свой транспорт: посадка; ждущий десант: поставить)
discord-cmd-attack = атака
discord-cmd-attack-desc = Атаковать вражеский отряд; бот показывает каждый кубик
discord-cmd-embark = посадка
discord-cmd-embark-desc = Посадить отряд в свой транспорт (H2)
discord-cmd-disembark = высадка
discord-cmd-disembark-desc = Высадить отряд из транспорта на клетку (H3)
discord-cmd-advance = занять
discord-cmd-advance-desc = После уничтожения в рукопашной: занять клетку или остаться (E10)
discord-cmd-pause = пауза
discord-cmd-pause-desc = Попросить паузу (или продолжение); она начнётся, когда согласятся оба
discord-cmd-end = конец
discord-cmd-end-desc = Закончить ход
discord-cmd-undo = отмена
discord-cmd-undo-desc = Отменить свои последние действия (если бросались кубики — с согласия соперника)
discord-cmd-board = поле
discord-cmd-board-desc = Показать поле
discord-cmd-status = статус
discord-cmd-status-desc = Армии с HP, ПО, раунд, чей ход
discord-cmd-odds = шансы
discord-cmd-odds-desc = Точные шансы атаки
discord-cmd-sheet = профили
discord-cmd-sheet-desc = Отряды армии с профилями и оружием
discord-cmd-log = журнал
discord-cmd-log-desc = Последние записи журнала партии со всеми кубиками
discord-cmd-resign = сдаться
discord-cmd-resign-desc = Сдать партию (бот переспросит)
discord-cmd-help = помощь
discord-cmd-help-desc = Как здесь играть: команды и текстовые приказы
discord-cmd-rule = правило
discord-cmd-rule-desc = Показать правило по номеру, например E8

## Параметры команд
discord-opt-opponent = соперник
discord-opt-opponent-desc = Кто играет за Север: человек, который вступит, или встроенный бот
discord-opt-points = очки
discord-opt-points-desc = Лимит очков обеих армий
discord-opt-scenario = сценарий
discord-opt-scenario-desc = Поле и его правила
discord-opt-faction = фракция
discord-opt-faction-desc = Готовый список фракции; оставьте пустым, чтобы вставить свой список
discord-opt-unit = отряд
discord-opt-unit-desc = Ваш отряд, например tac1
discord-opt-cell = клетка
discord-opt-cell-desc = Клетка поля, например C4
discord-opt-target = цель
discord-opt-target-desc = Вражеский отряд, который атаковать
discord-opt-weapons = оружие
discord-opt-weapons-desc = Номера оружия из профиля, например 1,2 (по умолчанию всё, что достаёт)
discord-opt-mode = режим
discord-opt-mode-desc = Рукопашная или стрельба (по умолчанию рукопашная, если можно)
discord-opt-transport = транспорт
discord-opt-transport-desc = Ваш транспорт для посадки
discord-opt-kind = вид
discord-opt-kind-desc = Какой элемент местности поставить
discord-opt-deploy-first = первым
discord-opt-deploy-first-desc = Да: вы расставляетесь первым; нет: соперник
discord-opt-take = занять
discord-opt-take-desc = Да: занять клетку; нет: остаться
discord-opt-count = сколько
discord-opt-count-desc = Сколько последних действий отменить
discord-opt-side = сторона
discord-opt-side-desc = Чья армия (по умолчанию ваша или обе)
discord-opt-id = номер
discord-opt-id-desc = Номер правила, например E8

## Варианты
discord-choice-human = человек
discord-choice-bot = бот (тренировка)
discord-choice-melee = рукопашная
discord-choice-ranged = стрельба
discord-choice-south = Юг
discord-choice-north = Север

## Кнопки
discord-btn-join = Вступить
discord-btn-bot = Играть с ботом
discord-btn-end = Конец хода
discord-btn-undo = Отменить
discord-btn-board = Поле
discord-btn-odds = Шансы
discord-btn-accept = Согласен
discord-btn-decline = Против
discord-btn-yes = Да, сдаюсь
discord-btn-no = Нет

## Теги форума
discord-tag-open = Ищу соперника
discord-tag-playing = Идёт игра
discord-tag-finished = Окончена

## Лобби
discord-thread-name = Ваха-Лайт: { $creator }
discord-lobby = **Ваха-Лайт, партия №{ $game }**
    Создал { $creator } · { $points } очков · сценарий: { $scenario }{ $house }
    Обязательство по кубикам (K2): `{ $commitment }`
    { $opponent }
discord-lobby-waiting = Ждём соперника: нажмите **Вступить** или **Играть с ботом** для тренировки.
discord-lobby-full = Игроки: { $south } (Юг) и { $north } (Север). Дальше оба подают армии командой `/vl армия`.
discord-joined = { $user } вступает за Север. Оба игрока: подайте армии командой `/vl армия` (готовый список фракции или свой).
discord-army-in = { $user } подал армию ({ $side }).
discord-army-list = Армия { $user } ({ $side }):
discord-modal-title = Ваш список армии
discord-modal-label = Список армии: фракция и очки в первой строке
discord-modal-placeholder = Космодесант, 750 очков
discord-bot-name = бот ({ $player })
discord-practice-joined = Бот вступает за Север и подал армию ({ $faction }). Подайте свою командой `/vl армия`.

## Сообщения в партии
discord-acts-next = Дальше: { $who }.
discord-acts-next-setup = Дальше: { $who } ({ $phase }).
discord-acts-next-pending = Сначала решает { $who }.
discord-by = { $user }:
discord-status-title = **Ваха-Лайт №{ $game }** · { $phase }
discord-status-round = Раунд { $round } из { $rounds } · ходит { $side }
discord-status-score = ПО: Юг { $south } · Север { $north }
discord-status-deadline = Срок хода: { $deadline }
discord-status-paused = Судья приостановил партию.
discord-status-players = Юг: { $south } · Север: { $north }
discord-status-unit = { $unit } · { $hp }/{ $max } HP
discord-status-unit-dead = ~~{ $unit }~~ уничтожен
discord-game-over = Партия окончена. { $result }
discord-seed = Зерно кубиков (K2): `{ $seed }` (его SHA-256 — обязательство `{ $commitment }`, опубликованное в начале).
discord-done = Готово: смотрите сообщение в партии.
discord-undo-question = { $asker } просит отменить действия, в которых бросались кубики. { $answerer }, вы согласны?
discord-resign-question = Точно сдаться? Победа достанется сопернику.
discord-resign-cancelled = Играем дальше.
discord-text-board = Поле текстом (боту здесь нельзя выкладывать картинки):

## Сводка шансов (кнопка «Шансы»)
discord-odds-none = Сейчас ни один ваш отряд не может атаковать.
discord-odds-line = { $unit } → { $target }: { $dice } куб., { $needed }+ — { $percent }% ≥1 урона, { $kill }% уничтожить
discord-odds-choice = { $target } — { $dice } куб., { $needed }+ — { $percent }% ≥1 урона

## Приказы сообщениями
discord-orders-applied = ✓ { $line }
discord-orders-refused = ✗ { $line } — { $reason }
discord-orders-skipped = · { $line } (не выполнялось)

## Отказы и ошибки, особые для Discord (видны только вам)
discord-not-game-channel = В этом канале нет партии. Начните её командой `/vl новая` или пишите в ветке или посте партии.
discord-needs-server = В Ваху-Лайт играют на сервере, а не в личных сообщениях.
discord-cannot-open = Не могу открыть здесь ветку или пост: { $reason }. Попросите администратора или вызовите `/vl новая` в другом канале.
discord-stale-button = Партия ушла вперёд с этого сообщения: вот текущее состояние.
discord-not-your-button = Эта кнопка для { $who }.
discord-unexpected = У меня что-то сломалось (номер ошибки `{ $id }`). Неудавшаяся часть ничего не изменила; сообщите этот номер владельцу бота.
discord-missing-permission = Мне не хватает права **{ $permission }** в этом канале: { $effect } Администратор может его выдать; партия тем временем продолжается.
discord-effect-attach = Поле выкладываю текстом вместо картинки.
discord-effect-pin = Не могу закрепить сообщение со статусом партии.
discord-effect-tags = Не могу создать теги партий на форуме.
discord-no-such-rule = Правила «{ $id }» нет. Номера правил выглядят так: A1, E8, N2.
discord-no-faction = Фракции «{ $faction }» нет: выберите из списка.
discord-no-ready-list = У фракции { $faction } нет готового списка на { $points } очков: вставьте свой список командой `/vl армия` без фракции.
discord-bad-cell = «{ $cell }» — не клетка этого поля: напишите букву столбца и номер ряда, например C4.
discord-bad-weapons = «{ $text }» — не номера оружия: напишите номера из профиля, например 1,2.
discord-help = **Ваха-Лайт здесь**: одна партия — одна ветка (или пост форума). `/vl новая` открывает партию; `/vl вступить` или кнопка **Вступить** — за вторую сторону; `/vl армия` — подать армию.
    Расстановка: `/vl расстановка очерёдность`, `… местность`, `… sp`, `… выставить`. Игра: `/vl ход`, `/vl атака`, `/vl посадка`, `/vl высадка`, `/vl занять`, `/vl поставить`, `/vl конец`, `/vl отмена`. Читать может любой: `/vl поле`, `/vl статус`, `/vl шансы`, `/vl профили`, `/vl журнал`, `/vl правило E8`.
    Домашние правила: `/vl расстановка приказы` (M3), `… резерв` (M5), `/vl ход … отступить` (M6), `/vl атака … рывок-на` (M8); кнопки **Все в Продвижение** и **Без резервов**.
    { $orders }
discord-help-orders-on = **Текстовые приказы**: в ветке партии игроки могут писать приказы, как на форуме, по одному в строке, по-русски или по-английски: `tac1 C4`, `tac1 > kab1`, `конец`.
discord-help-orders-off = Текстовые приказы у этого бота выключены (нет намерения message content): пользуйтесь слэш-командами.
discord-no-unit = В этой партии нет отряда «{ $unit }»: выберите из списка.
discord-bad-kind = «{ $kind }» — не элемент местности, который у вас остался: выберите из списка.
discord-bot-declines-undo = Бот не соглашается отменять действия, в которых бросались кубики.
discord-log-undone = (отменено)

## Судья (N2) и настройки сервера
discord-cmd-ref = судья
discord-cmd-ref-desc = Решения судьи (роль судьи или администраторы)
discord-cmd-ref-move = поставить
discord-cmd-ref-move-desc = Поставить отряд на клетку
discord-cmd-ref-remove = убрать
discord-cmd-ref-remove-desc = Убрать отряд с поля
discord-cmd-ref-hp = hp
discord-cmd-ref-hp-desc = Задать отряду HP
discord-cmd-ref-undo = отмена
discord-cmd-ref-undo-desc = Отменить последние записи журнала
discord-cmd-ref-end = конец
discord-cmd-ref-end-desc = Закончить текущий ход
discord-cmd-ref-extend = продлить
discord-cmd-ref-extend-desc = Продлить срок текущего хода
discord-cmd-ref-pause = пауза
discord-cmd-ref-pause-desc = Приостановить партию (срок хода стоит)
discord-cmd-ref-resume = продолжить
discord-cmd-ref-resume-desc = Продолжить приостановленную партию
discord-cmd-ref-decide = решить
discord-cmd-ref-decide-desc = Решить исход партии: победитель или ничья
discord-cmd-config = настройки
discord-cmd-config-desc = Настройки этого сервера (администраторы)
discord-cmd-config-referee = роль-судьи
discord-cmd-config-referee-desc = Роль, чьи участники судят партии (пусто: только администраторы)
discord-cmd-config-deadline = срок
discord-cmd-config-deadline-desc = Сколько часов по умолчанию даётся на ход
discord-cmd-config-forfeit = поражение
discord-cmd-config-forfeit-desc = Сколько пропусков хода подряд означают поражение
discord-cmd-config-language = язык
discord-cmd-config-language-desc = Язык сообщений новых партий
discord-opt-hp = hp
discord-opt-hp-desc = Новое HP отряда
discord-opt-hours = часы
discord-opt-hours-desc = Часы, от 1 до 336
discord-opt-winner = победитель
discord-opt-winner-desc = Кто побеждает, или ничья
discord-opt-role = роль
discord-opt-role-desc = Роль судьи; пусто — только администраторы
discord-opt-forfeit-desc = Сколько пропусков хода подряд означают поражение
discord-opt-language = язык
discord-opt-language-desc = Русский или английский
discord-choice-draw = ничья
discord-ref-did = { $referee } (судья): { $what }
discord-ref-move = { $unit } поставлен на { $cell }.
discord-ref-remove = { $unit } убран с поля.
discord-ref-hp = у { $unit } теперь { $hp } HP.
discord-ref-undo = { $count ->
        [one] отменена последняя { $count } запись.
        [few] отменены последние { $count } записи.
       *[many] отменены последние { $count } записей.
    }
discord-ref-end = ход закончен.
discord-ref-extend = срок хода продлён на { $hours } ч.
discord-ref-pause = партия приостановлена.
discord-ref-resume = партия продолжается.
discord-ref-decide = исход партии решён: { $winner }.
discord-config-now = Этот сервер: роль судьи { $role }, язык { $language }, { $hours } ч на ход, напоминание { $remind ->
        [0] когда остаётся четверть хода
       *[other] за { $remind } ч до срока
    }, поражение после { $forfeit } пропусков хода подряд.

## Сроки (N1)
discord-reminder = { $user }, ваш ход в этой партии заканчивается { $due }.
discord-expired = Время хода { $user } вышло.

## Конец партии
discord-verify = Каждый кубик можно проверить по приложенному журналу, больше ничего не нужно: `python -m vahalite_bot.verify { $file }` (или вручную: HMAC-SHA256 от зерна и номера кубика, байты 252–255 пропускаются; docs/dice.md).
discord-choice-ru = Русский
discord-choice-en = Английский
discord-recap = { $user }, пока вас не было:

## Возвращение к своим партиям
discord-cmd-games = партии
discord-cmd-games-desc = Ваши партии на этом сервере: чей ход, срок, ссылка на каждую
discord-cmd-my-turn = мой-ход
discord-cmd-my-turn-desc = Ваши партии на этом сервере, которые ждут вас
discord-cmd-notify = напоминания
discord-cmd-notify-desc = Напоминания о сроке ещё и в личные сообщения (вкл. или выкл.)
discord-opt-dm = лс
discord-opt-dm-desc = Да: напоминать и в личных сообщениях
discord-games-line = №{ $game } { $link } — ходит: { $who } · срок { $due }
discord-games-you = вы
discord-games-none = У вас нет незаконченных партий на этом сервере. `/vl новая` начинает партию.
discord-games-none-waiting = Ни одна партия на этом сервере не ждёт вас.
discord-notify-on = Напоминания будут приходить и в личные сообщения.
discord-notify-off = Напоминания будут только в ветках партий.
discord-reminder-dm = Ваш ход в { $link } заканчивается { $due }.
discord-btn-agree = Согласен
discord-opt-turn-hours-desc = Сколько часов даётся на ход в этой партии (по умолчанию — как на сервере)
discord-opt-word = слово
discord-opt-word-desc = Ваше слово для кубиков (K2): подмешивается в зерно, и никто не выбрал их один

discord-cmd-config-reminder = напоминание
discord-cmd-config-reminder-desc = Когда напоминать игроку о сроке (за сколько часов)
discord-opt-remind-hours-desc = Часов до срока; 0 — когда остаётся четверть хода, не больше 12 ч
