# House rules M6 (fall back) and M8 (charge): refusals, narration and the orders' help.

error-fall_back_not_in_game = This game does not play house rule M6: { $unit } cannot fall back (a plain move out of melee takes the morale test).
error-fall_back_not_in_melee = { $unit } is not next to an enemy ground unit: there is nothing to fall back from; give a plain move.
error-fall_back_ends_in_contact = A fall back must end away from the enemy, but { $cell } is next to { $enemy }: choose a cell no enemy ground unit touches, or a friendly transport.
error-fell_back_cannot_attack = { $unit } fell back this turn and cannot attack.
error-move_ends_in_contact = A move may not end next to an enemy ground unit ({ $enemy } touches { $cell }) unless it began next to one: charge instead (“charge { $unit } { $enemy }”).
error-charge_not_in_game = This game does not play house rule M8: { $unit } cannot charge.
error-embarked_cannot_charge = { $unit } is inside a transport and cannot charge: disembark first (next turn it may).
error-cannot_charge_type = { $unit } cannot charge: vehicles and flyers never do.
error-charge_without_melee = { $unit } has no melee weapon to charge with.
error-charge_from_contact = { $unit } is already next to { $enemy }: attack it in melee instead of charging.
error-charge_cell_not_beside = { $cell } is not next to { $target }: a charge ends on an empty cell orthogonally next to its target.
error-charge_no_path = { $unit } has no way to { $cell }: terrain or enemies block every path.
error-charge_too_far = { $cell } is { $length } steps from { $unit }: a charge reaches at most 3 (11-12 on 2D6).

console-ev-fell-back = { $unit } falls back (no morale test, no attack this turn).
console-ev-charge = { $unit } charges { $target } toward { $cell } ({ $length } { $length ->
        [one] step
       *[other] steps
    }{ $rolled ->
        [yes] ; 2D6 { $dice } = reach { $reach }
       *[no] {""}
    }): { $made ->
        [yes] it arrives!
       *[no] it falls short and stays, its attack spent.
    }
console-ev-weapon-charge = {" "}(+{ $count } { $count ->
        [one] die
       *[other] dice
    } for the charge)

orders-example-fall_back = fall back { $ex_unit } B2
orders-example-charge = charge { $ex_unit } { $ex_target } C4
orders-help-fall_back = fall back (retreat) — “{ orders-example-fall_back }”: house rule M6, leave melee without the morale test.
orders-help-fall_back-details =
    A unit next to an enemy ground unit moves away without the morale test: “fall back { $ex_unit } B2” (a whole path works too).
    The move must end away from every enemy ground unit, or inside a friendly transport, and the unit makes no attack this turn.
orders-help-charge = charge — “{ orders-example-charge }”: house rule M8, rush at an enemy and strike in melee.
orders-help-charge-details =
    As its attack, a unit with a melee weapon not next to an enemy charges an enemy ground unit: “charge { $ex_unit } { $ex_target } C4” names the empty cell beside the target to end on (without a cell the nearest is taken).
    If the path is longer than 1, 2D6 give the reach: 1 on 2-6, 2 on 7-10, 3 on 11-12. Made, the unit strikes in melee with one extra die on one melee weapon (a die per model for per-model weapons), none if the target is in cover. Failed, it stays and its attack is spent.
