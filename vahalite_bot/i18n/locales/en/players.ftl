# Issue 19: what players hit in whole games (recap image, ready-made lists, checking a
# finished game, flight from melee, hints and refusals).

## The board image (render/labels.py reads the render- messages)

# M8: $unit charged at $target and ended on $end.
render-event-charged = { $unit } charges { $target }: { $end }
# A unit that fell on a cell a living unit holds now: a tag in the cell names it, with the
# damage it took ($damage, 0 if none).
render-fallen = ✕ { $unit }{ $damage ->
        [0] {""}
       *[other] {" "}−{ $damage }
    }

## Narration

# D5: the move that made $unit test its morale ($path: its cell, then each cell: C3 → C2).
console-leaving-melee-move = { $unit } tries to leave melee: { $path }

## A word alone, answered as the phase needs (orders/phase_fit.py)

# B5: a unit named alone while armies are deployed.
orders-deploy_without_cell = Where should “{ $unit }” deploy? Name a cell of your deployment zone: “deploy { $unit } B2”.
# B4: a word alone while SPs are placed.
orders-sp_without_verb = Strategic positions are being placed now: “{ $word }” is no order. Type “sp C4”, a cell of your half.
