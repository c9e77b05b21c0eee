"""The use cases: one GameService that every adapter (console, Discord) calls."""

from vahalite_bot.app.errors import (
    InvalidRequest,
    NotAllowed,
    NotFound,
    RosterRejected,
    ServiceError,
    StaleState,
    Unavailable,
)
from vahalite_bot.app.results import Actor, GameStatus, LogLine, Outcome
from vahalite_bot.app.service import GameService

__all__ = [
    "Actor",
    "GameService",
    "GameStatus",
    "InvalidRequest",
    "LogLine",
    "NotAllowed",
    "NotFound",
    "Outcome",
    "RosterRejected",
    "ServiceError",
    "StaleState",
    "Unavailable",
]
