"""The board image after each change, written where the player can open it."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from vahalite_bot.render import render_board
from vahalite_bot.rules import events as ev
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState

DEFAULT_DIR = Path("data") / "boards"
# The engine's events: the service's own records are not drawn.
_DRAWN = tuple(
    cls
    for cls in (
        ev.RolledOff,
        ev.DeployOrderChosen,
        ev.TerrainPlaced,
        ev.SPPlaced,
        ev.UnitDeployed,
        ev.SetupStep,
        ev.TurnStarted,
        ev.MoraleTested,
        ev.Moved,
        ev.AttackResolved,
        ev.PassengersHit,
        ev.UnitDestroyed,
        ev.PlacementRequired,
        ev.PassengerPlaced,
        ev.AdvanceOffered,
        ev.Advanced,
        ev.SPCaptured,
        ev.TurnEnded,
        ev.GameEnded,
    )
)


def boards_dir(database_url: str) -> Path:
    """Beside a SQLite file (``data/vahalite.db`` -> ``data/boards``), else ``data/boards``."""
    url = make_url(database_url)
    database = url.database or ""
    in_memory = database in ("", ":memory:") or database.startswith("file:")
    if url.get_backend_name() == "sqlite" and not in_memory:
        return Path(database).parent / "boards"
    return DEFAULT_DIR


def database_tag(database_url: str) -> str:
    """A short name for the database, part of every image's file name.

    Game numbers restart in every database, so ``game-1-0007.png`` of a PostgreSQL game
    replaced the SQLite game's (issue 12); eight hex digits of the URL's hash tell them
    apart (and keep any password in the URL out of the file name).
    """
    return hashlib.sha256(database_url.encode()).hexdigest()[:8]


def board_file(folder: Path, tag: str, game_id: int, number: int) -> Path:
    """``game-<tag>-<game>-<version>.png``: one file per database, game and version."""
    prefix = f"game-{tag}-" if tag else "game-"
    return folder / f"{prefix}{game_id}-{number:04d}.png"


def write_board(
    folder: Path,
    game_id: int,
    number: int,
    state: GameState,
    events: Sequence[Any],
    before: GameState | None,
    names: Mapping[Side, str],
    lang: str,
    tag: str = "",
) -> Path:
    drawn = [e for e in events if isinstance(e, _DRAWN)]
    png = render_board(state, events=drawn, before=before, names=names, lang=lang)
    folder.mkdir(parents=True, exist_ok=True)
    path = board_file(folder, tag, game_id, number)
    path.write_bytes(png)
    return path
