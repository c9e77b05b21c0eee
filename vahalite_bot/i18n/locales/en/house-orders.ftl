# House rules M1 (natural 1), M3 (orders), M7 (Overwatch), M9 (Weapon Skill): refusals,
# narration and the orders' help.

turn-order-advance = Advance
turn-order-assault = Assault
turn-order-aimed_fire = Aimed Fire

error-orders_pending = First give this turn's orders (house rule M3), for example “orders { $unit } assault” or “orders { $unit } aimed”; units you don't name Advance, and “orders” alone gives every unit Advance.
error-aimed_fire_no_move = { $unit } has Aimed Fire this turn: it makes no move of any kind.
error-assault_melee_only = { $unit } has Assault this turn: after its move it may attack only in melee.
error-order_given_twice = { $unit } is named twice: give each unit one order.
error-flyer_always_advances = { $unit } is a flyer: flyers always Advance.
error-order_off_board = { $unit } is not on the board: it can only Advance.

orders-order_without_unit = Whose order is “{ $order }”? Name the unit first, then its order.
orders-unit_without_turn_order = Which order for “{ $unit }”? Follow it with assault, aimed or advance.

console-ev-orders-required = { $side ->
        [south] South
       *[north] North
    } gives this turn's orders first (M3): “orders { $unit } assault” (a move of up to 2 × M, then only melee), “orders { $unit } aimed” (no move, shooting +1, melee −1); units not named Advance; “orders” alone: all Advance.
console-ev-orders-given = Orders of { $side }: { $count ->
        [0] every unit Advances.
       *[other] { $orders }; every other unit Advances.
    }
console-ev-order-item = { $unit } — { $order }
console-ev-overwatch = { $unit }{ $damaged ->
        [yes] {" "}(damaged profile)
       *[no] {""}
    } fires Overwatch at { $target } (only a natural 6 hits):
console-ev-weapon-modifier = {" "}(each die { $modifier }, kept within 1-6)
console-ev-weapon-natural-one = {" "}(a natural 1 always fails)

orders-example-orders = orders { $ex_unit } aimed
orders-help-orders = orders — “{ orders-example-orders }”: house rule M3, the turn's orders before the first move.
orders-help-orders-details =
    Each unit gets one order: “orders { $ex_unit } assault, { $ex_unit } aimed” (one line, any number of units); units not named Advance, and “orders” alone gives every unit Advance.
    Advance: the normal turn. Assault (assault): a move of up to twice M, then only a melee attack. Aimed Fire (aimed): no move of any kind; Shooting and Artillery dice +1, melee dice −1. Flyers always Advance.
