# Слова на картинке поля и в повторе партии (vahalite_bot/render, через render/labels.py).
# Картинки короткие: строки должны помещаться в шапку, легенду и подпись.
# $name — имя игрока (или название стороны), $unit — отряд: его метка, при первом упоминании
# с названием (render-unit); $cell, $start, $end — клетки (C3).

## Шапка

render-side-south = Юг
render-side-north = Север
render-vp = ПО
render-round = Раунд { $round } из { $rounds }
render-turn = ходит { $name }
render-phase-roll_off = Бросок за первый ход
render-phase-deploy_order = Выбор порядка расстановки
render-phase-terrain = Расстановка местности
render-phase-sp = Расстановка СП
render-phase-deployment = Расстановка войск
render-phase-ended = Игра окончена
render-setup-actor = очередь: { $name }
render-result-win = Победа: { $name }
render-result-draw = Ничья
render-reason-score = по очкам
render-reason-annihilation = армия противника уничтожена
render-reason-resignation = соперник сдался

## Легенда ($value — значение укрытия или укрепления; строка легенды может занять две строки)

render-terrain-obstacle = Препятствие
render-terrain-water = Водоём
render-terrain-height = Высота
render-terrain-cover = Укрытие { $value }+
render-terrain-fortification = Укрепление { $value }+
render-legend-fortification = Укрепление
render-legend-sp = СП
# Треугольник на фишке: действует повреждённый профиль (E7); потерю HP показывает полоска HP.
render-legend-damaged =
    повреждённый
    профиль
render-legend-loaded = десант

## Подпись: что произошло за последнее действие

render-unit = { $handle } «{ $name }»
render-event-rolled_off = Бросок { $value }: первым ходит { $name }
render-event-deploy_order = { $name } расставляется { $order }
render-order-first = первым
render-order-second = вторым
render-event-terrain = { $kind }: { $cell }
render-event-sp_placed = СП: { $cell }
render-event-deployed = { $unit } → { $cell }
render-event-deployed_in = { $unit } в { $transport }
render-event-moved = { $unit }: { $start } → { $end }
render-event-embarked = { $unit } садится в { $transport }
render-event-disembarked = { $unit } высаживается: { $end }
render-event-attack = { $unit } → { $target }: −{ $damage }
render-event-miss = { $unit } → { $target }: мимо
render-event-morale = { $unit }: мораль −{ $lost }
render-event-destroyed = { $unit } уничтожен
render-event-passengers_hit = { $unit }: −{ $damage } при крушении
render-event-placed = { $unit } → { $cell }
render-event-advanced = { $unit } занимает { $cell }
render-event-captured = СП { $cell }: { $name }
render-event-turn_ended = { $name } завершает ход
render-event-resigned = { $name } сдаётся
# $units — метки ещё не выставленных отрядов через запятую.
render-waiting = Не выставлены: { $units }

## Повтор партии

render-replay-final = Итог

## The passenger of a destroyed transport (H5), waiting to be placed

# $name places $unit (a handle) during the other side's turn: after the header's "X to play".
render-placing = { $name } ставит { $unit }
# $cells: the cells it may take, comma-separated.
render-waiting_passenger = { $unit } ждёт высадки: { $cells }

## The recap image: a whole turn

render-recap-turn = Ход: { $name }, раунд { $round }
# $units: the handles of the units destroyed in the turn, comma-separated.
render-recap-destroyed = Уничтожены: { $units }
render-recap-vp = ПО { $before } → { $after }
