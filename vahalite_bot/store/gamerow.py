"""A game's row as a plain immutable value, read with SQLAlchemy Core.

Every command reads it, and the service keeps the last one it wrote beside the loaded game
(``app.book.GameCache``), so it is a value that a committed write turns into the next one
(``with_values``), not an ORM object tied to the session that read it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class GameRow:
    """The columns of ``models.Game``, by the same names."""

    id: int
    guild_id: str | None
    channel_id: str
    creator_id: str
    status: str
    scenario_id: str
    points_limit: int
    language: str
    deadline_seconds: int
    remind_seconds: int | None
    house_rules: str
    version: int
    seed: bytes
    commitment: str
    seed_revealed: bool
    paused: bool
    paused_by: str | None
    missed_turns_forfeit: int | None
    undo_request: dict[str, Any] | None
    winner: str | None
    created_at: datetime
    ended_at: datetime | None

    @classmethod
    def of(cls, mapping: Mapping[str, Any]) -> GameRow:
        return cls(**{name: mapping[name] for name in FIELDS})

    def with_values(self, values: Mapping[str, Any]) -> GameRow:
        """The row once ``values`` (columns to new values) are written to it."""
        return dataclasses.replace(self, **values)


FIELDS = tuple(f.name for f in dataclasses.fields(GameRow))
