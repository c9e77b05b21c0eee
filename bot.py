"""``python bot.py``: the bot with a token, else the game in the terminal (``make run``).

A thin wrapper kept for the checkout: the installed command is ``vahalite`` (``vahalite run``,
``vahalite console``; see ``vahalite --help``). The code is in ``vahalite_bot.cli``.
"""

from __future__ import annotations

import sys

from vahalite_bot.cli.start import discord_options, main, parse_args, read_config, settings

__all__ = ["discord_options", "main", "parse_args", "read_config", "settings"]

if __name__ == "__main__":
    sys.exit(main())
