# House rules M2 (damage at the end of the round), M4 (initiative), M5 (tactical reserve):
# refusals, narration and the orders' help.

error-reserve_off_board = { $unit } is in reserve, off the board: it arrives only at the start of your turn, when the bot asks (house rule M5).
error-target_in_reserve = { $target } is in reserve, off the board: it cannot be attacked (house rule M5).
error-reserve_full = At most { $limit } of your units may wait in reserve (half, rounded down; a transport and its passenger count two): deploy { $unit }.
error-transport_not_in_reserve = { $transport } is not in reserve: a unit held back rides only a transport held back too.
error-reserve_rule_off = This game does not play house rule M5: every unit deploys.
error-not_a_reserve = { $unit } is not a reserve that can arrive now.
error-reserve_cell_not_allowed = { $unit } cannot arrive on { $cell }: a reserve arrives on an empty cell of your deployment zone that it may stand on, with no enemy unit next to it. Open: { $cells }.
error-reserves_pending = { $side } first brings in reserves (house rule M5): “arrive” a unit, or “done” to bring no more this turn.
error-reserve_blocks_others = Holding { $unit } back would leave no room to deploy the rest of your army: deploy it, or hold back another unit.

orders-arrive_one_cell = A reserve arrives on one cell: name a single cell for “{ $unit }”.

console-ev-falling = ☠ { $unit } falls to 0 HP{ $by ->
        [none] {""}
       *[other] {" "}(credited to { $by })
    }: it stays on the board and acts until the damage step (M2).
console-ev-advance-chosen = { $unit } will advance to { $cell } in the damage step, if it remains and the cell is free (M2).
console-ev-damage-step = ── Damage step, end of round { $round } (M2) ──
console-ev-initiative = Initiative for round { $round } (M4): South { $south }, North { $north }{ $tie ->
        [yes] , a tie: it goes to the side that went second last round
       *[no] {""}
    }. { $side } takes the first turn.
console-ev-reserve-held = { $side } holds { $unit } in reserve{ $transport ->
        [none] {""}
       *[other] {" "}inside { $transport }
    }.
console-ev-reserves-offered = { $side } may bring in reserves (M5): { $units }. For example “arrive { $unit } { $cell }”; “done” brings no more this turn.
console-ev-reserve-placed = { $unit } arrives from reserve at { $cell }{ $passenger ->
        [none] {""}
       *[other] , carrying { $passenger }
    }.
console-ev-reserves-done = { $side } brings no more reserves this turn.
console-ev-reserve-expired = ✖ { $unit } never arrived from reserve: destroyed at the end of round 4 (M5).

orders-example-reserve = reserve { $ex_unit }
orders-example-arrive = arrive { $ex_unit } B2
orders-help-reserve = reserve — “{ orders-example-reserve }”: house rule M5, hold a unit back at deployment.
orders-help-reserve-details =
    At deployment, instead of placing it, hold a unit back: “reserve { $ex_unit }”. Up to half your units, rounded down, may wait; a passenger rides a transport held back with it: “reserve { $ex_unit } { $ex_transport }” (the two count two).
    Reserves cannot be attacked or take SPs and count as still alive; those that have not arrived by the end of round 4 are destroyed, one VP each to the opponent.
orders-help-arrive = arrive — “{ orders-example-arrive }”: house rule M5, bring a reserve in at the start of your turn.
orders-help-arrive-details =
    At the start of each of your turns you may bring reserves in, one by one: “arrive { $ex_unit } B2” on an empty cell of your deployment zone with no enemy unit next to it; “done” brings no more this turn.
    Arriving is not a move: the unit then moves and attacks as usual.

console-board-reserves = In reserve (M5): { $list }
