# Домашние правила в Discord (правила M3, M5, M6, M8): кнопки, строка-вопрос,
# слэш-команды и их параметры, подсказки.

discord-btn-all-advance = Все в Продвижение
discord-btn-no-reserves = Без резервов

discord-ask-orders = { $who } сначала отдаёт приказы на ход (M3): { $how ->
        [text] напишите их здесь, например `приказ { $unit } штурм`, или `/vl расстановка приказы`
       *[slash] `/vl расстановка приказы приказы: { $unit } штурм`
    }; **Все в Продвижение** — Продвижение всем.
discord-ask-reserves = { $who } сначала может ввести резервы (M5): { $how ->
        [text] напишите здесь, например `прибыть { $unit } { $cell }`, или `/vl расстановка выставить`
       *[slash] `/vl расстановка выставить отряд: { $unit } клетка: { $cell }`
    }; **Без резервов** — в этот ход никого.

discord-cmd-orders = приказы
discord-cmd-orders-desc = Домашнее правило M3: приказы на ход (кого не назвали — Продвижение)
discord-opt-orders = приказы
discord-opt-orders-desc = Например: tac1 штурм, asl1 прицельная; пусто — Продвижение всем
discord-cmd-reserve = резерв
discord-cmd-reserve-desc = Домашнее правило M5: оставить отряд в резерве вместо расстановки
discord-opt-reserve-transport = транспорт
discord-opt-reserve-transport-desc = Транспорт, тоже оставленный в резерве, чтобы ждать в нём
discord-opt-charge-to = рывок-на
discord-opt-charge-to-desc = Домашнее правило M8: рывок к цели на эту клетку рядом с ней (дальность 2D6)
discord-opt-fall-back = отступить
discord-opt-fall-back-desc = Домашнее правило M6: выйти из рукопашной без теста морали; атаки в этот ход нет

discord-charge-choice = { $cell } → { $target }: { $length } { $length ->
        [one] шаг
        [few] шага
       *[many] шагов
    }, { $percent }% дотянуться, ожидаемо { $damage } урона
discord-charge-target = { $target } (рывок: укажите рывок-на)
discord-bad-orders = «{ $text }» — не список приказов: напишите, например, tac1 штурм, asl1 прицельная.
# Слово, которым приказ пишут в `/vl расстановка приказы` (его читает язык приказов).
discord-order-word-assault = штурм
discord-order-word-aimed_fire = прицельная
