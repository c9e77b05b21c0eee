"""Self-play: automatic players, complete games, and the command that runs many of them."""

from vahalite_bot.selfplay.cli import main

__all__ = ["main"]
