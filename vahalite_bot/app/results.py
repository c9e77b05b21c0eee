"""What the service is given (who asks) and what it returns (what the adapter shows)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

from vahalite_bot.app.replay import decode_event, entry_of, undone_by
from vahalite_bot.rules.dice import Die
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.roster import Roster
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState
from vahalite_bot.store.rawlog import parse_entry, parse_state
from vahalite_bot.store.snapshot import Setup, decode_state

if TYPE_CHECKING:
    from vahalite_bot.store.models import LogEntry

# A game's status, beside the engine's phase: the engine has no state before both armies.
LOBBY = "lobby"
SETUP = "setup"
PLAYING = "playing"
ENDED = "ended"


@dataclass(frozen=True)
class Actor:
    """Who calls: an opaque user id (a Discord id later) and what the adapter knows of them.

    ``roles`` are the user's role ids on the server: the service compares them with the
    server's referee role, so that every adapter decides "is this the referee" the same way.
    ``admin`` is the server's administrator: may configure the server and referee games.
    ``guild`` is the server the caller speaks for (where the adapter saw the roles and the
    administrator flag): both count only there. None is no server (the terminal): its
    authority reaches only games that have no server either.
    """

    user: str
    roles: frozenset[str] = frozenset()
    admin: bool = False
    guild: str | None = None


@dataclass(frozen=True)
class Outcome:
    """What a command did, for the adapter to show."""

    game_id: int
    version: int  # pass it back as ``expected_version`` to refuse acting on a stale view
    status: str
    events: tuple[Any, ...]  # engine events and the service's own (records.py), in order
    acting_side: Side | None  # who must act now (a pending decision's owner first)
    acting_user: str | None
    turn_side: Side | None  # whose turn or setup step it is
    board_changed: bool
    state: GameState | None  # a copy: the adapter may keep it
    commitment: str  # K2: the hash of the dice seed
    # A copy of the state the command began from (it places the units its events destroyed
    # on the board image), so the adapter need not read the game before each command; None
    # where unknown (an answer given again under its idempotency key: the same answer, so
    # it takes no part in comparing two).
    before: GameState | None = field(default=None, compare=False)
    # The game's status at ``version``, built in the command's own transaction, so the
    # adapter need not read it again to show it (``state`` is the same copy); None where
    # the command wrote nothing, or the answer is given again under its key: read it then.
    game_status: GameStatus | None = field(default=None, compare=False)


@dataclass(frozen=True)
class PlayerView:
    side: Side
    user: str
    army_submitted: bool
    missed_turns: int


@dataclass(frozen=True)
class UndoRequestView:
    side: Side
    user: str
    seqs: tuple[int, ...]


@dataclass(frozen=True)
class GameStatus:
    game_id: int
    version: int
    guild: str | None
    channel: str
    status: str
    scenario: str
    points_limit: int
    language: str
    deadline_seconds: int
    players: tuple[PlayerView, ...]
    acting_side: Side | None
    acting_user: str | None
    turn_side: Side | None
    paused: bool
    due_at: datetime | None
    commitment: str
    winner: Side | None
    undo_request: UndoRequestView | None
    state: GameState | None
    rosters: dict[Side, Roster] = field(default_factory=dict)  # shown once both are in
    house: frozenset[HouseRule] = frozenset()  # M: the house rules switched on
    # Who paused (when ``paused``): PAUSED_BY_REFEREE or PAUSED_BY_PLAYERS; only they resume.
    paused_by: str | None = None
    missed_turns_forfeit: int = 3  # N1: kept per game from its creation

    def outcome(self, events: tuple[Any, ...] = ()) -> Outcome:
        """This version as a command's outcome that did ``events``."""
        return Outcome(
            game_id=self.game_id,
            version=self.version,
            status=self.status,
            events=events,
            acting_side=self.acting_side,
            acting_user=self.acting_user,
            turn_side=self.turn_side,
            board_changed=bool(events),
            state=self.state,
            commitment=self.commitment,
            game_status=self,
        )


@dataclass(frozen=True)
class LogLine:
    seq: int
    kind: str
    actor: str | None
    role: str
    side: Side | None
    record: Any
    dice: tuple[Die, ...]
    events: tuple[Any, ...]
    created_at: datetime
    undone: bool


def log_lines(rows: Sequence[LogEntry | Mapping[str, Any]]) -> list[LogLine]:
    """Log rows as the log view reads them, each marked if a later undo among them took it
    back (an undo only takes back earlier entries, so a tail of the log marks itself)."""
    entries = [entry_of(r) for r in rows]
    undone = undone_by(entries)
    return [
        LogLine(
            e.seq,
            e.kind,
            e.actor,
            e.role,
            e.side,
            e.record,
            e.dice,
            tuple(decode_event(d) for d in e.events),
            e.created_at,
            e.seq in undone,
        )
        for e in entries
    ]


@dataclass(frozen=True)
class RecapLog:
    """What a side's recap needs of the log (``GameService.recap_log``): the state after
    entry ``since`` and the log from that entry on (the entry ``since`` for its events only:
    the state holds its effect). ``since`` 0 and no state: the whole log.

    It holds both as read (``store.rawlog``), their JSON as text: the bot's loop only reads
    them and hands them to a worker process, which parses and decodes them here."""

    since: int
    rows: tuple[Mapping[str, Any], ...]  # the log rows, as ``rawlog.entries_after`` reads them
    snapshot: str | None = None  # that state as stored (JSON text), with ...
    setup: Setup | None = None  # ... the game's setup to decode it
    # Entry ``since`` began play, not a turn end: the recap of a side yet to end a turn
    # starts at its first turn's start.
    play_began: bool = False

    @cached_property
    def lines(self) -> tuple[LogLine, ...]:
        return tuple(log_lines([parse_entry(row) for row in self.rows]))

    @cached_property
    def state(self) -> GameState | None:
        if self.snapshot is None or self.setup is None:
            return None
        return decode_state(parse_state(self.snapshot), self.setup)


@dataclass(frozen=True)
class SeedReveal:
    """K2: everything a player needs to recompute every roll of the game."""

    seed: bytes
    commitment: str
    dice: tuple[Die, ...]  # every die the log shows, undone entries' included


@dataclass(frozen=True)
class ServerConfig:
    guild: str
    referee_role: str | None
    language: str
    deadline_hours: int
    missed_turns_forfeit: int
    # May a referee (or the administrator) who plays in a game override it? Off by default:
    # a player must not be the judge of their own game.
    referee_may_play: bool = False
    # N1: hours before a deadline the player is reminded (None: a quarter of the turn, at
    # most 12 hours); each game keeps what its server said when it was created.
    remind_hours: int | None = None
    # Whether the server chose ``language`` (``/vl config language``): a new game takes it
    # before its creator's locale; otherwise ``language`` is only the config file's default.
    language_chosen: bool = False


@dataclass(frozen=True)
class Reminder:
    """N1: the deadline of ``side``'s turn is near."""

    game_id: int
    side: Side
    user: str
    due_at: datetime


# Who paused a game.
PAUSED_BY_REFEREE = "referee"
PAUSED_BY_PLAYERS = "players"

# What the deadline loop announces (the outbox, ``Announcement``).
REMINDER = "reminder"
EXPIRED = "expired"


@dataclass(frozen=True)
class Announcement:
    """One post the deadline loop committed and must make: a reminder, or an expired turn
    (with its forfeit). ``nonce`` is the same for every attempt: Discord keeps one."""

    id: int
    game_id: int
    kind: str  # REMINDER or EXPIRED
    version_from: int  # the log entries it tells: after this one ...
    version: int  # ... up to this one
    side: Side  # whose turn: the one reminded, or the one who missed it
    user: str
    due_at: datetime | None  # a reminder: when the turn ends
    missed: int = 0  # an expiry: turns missed in a row now
    forfeit: bool = False  # an expiry that ended the game
    setup: bool = False  # an expired setup step: it stays with the same player

    @property
    def nonce(self) -> str:
        return f"vla{self.id}"


@dataclass(frozen=True)
class DeadlineReport:
    expired: tuple[Outcome, ...]
    reminders: tuple[Reminder, ...]
