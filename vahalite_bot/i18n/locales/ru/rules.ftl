# Ошибки правил, которые выдаёт движок: по сообщению на каждый код IllegalAction.

# An engine refusal: the rule it cites, written out so that it cannot be read as a cell.
rule-reference = (правило { $rule }) { $reason }

side-south = Юг
side-north = Север

terrain-obstacle = Препятствие
terrain-water = Водоём
terrain-height = Высота
terrain-cover = Укрытие
terrain-fortification = Укрепление

phase-roll_off = бросок за первый ход
phase-deploy_order = выбор очерёдности расстановки
phase-terrain = расстановка местности
phase-sp = расстановка СП
phase-deployment = расстановка войск
phase-playing = игра
phase-ended = конец партии

error-unknown_unit = На поле нет отряда «{ $unit }». Укажите метку отряда, как на карте.
error-duplicate_handle = Два отряда с одной меткой «{ $unit }».
error-game_over = Партия окончена: приказы больше не принимаются.
error-wrong_phase = Это делается на этапе «{ $expected }», а сейчас этап «{ $phase }».
error-not_your_setup_step = Сейчас не очередь стороны «{ $side }»: дождитесь соперника.
error-not_own_half = { $cell } не на вашей половине поля: выберите клетку на своей стороне.
error-no_terrain_left = У вас не осталось элементов «{ $kind }».
error-cell_has_terrain = На { $cell } уже есть местность: выберите свободную клетку.
error-terrain_blocks_deployment = Местность на { $cell } не оставит места для расстановки вашей армии: выберите другую клетку.
error-sp_on_edge = { $cell } на краю поля: СП ставится не ближе чем в 1 клетке от края.
error-sp_not_enterable = Пехота не может войти на { $cell } ({ $terrain }): поставьте СП в другое место.
error-sp_taken = На { $cell } уже есть СП.
error-sp_blocks_deployment = СП на { $cell } не оставит места для расстановки вашей армии.
error-not_your_unit = { $unit } — не ваш отряд.
error-already_deployed = { $unit } уже выставлен.
error-outside_deploy_zone = { $cell } вне вашей зоны расстановки.
error-cannot_deploy_here = { $reason ->
        [terrain] { $unit } нельзя выставить на { $cell }: там { $terrain }, на него не встают.
        [vehicle_cover] { $unit } нельзя выставить на { $cell }: технике нельзя на { $terrain }.
       *[sp] { $unit } нельзя выставить на { $cell }: летающий отряд не может стоять на стратегической позиции.
    }
error-deploy_blocks_others = Если выставить { $unit } на { $cell }, остальной армии не хватит места: выберите другую клетку.
error-cannot_embark = { $unit } не может сесть в { $transport }: не тот тип отряда, слишком много моделей или транспорт уже занят.
error-not_playing = Приказы отдаются после расстановки; сейчас этап «{ $phase }».
error-not_your_turn = Сейчас не ход стороны «{ $side }»: дождитесь, пока соперник закончит свой.
error-move_after_attack = { $unit } не может двигаться: атаки этого хода уже начались, а все движения — до первой атаки.
error-nothing_pending = Сейчас нечего решать.
error-decision_pending = Сначала решите, что делать с { $unit } ({ $side }).
error-placement_not_allowed = Пассажиров нельзя поставить на { $cell }: выберите одну из клеток { $cells }.
error-already_moved = { $unit } уже двигался в этот ход.
error-empty_path = Укажите для { $unit } клетку или путь, например C3 или C2-C3-C4.
error-path_too_long = { $unit } ходит не дальше чем на { $m } { $m ->
        [one] клетку
        [few] клетки
       *[many] клеток
    }, а путь длиной { $length }.
error-not_orthogonal = Из { $frm } в { $cell } — не один шаг по вертикали или горизонтали: по диагонали не ходят.
error-path_revisits = Путь { $unit } дважды проходит одну клетку.
error-off_board = { $cell } за пределами поля: назовите клетку поля, например C4.
error-blocked_by_terrain = Путь перекрыт на { $cell }: { $terrain }.
error-blocked_by_enemy = Путь перекрыт на { $cell } вражеским отрядом { $enemy }.
error-flyer_cannot_end = Летающий отряд не может закончить движение на { $cell } (Препятствие или СП).
error-end_not_empty = { $cell } занята отрядом { $occupant }: движение заканчивается на свободной клетке.
error-embark_after_disembark = { $unit } высадился в этот ход и не может сесть снова до следующего.
error-disembark_after_embark = { $unit } сел в транспорт в этот ход и не может высадиться до следующего.
error-disembark_one_step = Высадка — один шаг из транспорта на свободную соседнюю клетку.
error-disembark_adjacent = { $cell } не соседняя с транспортом { $unit }.
error-target_embarked = { $target } сидит в транспорте, его нельзя атаковать: атакуйте транспорт.
error-embarked_shooting_only = Из открытого транспорта { $unit } может только стрелять.
error-flyer_no_melee = Летающие отряды не атакуют в рукопашной и не могут быть атакованы в рукопашной.
error-melee_out_of_reach = { $target } на расстоянии { $distance }: рукопашная — только по соседней клетке по вертикали или горизонтали.
error-vehicle_melee_into_cover = Техника не может атаковать { $target } в рукопашной, пока тот в Укрытии или Укреплении.
error-out_of_range = До цели { $distance }, а дальность ({ $weapon }) — { $range }.
error-too_close = До цели { $distance }, а минимальная дальность ({ $weapon }) — { $minimum }: выберите другое оружие или цель дальше.
error-artillery_after_move = { $weapon }: артиллерия не стреляет, если отряд двигался в этот ход.
error-no_line_of_sight = Нет линии видимости до { $target }: мешает { $cells } (Препятствие или Высота).
error-target_is_friendly = { $target } — ваш отряд: выберите врага.
error-no_such_weapon = У { $unit } нет оружия номер { $weapon }.
error-melee_and_ranged_mixed = Одна атака — либо рукопашная, либо дальняя, не обе сразу.
error-no_weapon_chosen = Укажите хотя бы одно оружие или ничего, чтобы стрелять всем, что достаёт.
error-no_weapon_of_kind = У { $unit } нет оружия такого вида.
error-already_attacked = { $unit } уже атаковал в этот ход.
error-disembarked_cannot_attack = { $unit } высадился в этот ход и не может атаковать.
error-embarked_cannot_attack = { $unit } в закрытом транспорте и не может атаковать: сначала высадитесь (атаковать можно будет в следующий ход).
error-not_on_board = { $unit } не на поле.
error-cell_occupied = { $cell } занята отрядом { $occupant }: выставляйте на свободную клетку.
