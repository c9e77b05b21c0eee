# Rule errors raised by the engine: one message per IllegalAction code.
# Each says what is wrong and, where it helps, what to do instead.

# An engine refusal: the rule it cites, written out so that it cannot be read as a cell.
rule-reference = (rule { $rule }) { $reason }

side-south = South
side-north = North

terrain-obstacle = Obstacle
terrain-water = Water
terrain-height = Height
terrain-cover = Cover
terrain-fortification = Fortification

phase-roll_off = the roll-off
phase-deploy_order = choosing who deploys first
phase-terrain = terrain placement
phase-sp = strategic position placement
phase-deployment = deployment
phase-playing = play
phase-ended = the end of the game

error-unknown_unit = There is no unit “{ $unit }” on the board. Use a unit's handle as shown on the map.
error-duplicate_handle = Two units share the handle “{ $unit }”.
error-game_over = The game is over: no more orders.
error-wrong_phase = That belongs to { $expected }, but the game is at { $phase }.
error-not_your_setup_step = It is not { $side }'s setup step: wait for your opponent.
error-not_own_half = { $cell } is not in your half of the board: choose a cell on your side.
error-no_terrain_left = You have no { $kind } left to place.
error-cell_has_terrain = { $cell } already holds terrain: choose an empty cell.
error-terrain_blocks_deployment = Terrain on { $cell } would leave too little room to deploy your army: choose another cell.
error-sp_on_edge = { $cell } is on the edge of the board: strategic positions go at least one cell in from the edge.
error-sp_not_enterable = Infantry cannot enter { $cell } ({ $terrain }): put the strategic position elsewhere.
error-sp_taken = { $cell } already has a strategic position.
error-sp_blocks_deployment = A strategic position on { $cell } would leave too little room to deploy your army.
error-not_your_unit = { $unit } is not your unit.
error-already_deployed = { $unit } is already deployed.
error-outside_deploy_zone = { $cell } is outside your deployment zone.
error-cannot_deploy_here = { $reason ->
        [terrain] { $unit } cannot be deployed on { $cell }: no unit stands in { $terrain }.
        [vehicle_cover] { $unit } cannot be deployed on { $cell }: vehicles cannot enter { $terrain }.
       *[sp] { $unit } cannot be deployed on { $cell }: a flyer cannot stand on a strategic position.
    }
error-deploy_blocks_others = Deploying { $unit } on { $cell } would leave no room for the rest of your army: choose another cell.
error-cannot_embark = { $unit } cannot ride { $transport }: wrong unit type, too many models, or it is already carrying a unit.
error-not_playing = Orders come once setup is done; the game is at { $phase }.
error-not_your_turn = It is not { $side }'s turn: wait for your opponent to end theirs.
error-move_after_attack = { $unit } cannot move: this turn's attacks have begun, and all moves come before the first attack.
error-nothing_pending = There is no decision to make now.
error-decision_pending = First decide what happens to { $unit } ({ $side }).
error-placement_not_allowed = The passenger cannot be placed on { $cell }: choose one of { $cells }.
error-already_moved = { $unit } has already moved this turn.
error-empty_path = Give { $unit } a destination or a path, e.g. C3 or C2-C3-C4.
error-path_too_long = { $unit } moves at most { $m } { $m ->
        [one] step
       *[other] steps
    }; that path is { $length }.
error-not_orthogonal = { $frm } to { $cell } is not one orthogonal step: moves go cell by cell, never diagonally.
error-path_revisits = The path for { $unit } visits a cell twice.
error-off_board = { $cell } is off the board: name a cell of the board, e.g. C4.
error-blocked_by_terrain = Blocked at { $cell } by { $terrain }.
error-blocked_by_enemy = Blocked at { $cell } by the enemy { $enemy }.
error-flyer_cannot_end = A flyer cannot end its move on { $cell } (Obstacle or strategic position).
error-end_not_empty = { $cell } is taken by { $occupant }: a move must end on an empty cell.
error-embark_after_disembark = { $unit } disembarked this turn and cannot embark again until the next.
error-disembark_after_embark = { $unit } embarked this turn and cannot disembark until the next.
error-disembark_one_step = Disembarking is a single step from the transport to a free neighbouring cell.
error-disembark_adjacent = { $cell } is not next to { $unit }'s transport.
error-target_embarked = { $target } is inside a transport and cannot be attacked: attack the transport.
error-embarked_shooting_only = From inside an open-topped transport { $unit } may only shoot.
error-flyer_no_melee = Flyers neither make nor suffer melee attacks.
error-melee_out_of_reach = { $target } is { $distance } away: melee reaches only an orthogonally adjacent cell.
error-vehicle_melee_into_cover = Vehicles cannot attack { $target } in melee while it is in Cover or a Fortification.
error-out_of_range = The target is { $distance } away, beyond the range of { $weapon }, { $range }.
error-too_close = The target is { $distance } away, closer than the minimum range of { $weapon }, { $minimum }: choose another weapon or a target farther away.
error-artillery_after_move = { $weapon }: artillery cannot fire after the unit moved this turn.
error-no_line_of_sight = No line of sight to { $target }: blocked at { $cells } (an Obstacle or Height is in the way).
error-target_is_friendly = { $target } is on your side: choose an enemy unit.
error-no_such_weapon = { $unit } has no weapon number { $weapon }.
error-melee_and_ranged_mixed = One attack uses either melee or ranged weapons, not both.
error-no_weapon_chosen = Name at least one weapon, or none to fire all that reach.
error-no_weapon_of_kind = { $unit } has no weapon of that kind.
error-already_attacked = { $unit } has already attacked this turn.
error-disembarked_cannot_attack = { $unit } disembarked this turn and cannot attack.
error-embarked_cannot_attack = { $unit } is inside a closed transport and cannot attack: disembark first (next turn it may attack).
error-not_on_board = { $unit } is not on the board.
error-cell_occupied = { $cell } is taken by { $occupant }: deploy on an empty cell.
