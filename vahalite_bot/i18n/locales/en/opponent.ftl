# The automatic opponent's levels (vahalite_bot/selfplay/levels.py), its explanations and hints.

opponent-level = { $level ->
        [easy] easy (the normal player with a beginner's lapses)
        [normal] normal (takes the most profitable move and attack)
        [hard] hard (searches its turn ahead, weighing the exact dice odds)
        [random] random (any legal order)
       *[other] { $level }
    }

## /vl new
discord-opt-level = level
discord-opt-level-desc = How strong the bot plays (default: normal)
discord-choice-easy = easy
discord-choice-normal = normal
discord-choice-hard = hard
