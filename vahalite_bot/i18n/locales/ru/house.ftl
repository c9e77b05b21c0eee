# Домашние правила (раздел M правил) и сценарий: их названия, строка сводки партии, отказы при
# выборе, вопросы консоли и параметры Discord.

house-M1 = Единица — всегда провал
house-M2 = Урон в конце раунда
house-M3 = Приказы
house-M4 = Инициатива каждый раунд
house-M5 = Тактический резерв
house-M6 = Отступление
house-M7 = Дозорная стрельба
house-M8 = Нападение
house-M9 = Навык ближнего боя
house-item = { $rule } — { $name }
house-summary = Домашние правила: { $rules }
house-game-summary = Сценарий: { $scenario }
house-game-summary-with = Сценарий: { $scenario } · Домашние правила: { $rules }

service-unknown_house_rule = Домашнего правила «{ $rule }» нет: домашние правила — { $allowed }.
service-house_rules_fixed = Домашние правила зафиксированы с броска за первый ход (B1): партия уже началась.
service-house_rules_joined = Соперник уже присоединился: теперь домашние правила до броска за первый ход меняет только судья.

console-scenario-question = Какой сценарий? { $choices } (Enter: { $default }).
console-scenario-bad = Введите номер или id сценария: { $choices }.
console-prompt-scenario = сценарий >{" "}
console-house-question = Домашние правила (раздел M правил; «правило M2» — описание), все выключены, пока вы их не назовёте:
console-house-how = Введите их id, например «M2 M7», или нажмите Enter, чтобы играть без них.
console-house-bad = { $problem } Введите id, например «M2 M7», или нажмите Enter — без домашних правил.
console-prompt-house = домашние правила >{" "}

discord-opt-house = домашние
discord-opt-house-desc = Какие домашние правила включить, например M2, M7 (описание: /vl правило M2)
discord-cmd-ref-house = домашние
discord-cmd-ref-house-desc = Изменить домашние правила ещё не начавшейся партии
discord-opt-rules = правила
discord-opt-rules-desc = Включённые домашние правила, например M2, M7; «none» — без них
discord-ref-house = домашние правила теперь: { $rules }.
