"""What every subcommand of ``vahalite`` is given: kept apart (and light) so that the command
group, and ``vahalite --help``, load none of the bot to start."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path


class Mode(Enum):
    EITHER = "either"  # bot.py: the bot with a token, else the terminal game
    BOT = "run"
    CONSOLE = "console"


@dataclass(frozen=True)
class Common:
    """The options every subcommand of ``vahalite`` shares (given before the subcommand)."""

    config: Path | None = None
    data_dir: Path | None = None
    log_level: str | None = None
    log_format: str | None = None


NO_OPTIONS = Common()  # bot.py's: none given, the environment and the config decide
