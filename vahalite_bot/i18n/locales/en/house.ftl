# House rules (the rules, section M) and the scenario: their names, the game's summary line, the
# refusals of choosing them, the console's questions and the Discord options.

house-M1 = Natural 1 fails
house-M2 = Damage at the end of the round
house-M3 = Orders
house-M4 = Initiative each round
house-M5 = Tactical reserve
house-M6 = Fall back
house-M7 = Overwatch
house-M8 = Charge
house-M9 = Weapon Skill
house-item = { $rule } — { $name }
house-summary = House rules: { $rules }
house-game-summary = Scenario: { $scenario }
house-game-summary-with = Scenario: { $scenario } · House rules: { $rules }

service-unknown_house_rule = There is no house rule “{ $rule }”: the house rules are { $allowed }.
service-house_rules_fixed = The house rules are fixed from the roll-off (B1): this game has begun.
service-house_rules_joined = Your opponent has joined: now only the referee may change the house rules, until the roll-off.

console-scenario-question = Which scenario? { $choices } (Enter: { $default }).
console-scenario-bad = Type a scenario's number or id: { $choices }.
console-prompt-scenario = scenario >{" "}
console-house-question = House rules (section M of the rules; "rule M2" explains one), all off unless you name them:
console-house-how = Type their ids, e.g. "M2 M7", or press Enter for none.
console-house-bad = { $problem } Type ids such as "M2 M7", or press Enter for none.
console-prompt-house = house rules >{" "}

discord-opt-house = house
discord-opt-house-desc = House rules to switch on, e.g. M2, M7 (/vl rule M2 explains one)
discord-cmd-ref-house = house
discord-cmd-ref-house-desc = Change the house rules of a game not yet begun
discord-opt-rules = rules
discord-opt-rules-desc = The house rules on, e.g. M2, M7; "none" for none
discord-ref-house = the house rules are now: { $rules }.
