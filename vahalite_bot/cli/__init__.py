"""``vahalite``: the one command of an installed bot (also ``python -m vahalite_bot``).

    vahalite [--config FILE] [--data-dir DIR] [--log-level L] [--log-format text|json] COMMAND

``run`` (the bot), ``console`` (the terminal game), ``verify``, ``selfplay`` and ``codex``
hand their arguments to the parsers they always had, so their options are those of
``python -m vahalite_bot.selfplay`` and the rest; ``db``, ``commands`` and ``doctor`` are
the administrator's. ``paths`` says where files live; ``logs`` how the bot logs.
"""

from vahalite_bot.cli.main import main

__all__ = ["main"]
