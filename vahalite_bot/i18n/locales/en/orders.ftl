# Text orders (vahalite_bot/orders): refusals, help, the report of a message.
# Every refusal says what is wrong and what to type instead.

orders-quoted = “{ $text }”
orders-did-you-mean = Did you mean { $options }?
orders-for-example = For example: “{ $example }”.

## Orders that cannot be read

orders-empty = The order is empty: type “help” for the list of orders.
orders-no_order = “{ $line }” holds no order I can read: name a unit and where it goes (“{ $ex_unit } C4”), or type “help”.
orders-unknown_verb = I don't know the order “{ $word }”. Type “help” for the list of orders.
orders-unit_without_order = What should “{ $unit }” do? Give a cell to move to (“{ $unit } C4”) or a target to attack (“{ $unit } > { $ex_target }”).
orders-missing_verb = Say what “{ $unit }” should do with “{ $other }”: “{ $unit } > { $other }” attacks it, “embark { $unit } { $other }” boards it.
orders-missing_unit = Name the unit that should do it: its handle ({ $ex_unit }), the start of its name, or its cell.
orders-missing_destination = Where to? Give “{ $unit }” a cell (C4) or a path (C2-C3-C4).
orders-disembark_one_cell = Disembarking is one step to one cell: name a single cell for “{ $unit }”.
orders-missing_target = Whom should “{ $unit }” attack? Name the target after the attacker.
orders-where_target_starts = I can't tell where the attacker ends and the target begins in “{ $words }”: put “>” between them.
orders-bad_weapon_number = Weapons are numbered from 1 as on the army sheet; “{ $number }” is not one of them.
orders-mixed_attack_kinds = One attack is either melee or ranged, not both.
orders-unexpected = I don't understand “{ $words }” in the order “{ $verb }”.
orders-missing_terrain_kind = Say which terrain: obstacle, water, height or cover.
orders-unknown_terrain = “{ $word }” is not a kind of terrain: obstacle, water, height or cover.
orders-ambiguous_terrain = “{ $word }” could be several kinds of terrain: { $options }. Write more of the word.
orders-missing_cell = Name the cell, e.g. C3.
orders-unknown_help_topic = There is no order “{ $word }” to explain. Type “help” for the list of orders.
orders-bad_count = “{ $number }” is not a count: use a whole number from 1.
orders-bad_rule_id = “{ $word }” is not a rule ID: a rule is a letter and a number, e.g. E8.

## Orders that name nothing sensible in this game

orders-unknown_word = I know no unit or order “{ $word }”. Did you mean { $options }?
orders-unknown_unit = There is no unit “{ $ref }”. Name a unit by its handle as shown on the map, the start of its name, or its cell.
orders-unit_destroyed = { $unit } has been destroyed: give the order to another unit.
orders-no_unit_at = There is no unit on { $cell }: name a unit by its handle, or the cell it stands on.
orders-no_passenger = { $unit } on { $cell } carries no one: name the unit that should disembark.
orders-ambiguous_unit = “{ $ref }” could be { $count } units: { $options }. Use the handle.
orders-already_embarked = { $unit } is already inside { $transport }: move the transport, or disembark first (“disembark { $unit } C3”).
orders-not_a_transport = { $unit } is not a transport: name a transport (“embark { $ex_unit } { $ex_transport }”).
orders-no_transport_in_reach = { $unit } can reach no friendly transport with room this turn: move it nearer, or bring the transport to it.
orders-which_transport = { $unit } can reach several transports: { $options }. Name one, e.g. “embark { $unit } { $ex_transport }”.
orders-which_cell = Where should { $unit } go? Name one of: { $options }.
orders-not_embarked = { $unit } is not inside a transport: to move it, type “{ $unit } C4”.
orders-no_room_to_disembark = There is no free cell next to the transport for { $unit } to step onto: move the transport first, or stay inside.
orders-already_there = { $unit } is already on { $cell }: give it another cell.
orders-destination_enemy = The enemy { $target } stands there. To attack it, type “{ $attack }”.
orders-no_path = { $unit } cannot reach { $cell } this turn: the way is blocked. { $count ->
        [0] It cannot move anywhere now.
       *[other] It can reach: { $options }.
    }

## Short examples, one per order (used by help and by refusals)

# The units examples name when there is no game to take them from (training units).
orders-example-default-unit = tac1
orders-example-default-target = kab1
orders-example-default-transport = rhi1
orders-example-any-transport = transport
orders-example-default-unit-name = Tactical Squad
orders-example-default-target-name = Slaves
orders-example-move = move { $ex_unit } C4
orders-example-attack = attack { $ex_unit } { $ex_target }
orders-example-embark = embark { $ex_unit } { $ex_transport }
orders-example-disembark = disembark { $ex_unit } C3
orders-example-end = end
orders-example-undo = undo
orders-example-board = board
orders-example-status = status
orders-example-odds = odds { $ex_unit } { $ex_target }
orders-example-army = army enemy
orders-example-log = log 10
orders-example-help = help attack
orders-example-roll = roll
orders-example-deploy_order = first
orders-example-terrain = terrain cover C2
orders-example-sp = sp C3
orders-example-deploy = deploy { $ex_unit } B2
orders-example-advance = advance
orders-example-resign = resign
orders-example-rule = rule E8
orders-example-verify = verify

## Help

orders-help-intro = Orders, one per line; Russian words work as well. A unit is named by its handle ({ $ex_unit }), the start of its name ({ $ex_prefix }), or its cell (C2).
orders-help-outro = Type “help” and an order for more, e.g. “help attack”.
orders-help-move = move (go, walk) — “{ orders-example-move }”, or just “{ $ex_unit } C4” or “C2-C4”.
orders-help-move-details =
    Move to a cell by the shortest legal path: “move { $ex_unit } C4”, “{ $ex_unit } C4”.
    Or give the whole path: “move { $ex_unit } C2-C3-C4”, or “C2-C3-C4” for the unit on C2.
    “C2-C4” moves the unit on C2 to C4. Moving onto a friendly transport embarks.
    Dashes, arrows (→, ->) and spaces all separate the cells of a path.
orders-help-attack = attack (shoot, fight) — “{ orders-example-attack }”, or “{ $ex_unit } > { $ex_target }”, “C2>D4”.
orders-help-attack-details =
    “attack { $ex_unit } { $ex_target }” fires every weapon that reaches (melee first when it reaches).
    “shoot” fires ranged weapons only, “fight” (or “melee”) strikes in melee only.
    Numbers pick weapons as on the army sheet: “attack { $ex_unit } { $ex_target } 1 2”.
    Shorthand: “{ $ex_unit } > { $ex_target }”, “C2>D4”. Between names of several words put “>”: “attack { $ex_unit_name } > { $ex_target_name }”.
orders-help-embark = embark (mount) — “{ orders-example-embark }”, or “embark { $ex_unit }” for the only transport in reach.
orders-help-embark-details =
    The unit moves onto its transport's cell and its move ends; the transport may still move.
    “embark { $ex_unit }” picks the transport when only one is in reach; “move { $ex_unit } C3” onto a transport's cell embarks too.
orders-help-disembark = disembark (dismount) — “{ orders-example-disembark }”.
orders-help-disembark-details =
    One step from the transport to a free neighbouring cell: “disembark { $ex_unit } C3”, or “disembark C2 C3” for the passenger of the transport on C2.
    With one free cell only, “disembark { $ex_unit }” is enough. A unit that disembarked cannot attack this turn.
orders-help-end = end (done, end turn) — “{ orders-example-end }”: ends your turn.
orders-help-end-details = Ends your turn; units that did nothing simply did nothing.
orders-help-undo = undo — “{ orders-example-undo }”: takes back your last action this turn (“undo 2”: the last two).
orders-help-undo-details = Takes back your own last actions of this turn, as far as the game allows (what rolled dice needs your opponent's agreement).
orders-help-board = board (map) — “{ orders-example-board }”: shows the board.
orders-help-board-details = Shows the board as it stands now.
orders-help-status = status — “{ orders-example-status }”: the state of the game: whose turn it is, the round, the strategic positions.
orders-help-status-details = Shows whose turn or setup step it is, the round, the strategic positions and the units' HP.
orders-help-odds = odds — “{ orders-example-odds }”: the chances of an attack before you make it.
orders-help-odds-details =
    The same words as an attack (“odds { $ex_unit } > { $ex_target } 2”, “odds { $ex_unit } { $ex_target } melee”); nothing is rolled.
    Shows the dice, the number each needs, and the chance of each amount of damage.
orders-help-army = army — “army”: your army list; “{ orders-example-army }” for your opponent's.
orders-help-army-details = Lists the units with their handles, HP, weapons (numbered) and where they stand.
orders-help-log = log — “log”: the game's log (“{ orders-example-log }”: the last ten entries).
orders-help-log-details = Every action with its dice, so any roll can be checked.
orders-help-help = help — “help”: this list; “{ orders-example-help }” explains one order.
orders-help-help-details = “help” lists every order; “help” and an order's name explains it.
orders-help-roll = roll — “{ orders-example-roll }”: the roll-off for the first turn (the bot rolls).
orders-help-roll-details = One d6: 1-3 the south player takes the first turn of every round, 4-6 the north player.
orders-help-deploy_order = first / second — “{ orders-example-deploy_order }” or “second”: after losing the roll-off, deploy first or second.
orders-help-deploy_order-details = The player who lost the roll-off chooses: “first” (or “deploy first”) or “second”.
orders-help-terrain = terrain — “{ orders-example-terrain }”, or just “cover C2”.
orders-help-terrain-details =
    Place a piece of your set on your half: obstacle, water, height or cover (“height B3”, “water D2”).
    A piece's name may be shortened: “hei B3”.
orders-help-sp = sp — “{ orders-example-sp }”: place a strategic position.
orders-help-sp-details = Three on your half, not on an edge cell, not on Obstacle or Water, one per cell.
orders-help-deploy = deploy (place) — “{ orders-example-deploy }”, or “deploy { $ex_unit } { $ex_transport }” to start inside a transport.
orders-help-deploy-details =
    Place your units in your deployment zone, one per cell; a unit may start inside a transport placed before it.
    When a transport is wrecked and its passenger has several cells to go to, the same order places it: “place { $ex_unit } C3”.
orders-help-advance = advance / stay — “{ orders-example-advance }” or “stay”: after a melee kill, move into the target's cell or not.
orders-help-advance-details = “advance” (or “advance yes”) moves into the destroyed target's cell; “stay” (or “advance no”) stays.
orders-help-resign = resign — “{ orders-example-resign }”: concede the game.
orders-help-resign-details = Ends the game at once with your opponent as the winner.
orders-help-rule = rule — “{ orders-example-rule }”: the text of a rule of the game (“rule” alone lists them).
orders-help-rule-details = Every rule has an ID, a letter and a number (E8 is cover); “rule E8” shows it, “rule” lists every ID.
orders-help-verify = verify — “{ orders-example-verify }”: check every die of the game against its dice seed.
orders-help-verify-details = Writes the game's log to a file and checks it as anyone can with the verifier (python -m vahalite_bot.verify FILE): every die's position and value, the players' words, and the seed against the hash published at the start (docs/dice.md). Before the end of the game only the order of the dice can be checked: the seed is revealed at the end.

## Rules of the game, answered to “rule E8”

orders-rule-heading = Rule { $rule }: { $title }
orders-rule-unknown = There is no rule “{ $rule }”. { $count ->
        [0] Type “rule” for the list of rules.
       *[other] Did you mean { $options }?
    }
orders-rule-list = The rules: { $ids }. Type “rule” and an ID for one, e.g. “{ orders-example-rule }”.

## The report of a message of several orders

orders-report-applied = ✓ { $line }
orders-report-refused = ✗ { $line } — { $reason }
orders-report-skipped = … not tried: { $line }
