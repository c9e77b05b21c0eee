"""Writing a game's log as the file ``python -m vahalite_bot.verify`` checks (logfile.py).

Adapters call this: the console's ``verify`` order, and any player who wants the file. The
seed is in the file once the game has ended and the seed was revealed (a ``SeedRevealed``
entry); before that the file lets a player check the order of the dice, not their values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vahalite_bot.app import records
from vahalite_bot.app.results import LogLine
from vahalite_bot.app.service import GameService
from vahalite_bot.rules import codec
from vahalite_bot.store import valuecodec
from vahalite_bot.verify.logfile import dumps, header


async def export_log(service: GameService, game_id: int) -> str:
    """The game's whole log as JSON lines (the header first)."""
    status = await service.status(game_id)
    lines = await service.game_log(game_id)
    return dumps([header(game_id, status.commitment), *(_row(line) for line in lines)])


async def export_to(service: GameService, game_id: int, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(await export_log(service, game_id), encoding="utf-8")
    return path


def _row(line: LogLine) -> dict[str, Any]:
    record = (
        codec.encode(line.record) if line.kind == records.ACTION else valuecodec.encode(line.record)
    )
    return {
        "seq": line.seq,
        "kind": line.kind,
        "actor": line.actor,
        "role": line.role,
        "side": None if line.side is None else line.side.value,
        "record": record,
        "dice": [[d.position, d.purpose, d.value] for d in line.dice],
        "created_at": line.created_at.isoformat(),
    }
