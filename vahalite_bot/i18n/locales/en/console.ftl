# The game in the terminal (vahalite_bot/console): hints, the board, events with all their dice.
# $side in messages with a selector is the side's value: south or north.

## Start, saving, modes

console-welcome = Vaha-Lite in the terminal.
console-lang-hint = Language: English. Для игры на русском запустите с --lang ru (например, { $command }).
console-mode-hotseat = Two players at one computer: the prompt shows whose orders come next.
console-mode-vs = You play South; North is played by the automatic player: { $player }.
console-player-name = { $name ->
        [greedy] greedy (takes the most profitable move and attack)
        [random] random (any legal order)
       *[none] none, two players
    }
console-quit-hint = "help" lists every order; "quit" saves the game and exits (run the same command to go on).
console-created = Game #{ $game } at { $points } points. Hash of the dice seed (to check the dice after the game): { $commitment }
console-resumed = Resuming game #{ $game }.
console-resumed-mode = This game keeps its mode; automatic player: { $player }. For another mode, start a new game (--new).
console-abandoned = Unfinished game #{ $game } closed without a result (--new).
console-saved = Game #{ $game } saved. Run the same command again to go on.
console-play-again = A new game starts next time.
console-picture = Board image: { $path }
console-seed = Dice seed: { $seed } (its hash was published at the start: { $commitment }): every roll of the game can be checked.
console-help-extra = "quit" saves the game and exits. Separate several orders on one line with ";".
console-auto-declines-undo = The automatic player does not agree to take back actions that rolled dice.
console-undo-consent = { $side ->
        [south] South
       *[north] North
    }, { $asker ->
        [south] South
       *[north] North
    } asks to take back actions that rolled dice. Agree? (yes/no) >{" "}
console-log-undone = {" "}(undone)
console-resign-confirm = { $side ->
        [south] South
       *[north] North
    }, resign and lose the game? (yes/no) >{" "}
console-resign-kept = The game goes on.
console-handover = ── Hand the keyboard over: { $side ->
        [south] South
       *[north] North
    } to play ──

## The recap of everything since a player's last turn (present/recap.py, issue 11)

console-recap-title = ── Since your last turn ──
console-recap-nothing = Nothing has happened.
# $units: the units destroyed, each as "handle (name)", comma-separated.
console-recap-destroyed = Destroyed: { $units }.
# $before and $after: the sides holding the SP before and now.
console-recap-sp = SP { $cell }: { $before } → { $after }.
console-recap-vp = VP: South { $south_before } → { $south_after }, North { $north_before } → { $north_after }.
console-recap-picture = The whole turn in one image: { $path }

## Prompts

console-prompt-points = points >{" "}
console-prompt-army = { $side }, army >{" "}
console-prompt-paste = list >{" "}
console-prompt-setup = { $side } · { $phase } >{" "}
console-prompt-play = { $side } · round { $round }/{ $rounds } >{" "}

## Armies

console-points-question = How many points? { $choices } (Enter: { $default }).
console-points-bad = Choose one of: { $choices }.
console-army-title = { $side ->
        [south] South's
       *[north] North's
    } army{ $auto ->
        [yes] {" "}(played by the automatic player)
       *[no] {""}
    }: choose a faction.
console-army-how = Type a faction's number or name for its ready-made { $points }-point list, or "list" to paste your own army list.
console-army-unknown = No faction "{ $text }": type a number from 1 to { $count }, a name, or "list".
console-army-no-ready = { $faction } has no ready-made list at { $points } points: paste your own ("list").
console-army-confirm = Take this list? (Enter or "yes": yes; "no": choose another) >{" "}
console-paste-intro = Paste the army list, one unit a line, e.g. "Captain + Jump pack" or "Tactical Squad + Plasma gun > Rhino" (the points in brackets may be left out); end with an empty line.
console-paste-bad = The list could not be read:
console-army-rejected = The army breaks the rules:
console-army-accepted = { $side ->
        [south] South's
       *[north] North's
    } army accepted: { $faction }, { $points } { $points ->
        [one] point
       *[other] points
    } of { $limit }.

## What to do now

console-hint-deploy-order = { $side } lost the roll-off and chooses the deployment order: "first" or "second" (the second sees the first's deployment).
console-hint-terrain = { $side } places terrain on their half (rows { $rows }). Left: { $left }. For example: "{ $example }".
console-terrain-left = { $kind } ×{ $count }
console-example-terrain = { $kind ->
        [obstacle] obstacle
        [water] water
        [height] height
        [cover] cover
       *[fortification] fortification
    } { $cell }
console-hint-sp = { $side } places strategic positions (SP) on their half, not on an edge cell, an Obstacle or Water: { $count } left. For example: "{ $example }".
console-example-sp = sp { $cell }
console-hint-deploy = { $side } deploys in rows { $rows }. Not deployed yet: { $units }. For example: "{ $example }".
console-example-deploy = deploy { $unit } { $cell }
console-hint-deploy-in = To start in a transport: "deploy { $unit } { $transport }".
console-hint-turn = { $side }: your turn, round { $round } of { $rounds }. Moves first, then attacks. For example: "{ $unit } { $cell }" moves, "{ $unit } > { $target }" attacks, "odds { $unit } { $target }" shows the odds, "army" lists your units and weapons, "end" ends the turn.
console-hint-turn-short = { $side }: your turn, round { $round } of { $rounds }.

## The board

console-side-letter = { $side ->
        [south] S
       *[north] N
    }
console-side-auto = { $side } (auto)
console-board-header-play = Round { $round } of { $rounds } · { $side ->
        [south] South
       *[north] North
    } to play · VP now: South { $south }, North { $north }
console-board-header-setup = Setup: { $phase }{ $side ->
        [south] {" "}· South to act
        [north] {" "}· North to act
       *[none] {""}
    }
console-board-header-ended = Game over
console-legend-terrain = ▲ height · ♣3+ cover · ▣ fortification · ≈ water · ▓ obstacle · ◆S/◆N: an SP and who holds it
console-legend-units = S/N: a South/North unit, the number is its HP (red: damaged), "+": a transport with a unit inside
console-board-passengers = In transports: { $list }
console-board-waiting = Waiting to be placed by { $side ->
        [south] South
       *[north] North
    }: { $unit } (out of its wrecked transport), on one of { $cells }

## Events

console-unit-named = { $handle } ({ $name })
console-ev-rolled-off = Roll-off: { $die } → { $side } takes the first turn of every round.
console-ev-deploy-order = { $side } decides: { $first } deploys first.
console-ev-terrain = { $side }: { $kind } at { $cell }.
console-ev-sp = { $side }: SP at { $cell }.
console-ev-deployed = { $unit } deploys at { $cell }.
console-ev-deployed-in = { $unit } starts in { $transport } at { $cell }.
console-ev-setup-step = — Next: { $phase }, { $side ->
        [south] South
       *[north] North
    } to act —
console-ev-turn-started = ══ Round { $round } of { $rounds }: { $side ->
        [south] South's
       *[north] North's
    } turn ══
console-ev-moved = { $unit }: { $path }.
console-ev-moved-carrying = { $unit }: { $path } (carrying { $passenger }).
console-ev-embarked = { $unit } embarks in { $transport }: { $path }.
console-ev-disembarked = { $unit } disembarks from { $transport } to { $cell }.
console-ev-attack = { $unit }{ $damaged ->
        [yes] {" "}(damaged profile)
       *[no] {""}
    } { $kind ->
        [melee] attacks { $target } in melee
        [artillery] fires artillery at { $target }
       *[shooting] shoots at { $target }
    }:
console-ev-weapon = { $weapon }{ $models ->
        [0] {""}
        [one] {" "}({ $models } model)
       *[other] {" "}({ $models } models)
    }: { $count } { $count ->
        [one] die
       *[other] dice
    }, { $possible ->
        [yes] { $needed }+ needed
       *[no] cannot wound (would need { $needed }+)
    } (Defense { $defense } − strength { $strength }): { $dice } → { $successes } { $successes ->
        [one] success
       *[other] successes
    }
console-ev-weapon-cover = ; cover { $cover }+: re-roll { $dice } → { $damage } damage
console-ev-attack-total = Total: { $target } −{ $damage } HP ({ $before } → { $after }).
console-ev-morale = Morale of { $unit } ({ $reason ->
        [half] lost half its HP
       *[leaving_melee] leaving melee
    }): { $count } { $count ->
        [one] die
       *[other] dice
    }, each below { $threshold } removes a model: { $dice } → { $lost ->
        [0] nobody flees
        [one] { $lost } model lost
       *[other] { $lost } models lost
    }, { $hp } HP left.
console-ev-passengers = { $unit } inside the wrecked { $transport }: { $count } { $count ->
        [one] die
       *[other] dice
    }, { $needed }+ needed (Defense { $defense } − strength { $strength }): { $dice } → { $damage } damage, { $hp } HP left.
console-ev-destroyed = ✖ { $unit } { $cause ->
        [attack] is destroyed (by { $by }).
        [morale] flees the field: destroyed by a morale test.
        [transport] dies in the wrecked transport.
        [no_room] dies: no room to get out of the wrecked transport.
       *[other] is destroyed.
    }
console-ev-placement = { $unit } climbs out of the wrecked transport: { $side ->
        [south] South
       *[north] North
    } chooses the cell: { $cells }. For example: "place { $handle } { $cell }".
console-ev-placed = { $unit } gets out at { $cell }.
console-ev-advance-offered = { $unit } may take the cell { $cell }: "advance" to take it, "stay" to stay.
console-advance-declined = (Another order given: { $unit } stays where it is.)
console-ev-advanced = { $unit } advances to { $cell }.
console-ev-stayed = { $unit } stays at { $cell }.
console-ev-captured = The SP at { $cell } is now { $side ->
        [south] South's
       *[north] North's
    } ({ $unit }).
console-ev-turn-ended = { $side } ends the turn.
console-ev-game-ended = ══ Game over: { $result } ══
console-result-win = { $side ->
        [south] South
       *[north] North
    } wins ({ $reason ->
        [score] on points
        [annihilation] the enemy army is destroyed
        [resignation] the opponent resigned
        [forfeit] the opponent missed too many turns
        [referee] the referee's decision
       *[other] { $reason }
    })
console-result-draw = a draw{ $reason ->
        [score] {" "}on points
        [referee] {" "}(the referee's decision)
       *[other] {""}
    }
console-score-detail = { $side }: { $sp } SP × 2 + enemy units destroyed: { $kills } + HQs destroyed by an HQ: { $hq } × 2 = { $vp } VP.
console-final-score = Final score: South { $south } VP — North { $north } VP.
console-ev-game-started = Both armies are in (South { $south } pts, North { $north } pts): the game begins.
console-ev-undone = Taken back: { $count ->
        [one] one action (entry { $seqs }).
       *[other] { $count } actions (entries { $seqs }).
    }
console-ev-undo-requested = { $side ->
        [south] South
       *[north] North
    } asks to take back { $count ->
        [one] the last action
       *[other] the last { $count } actions
    }.
console-ev-undo-declined = { $side ->
        [south] South's
       *[north] North's
    } undo was declined.
console-ev-pause-asked = { $pause ->
        [yes] { $side } asks to pause the game: it is paused when the other player agrees.
       *[no] { $side } asks to resume the game: it resumes when the other player agrees.
    }
console-ev-paused = The game is paused: the deadline is stopped.
console-ev-resumed = The game resumes.
console-ev-turn-missed = { $side } misses a turn ({ $count } in a row).
console-ev-unit-placed = The referee puts { $unit } at { $cell }.
console-ev-unit-removed = The referee removes { $unit } from the board.
console-ev-hp-set = The referee sets the HP of { $unit }: { $before } → { $after }.

## Status, army, odds

console-unit-line = { $unit }: { $where }, { $hp }/{ $max } HP, { $models } { $models ->
        [one] model
       *[other] models
    }{ $done ->
        [none] {""}
       *[other] {" "}· this turn: { $done }
    }
console-unit-destroyed = { $unit }: destroyed
console-where-embarked = in { $transport }
console-where-undeployed = not deployed
console-unit-moved = moved
console-unit-attacked = attacked
console-unit-profile = { $type }, Defense { $defense }, M { $m }, Morale { $morale }, wounds per model { $wounds }
console-morale-fearless = Fearless (never tests)
console-morale-none = never tests (G3)
console-type-infantry = infantry
console-type-jump = jump infantry
console-type-bike = bikes
console-type-walker = walker
console-type-vehicle = vehicle
console-type-skimmer = skimmer
console-type-monster = monster
console-type-flyer = flyer
console-weapon-line = { $number }. { $weapon }: { $kind ->
        [melee] melee
        [artillery] artillery
       *[shooting] shooting
    }, strength { $strength }, { $dice } { $dice ->
        [one] die
       *[other] dice
    }{ $per_model ->
        [yes] {" "}per model
       *[no] {""}
    }, range { $reach }
console-odds-header = Odds: { $unit } against { $target } ({ $hp } HP)
console-odds-weapon = { $weapon }: { $count } { $count ->
        [one] die
       *[other] dice
    }, { $possible ->
        [yes] { $needed }+ needed
       *[no] cannot wound
    }{ $cover ->
        [0] {""}
       *[other] , cover { $cover }+
    }
console-odds-chance = { $damage }: { $percent }%
console-odds-distribution = Damage (chance): { $chances }
console-odds-summary = { $mean } damage on average; { $kill }% to destroy the target.
# K2: dice anyone can verify (docs/dice.md)
console-words = Words mixed into the dice seed after its hash was published: south “{ $south }”, north “{ $north }”.
console-log-dice = dice (position=value): { $dice }
console-verify-file = The game's log: { $path } (anyone can check it: python -m vahalite_bot.verify { $path })
