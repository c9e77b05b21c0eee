"""The local adapter: a Vaha-Lite game in the terminal, through the same GameService and order
language as the Discord bot (``python bot.py --console``).

- ``game``: the session (new or resumed game, the prompt loop, the automatic player);
- ``lobby``: points limit and armies; ``seats``: who plays each side;
- ``pictures``: the PNG of each change; ``terminal``: lines in, text out, colours only on a
  terminal.

What it says (the narration, the text board, status, odds, hints) comes from
``vahalite_bot.present``, which the Discord adapter shares.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from types import FrameType

from vahalite_bot.app import GameService
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.console.game import ConsoleGame
from vahalite_bot.console.options import ConsoleOptions, seed_bytes
from vahalite_bot.console.terminal import Terminal
from vahalite_bot.store.database import open_database

__all__ = ["ConsoleOptions", "run_console"]


def run_console(options: ConsoleOptions, terminal: Terminal | None = None) -> int:
    # asyncio.run would turn Ctrl-C into cancelling the game's task, which a prompt blocked
    # in input() never notices; a handler of our own keeps Ctrl-C a KeyboardInterrupt, raised
    # at the prompt, where the console saves and says goodbye (asyncio leaves SIGINT alone
    # when someone else handles it).
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        return asyncio.run(_run(options, terminal or Terminal()))
    except KeyboardInterrupt:
        # Ctrl-C while a command ran: what was committed is saved, the rest never happened.
        sys.stdout.write("\n")
        return 130
    finally:
        signal.signal(signal.SIGINT, previous)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


async def _run(options: ConsoleOptions, terminal: Terminal) -> int:
    factions = codex_factions(options.homebrew)
    db = await open_database(options.database_url)
    try:
        seed = options.seed
        service = GameService(
            db,
            sheets=all_sheets(factions),
            language=options.lang,
            deadline_hours=options.deadline_hours,
            missed_turns_forfeit=options.missed_turns_forfeit,
            seeds=None if seed is None else (lambda: seed_bytes(seed)),
        )
        return await ConsoleGame(service, terminal, options, factions).run()
    finally:
        await db.close()
