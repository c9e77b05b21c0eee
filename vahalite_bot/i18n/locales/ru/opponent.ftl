# The automatic opponent's levels (vahalite_bot/selfplay/levels.py), its explanations and hints.

opponent-level = { $level ->
        [easy] лёгкий (обычный игрок, но с ошибками новичка)
        [normal] обычный (выбирает самую выгодную атаку и ход)
        [hard] сильный (просчитывает ход вперёд по точным шансам кубиков)
        [random] случайный (любой разрешённый приказ)
       *[other] { $level }
    }

## /vl new
discord-opt-level = уровень
discord-opt-level-desc = Насколько сильно играет бот (по умолчанию: обычный)
discord-choice-easy = лёгкий
discord-choice-normal = обычный
discord-choice-hard = сильный
