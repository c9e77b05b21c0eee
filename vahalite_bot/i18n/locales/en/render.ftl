# Words on the board image and in the game replay (vahalite_bot/render, via render/labels.py).
# The images are small: texts must fit in the header, the legend and the caption.
# $name is a player's name (or the side's), $unit a unit: its handle, with its name the first
# time it is mentioned (render-unit); $cell, $start, $end are cells (C3).

## Header

render-side-south = South
render-side-north = North
render-vp = VP
render-round = Round { $round } of { $rounds }
render-turn = { $name } to play
render-phase-roll_off = Roll-off for the first turn
render-phase-deploy_order = Choosing the deployment order
render-phase-terrain = Placing terrain
render-phase-sp = Placing SPs
render-phase-deployment = Deployment
render-phase-ended = Game over
render-setup-actor = { $name } to act
render-result-win = { $name } wins
render-result-draw = Draw
render-reason-score = on points
render-reason-annihilation = enemy army destroyed
render-reason-resignation = opponent resigned

## Legend ($value is the cover or fortification value; an entry may take two lines)

render-terrain-obstacle = Obstacle
render-terrain-water = Water
render-terrain-height = Height
render-terrain-cover = Cover { $value }+
render-terrain-fortification = Fortification { $value }+
render-legend-fortification = Fortification
render-legend-sp = SP
# The triangle on a token: E7's damaged profile is in force (lost HP alone shows on the HP plate).
render-legend-damaged =
    damaged
    profile
render-legend-loaded = carrying

## Caption: what the last action did

render-unit = { $handle } “{ $name }”
render-event-rolled_off = Roll { $value }: { $name } plays first
render-event-deploy_order = { $name } deploys { $order }
render-order-first = first
render-order-second = second
render-event-terrain = { $kind }: { $cell }
render-event-sp_placed = SP: { $cell }
render-event-deployed = { $unit } → { $cell }
render-event-deployed_in = { $unit } in { $transport }
render-event-moved = { $unit }: { $start } → { $end }
render-event-embarked = { $unit } embarks in { $transport }
render-event-disembarked = { $unit } disembarks: { $end }
render-event-attack = { $unit } → { $target }: −{ $damage }
render-event-miss = { $unit } → { $target }: no damage
render-event-morale = { $unit }: morale −{ $lost }
render-event-destroyed = { $unit } destroyed
render-event-passengers_hit = { $unit }: −{ $damage } in the wreck
render-event-placed = { $unit } → { $cell }
render-event-advanced = { $unit } advances to { $cell }
render-event-captured = SP { $cell }: { $name }
render-event-turn_ended = { $name } ends the turn
render-event-resigned = { $name } resigns
# $units: the handles of the units not deployed yet, comma-separated.
render-waiting = Not deployed: { $units }

## Replay

render-replay-final = Final

## The passenger of a destroyed transport (H5), waiting to be placed

# $name places $unit (a handle) during the other side's turn: after the header's "X to play".
render-placing = { $name } places { $unit }
# $cells: the cells it may take, comma-separated.
render-waiting_passenger = { $unit } waits to be placed: { $cells }

## The recap image: a whole turn

render-recap-turn = { $name }'s turn, round { $round }
# $units: the handles of the units destroyed in the turn, comma-separated.
render-recap-destroyed = Destroyed: { $units }
render-recap-vp = VP { $before } → { $after }
