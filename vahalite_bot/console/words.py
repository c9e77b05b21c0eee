"""The console's own words: leaving the game. Everything else typed is an order
(``vahalite_bot.orders``), in either language."""

from __future__ import annotations

# "exit" and "выйти" are also disembark verbs, but alone they name no unit: at the console
# the bare word means leaving.
QUIT_WORDS = frozenset({"quit", "exit", "q", "выход", "выйти", "сохранить"})


def is_quit(line: str) -> bool:
    return line.strip().casefold().rstrip(".!") in QUIT_WORDS


class Quit(Exception):
    """The player asked to leave (the quit word, or the end of the input) at a prompt."""
