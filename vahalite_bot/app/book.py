"""One game inside one command's transaction: loaded as the turn's snapshot plus its entries,
changed by appending entries, written back under the version it was read at.

Every change goes through ``Book``: it applies the action (or override) to the state, appends
the log entry with the dice it used, takes a snapshot when a new turn begins, and, in
``flush``, writes all of it only if no other writer got there first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from vahalite_bot.app import records
from vahalite_bot.app.replay import (
    RecordingDice,
    encode_event,
    entry_of,
    fold,
)
from vahalite_bot.app.results import (
    ENDED,
    LOBBY,
    PAUSED_BY_REFEREE,
    PLAYING,
    SETUP,
    GameStatus,
    Outcome,
    PlayerView,
    UndoRequestView,
)
from vahalite_bot.rules import codec, engine
from vahalite_bot.rules.actions import Action, RollOff
from vahalite_bot.rules.dice import Die, FairDice, dice_key
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.store import repository as repo
from vahalite_bot.store import valuecodec
from vahalite_bot.store.gamerow import GameRow
from vahalite_bot.store.snapshot import (
    Setup,
    decode_setup,
    decode_state,
    encode_setup,
    encode_state,
    turn_key,
    turn_side,
)

LOBBY_TURN = "lobby"


class Conflict(Exception):
    """Another writer changed the game since this transaction read it: retry on fresh state."""


@dataclass(frozen=True)
class PlayerInfo:
    side: Side
    user: str
    army_submitted: bool
    missed_turns: int
    word: str | None = None  # K2: the word mixed into the dice seed


@dataclass(frozen=True)
class Loaded:
    """What loading a game at one version gives; the same for every reader of that version."""

    row: GameRow
    setup: Setup | None
    state: GameState | None
    turn_seq: int  # the seq of the snapshot the turn (or setup step) began with
    turn: str
    players: dict[Side, PlayerInfo]
    closed: bool = False  # left in the lobby: ended before it began

    @property
    def version(self) -> int:
        return self.row.version


class GameCache:
    """Loaded games by id, trusted only while the database still has the same version.

    Every change bumps the version, so a reader that finds the version it cached may skip
    the snapshot and the entries; another process's write shows as a new version. A writer
    may even skip reading the row (``latest``): its write is made only if the version is
    still the one cached, and it checks the version before it refuses (``commands._write``).
    """

    def __init__(self, size: int = 2048) -> None:
        self._size = size
        self._games: OrderedDict[int, Loaded] = OrderedDict()

    def get(self, game_id: int, version: int) -> Loaded | None:
        loaded = self._games.get(game_id)
        if loaded is None or loaded.version != version:
            return None
        self._games.move_to_end(game_id)
        return loaded

    def latest(self, game_id: int) -> Loaded | None:
        """The game as this process last read or wrote it, whatever the database has now."""
        return self._games.get(game_id)

    def setup(self, game_id: int) -> Setup | None:
        loaded = self._games.get(game_id)
        return None if loaded is None else loaded.setup

    def put(self, game_id: int, loaded: Loaded) -> None:
        self._games[game_id] = loaded
        self._games.move_to_end(game_id)
        while len(self._games) > self._size:
            self._games.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._games.pop(game_id, None)


def status_of(state: GameState | None) -> str:
    if state is None:
        return LOBBY
    if state.phase is Phase.ENDED:
        return ENDED
    return PLAYING if state.phase is Phase.PLAYING else SETUP


def board_view(state: GameState | None) -> Any:
    """What the board image shows: a change here means the adapter redraws it."""
    if state is None:
        return None
    units = sorted((u.id, u.cell, u.embarked_in, u.hp, u.destroyed) for u in state.units.values())
    terrain = sorted(state.terrain.items())
    sps = sorted((cell, sp.holder) for cell, sp in state.sps.items())
    return units, terrain, sps


def board_changed(before: GameState | None, after: GameState | None) -> bool:
    """Whether the board image differs between the two states. ``before`` is a loaded
    game's (never changed in place: the cache shares it), so it is looked at only now, and
    not at all when the command left the state as it was."""
    return after is not before and board_view(after) != board_view(before)


async def load(session: AsyncSession, row: GameRow, cache: GameCache, now: datetime) -> Book:
    """The game as of ``row.version``: from the cache, or the turn's snapshot + its entries."""
    loaded = cache.get(row.id, row.version)
    if loaded is None:
        loaded = await _load(session, row, cache)
    return Book(session, row, loaded, now)


async def _load(session: AsyncSession, row: GameRow, cache: GameCache) -> Loaded:
    players = {
        Side(p.side): PlayerInfo(
            Side(p.side), p.user_id, p.roster is not None, p.missed_turns, p.word
        )
        for p in await repo.get_players(session, row.id)
    }
    if row.status == LOBBY:
        return Loaded(row, None, None, 0, LOBBY_TURN, players)
    setup = cache.setup(row.id)
    if setup is None:
        data = await repo.get_setup(session, row.id)
        if data is None:
            assert row.status == ENDED, f"game {row.id} is {row.status} without a setup"
            return Loaded(row, None, None, 0, LOBBY_TURN, players, closed=True)
        setup = decode_setup(data)
    snapshot = await repo.latest_snapshot(session, row.id)
    assert snapshot is not None, f"game {row.id} started without a snapshot"
    entries = [entry_of(r) for r in await repo.entries_after(session, row.id, snapshot.seq)]
    state = fold(decode_state(snapshot.state, setup), entries)
    return Loaded(row, setup, state, snapshot.seq, snapshot.turn, players)


async def setup_of(session: AsyncSession, game_id: int, cache: GameCache) -> Setup | None:
    """The game's setup, from the cache if it holds the game (None: never started)."""
    setup = cache.setup(game_id)
    if setup is None:
        data = await repo.get_setup(session, game_id)
        setup = None if data is None else decode_setup(data)
    return setup


class Book:
    def __init__(self, session: AsyncSession, row: GameRow, loaded: Loaded, now: datetime) -> None:
        self.session = session
        self.row = row
        self.game_id = row.id
        self.now = now
        self.loaded = loaded
        self.setup = loaded.setup
        self.state = loaded.state
        self.turn_seq = loaded.turn_seq
        self.turn = loaded.turn
        self.players = dict(loaded.players)
        self.events: list[Any] = []
        self.paused = row.paused
        self.paused_by = row.paused_by if row.paused else None
        self.undo_request: dict[str, Any] | None = row.undo_request
        self.seed_revealed = row.seed_revealed
        self.closed = loaded.closed
        self.restart_deadline = False
        self.deadline_changes: dict[str, Any] | None = None
        self.row_changes: dict[str, Any] = {}  # other columns of the game's row to write
        self._rows: list[dict[str, Any]] = []
        self._snapshots: list[dict[str, Any]] = []
        self._player_changes: dict[Side, dict[str, Any]] = {}
        self._new_players: list[dict[str, Any]] = []
        self._dropped_from: int | None = None
        self._new_setup: Setup | None = None
        self._written: dict[str, Any] = {}  # the columns of the game's row ``flush`` wrote
        # The row with them, made once: the answer and the cache both read it.
        self._written_row = row
        # The deadline's due time as ``flush`` left it (known once it wrote the game).
        self._due_at: datetime | None = None
        self._board_changed: bool | None = None

    @property
    def wrote(self) -> bool:
        """Whether ``flush`` wrote the game (under the version it was read at)."""
        return bool(self._written)

    # -- reading ------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        return self.loaded.version + len(self._rows)

    @property
    def status(self) -> str:
        return ENDED if self.closed else status_of(self.state)

    def side_of(self, user: str) -> Side | None:
        for side, player in self.players.items():
            if player.user == user:
                return side
        return None

    def user_of(self, side: Side | None) -> str | None:
        player = None if side is None else self.players.get(side)
        return None if player is None else player.user

    def acting_side(self) -> Side | None:
        return None if self.state is None else engine.acting_side(self.state)

    def turn_side(self) -> Side | None:
        return None if self.state is None else turn_side(self.state)

    def board_changed(self) -> bool:
        """Whether the command changed what the board image shows. Asked once the command
        has made its changes (by its key's answer, then its outcome): worked out once."""
        if self._board_changed is None:
            self._board_changed = board_changed(self.loaded.state, self.state)
        return self._board_changed

    def dice_key(self) -> bytes:
        """K2: the committed seed mixed with the players' words (docs/dice.md)."""
        words = {p.side.value: p.word for p in self.players.values() if p.word is not None}
        return dice_key(self.row.seed, words)

    # -- changing -----------------------------------------------------------------------------
    def append(
        self,
        kind: str,
        record: Any,
        *,
        actor: str | None,
        role: str,
        side: Side | None,
        dice: Sequence[Die] = (),
        events: Sequence[Any] = (),
    ) -> int:
        """Add one log entry (written by ``flush``); returns its seq."""
        seq = self.version + 1
        data = codec.encode(record) if kind == records.ACTION else valuecodec.encode(record)
        self._rows.append(
            {
                "game_id": self.game_id,
                "seq": seq,
                "kind": kind,
                "actor": actor,
                "role": role,
                "side": None if side is None else side.value,
                "record": data,
                "dice": [[d.position, d.purpose, d.value] for d in dice],
                "events": [encode_event(e) for e in events],
                "created_at": self.now,
            }
        )
        self.events.extend(events)
        if kind != records.NOTE or not isinstance(record, records.UndoRequested):
            self.undo_request = None  # a request holds only while nothing else happens
        return seq

    def note(self, record: Any, *, actor: str | None, role: str, side: Side | None) -> None:
        """An entry that changes no state: shown as itself."""
        lobby = isinstance(
            record,
            records.PlayerJoined
            | records.ArmySubmitted
            | records.LobbyClosed
            | records.HouseRulesSet,
        )
        kind = records.LOBBY if lobby else records.NOTE
        self.append(kind, record, actor=actor, role=role, side=side, events=[record])

    def start(self, setup: Setup, points: Mapping[Side, int]) -> None:
        """Both armies are in: the engine's game begins, and the bot rolls off (B1)."""
        self._new_setup = self.setup = setup
        started = records.GameStarted(points[Side.SOUTH], points[Side.NORTH])
        state = setup.initial_state()
        seq = self.append(
            records.START,
            records.StartGame(setup),
            actor=None,
            role="system",
            side=None,
            events=[started],
        )
        self._changed(state, seq)

    def act(self, action: Action, *, actor: str | None, role: str, side: Side | None) -> list[Any]:
        """Apply an engine action with the game's fair dice; IllegalAction leaves all as it was."""
        assert self.state is not None
        dice = RecordingDice(FairDice(self.dice_key()))
        state, events = engine.apply(self.state, action, dice)
        seq = self.append(
            records.ACTION,
            action,
            actor=actor,
            role=role,
            side=side,
            dice=dice.dice,
            events=events,
        )
        self._changed(state, seq)
        return events

    def override(self, record: records.Override, *, actor: str | None, role: str) -> list[Any]:
        assert self.state is not None
        state, events = records.apply_override(self.state, record)
        seq = self.append(
            records.OVERRIDE, record, actor=actor, role=role, side=None, events=events
        )
        self._changed(state, seq)
        return events

    async def undo(
        self,
        seqs: Sequence[int],
        *,
        actor: str | None,
        role: str,
        side: Side | None,
        requested_by: str | None = None,
    ) -> None:
        """Take back ``seqs`` (the last state-changing entries): replay without them."""
        assert self.state is not None and seqs
        first = min(seqs)
        record = records.Undo(tuple(sorted(seqs)), self.state.dice_position, requested_by)
        seq = self.append(
            records.UNDO,
            record,
            actor=actor,
            role=role,
            side=side,
            events=[records.Undone(record.seqs)],
        )
        # Snapshots at or after the first undone entry show a history that no longer is.
        self._dropped_from = first if self._dropped_from is None else min(self._dropped_from, first)
        self._snapshots = [s for s in self._snapshots if s["seq"] < first]
        snapshot = await repo.latest_snapshot(self.session, self.game_id, before=first)
        assert snapshot is not None and self.setup is not None
        stored = [r for r in await repo.entries_after(self.session, self.game_id, snapshot.seq)]
        entries = [entry_of(r) for r in stored] + [
            entry_of(r) for r in self._rows if r["seq"] > snapshot.seq
        ]
        self.turn_seq, self.turn = snapshot.seq, snapshot.turn
        state = fold(decode_state(snapshot.state, self.setup), entries)
        assert state is not None
        self._changed(state, seq)

    def add_player(self, side: Side, user: str, word: str | None = None) -> None:
        self.players[side] = PlayerInfo(side, user, False, 0, word)
        self._new_players.append(
            {
                "game_id": self.game_id,
                "side": side.value,
                "user_id": user,
                "joined_at": self.now,
                "word": word,
            }
        )

    def set_roster(self, side: Side, roster: dict[str, Any]) -> None:
        self.players[side] = replace(self.players[side], army_submitted=True)
        self._player_changes.setdefault(side, {})["roster"] = roster

    def set_missed(self, side: Side, count: int) -> None:
        player = self.players[side]
        if player.missed_turns != count:
            self.players[side] = replace(player, missed_turns=count)
            self._player_changes.setdefault(side, {})["missed_turns"] = count

    def _changed(self, state: GameState, seq: int) -> None:
        self.state = state
        key = turn_key(state)
        if key != self.turn:
            self.turn, self.turn_seq = key, seq
            self._snapshots.append(
                {
                    "game_id": self.game_id,
                    "seq": seq,
                    "turn": key,
                    "state": encode_state(state),
                    "created_at": self.now,
                }
            )
        if state.phase is Phase.ROLL_OFF:
            # B1 has no player: the bot rolls as soon as the game (re)enters the roll-off.
            self.act(RollOff(), actor=None, role="system", side=None)

    # -- writing ------------------------------------------------------------------------------
    async def flush(self, key: Mapping[str, Any] | None = None) -> None:
        """Write everything, if the game is still at the version it was read at; with
        ``key``, the row of the command's idempotency key (``keys.key_row``) before it all."""
        if not self._rows:
            return
        status = self.status
        values: dict[str, Any] = {
            "version": self.version,
            "status": status,
            "paused": self.paused,
            "paused_by": self.paused_by if self.paused else None,
            "undo_request": self.undo_request,
            "seed_revealed": self.seed_revealed,
            **self.row_changes,
        }
        if self.closed:
            values["ended_at"] = self.row.ended_at or self.now
        if self.state is not None:
            ended = self.state.phase is Phase.ENDED
            values["winner"] = (
                None if not ended or self.state.winner is None else (self.state.winner.value)
            )
            values["ended_at"] = (self.row.ended_at or self.now) if ended else None
        # The log's rows first: on SQLite they go in the same trip as the game's update
        # (``sqlite_driver.LATER``). Written for a game another writer has moved on, they
        # are taken back with the transaction (Conflict below, or their own unique key).
        if self._dropped_from is not None:
            await repo.drop_snapshots_from(self.session, self.game_id, self._dropped_from)
        fresh = self._fresh_deadline(status)
        rows = repo.GameWrite(key, self._rows, self._snapshots, fresh)
        bumped = await repo.write_game(
            self.session, self.game_id, self.loaded.version, values, rows
        )
        if bumped is None:
            raise Conflict(self.game_id)
        self._written = values
        self._written_row = self.row.with_values(values)
        self._due_at = bumped.due_at if fresh is None else fresh["due_at"]
        for player in self._new_players:
            await repo.add_player(self.session, player)
        if self._new_setup is not None:
            await repo.add_setup(self.session, self.game_id, encode_setup(self._new_setup))
        for side, changes in self._player_changes.items():
            await repo.update_player(self.session, self.game_id, side.value, changes)
        await self._flush_deadline(status, fresh)

    def _fresh_deadline(self, status: str) -> dict[str, Any] | None:
        """N1: the deadline of a turn that begins with this command (or restarts), written
        with the game's row; None if the running one stays (or there is none)."""
        if status in (LOBBY, ENDED):
            return None
        if self.turn != self.loaded.turn or self.restart_deadline:
            return self.fresh_deadline()
        return None

    async def _flush_deadline(self, status: str, fresh: dict[str, Any] | None) -> None:
        """The deadline's other changes: none in the lobby, none left once the game ends."""
        if status == LOBBY or fresh is not None:
            return
        if status == ENDED:
            await repo.put_deadline(self.session, self.game_id, None)
            self._due_at = None
        elif self.deadline_changes is not None:
            await repo.update_deadline(self.session, self.game_id, self.deadline_changes)
            self._due_at = self.deadline_changes.get("due_at", self._due_at)

    def fresh_deadline(self) -> dict[str, Any]:
        """N1: the whole deadline for the turn that begins now (frozen while paused)."""
        assert self.state is not None
        side = turn_side(self.state)
        assert side is not None
        length = self.row.deadline_seconds
        if self.paused:
            return {
                "turn_seq": self.turn_seq,
                "side": side.value,
                "due_at": None,
                "remind_at": None,
                "paused_left": length,
            }
        due = self.now + timedelta(seconds=length)
        return {
            "turn_seq": self.turn_seq,
            "side": side.value,
            "due_at": due,
            "remind_at": due - remind_before(length, self.row.remind_seconds),
            "paused_left": None,
        }

    @property
    def written_row(self) -> GameRow:
        """The game's row as ``flush`` left it."""
        return self._written_row

    def result(self) -> Loaded:
        """What this version loads as, for the cache once committed."""
        return Loaded(
            self.written_row,
            self.setup,
            self.state,
            self.turn_seq,
            self.turn,
            self.players,
            self.closed,
        )

    def outcome(self, missed_turns_forfeit: int) -> Outcome:
        """What the command did; with the game's status at its version if it wrote the game
        (``missed_turns_forfeit``: the service's, for a game that keeps none)."""
        acting = self.acting_side()
        turn = self.turn_side()
        state = None if self.state is None else self.state.copy()
        return Outcome(
            game_id=self.game_id,
            version=self.version,
            status=self.status,
            events=tuple(self.events),
            acting_side=acting,
            acting_user=self.user_of(acting),
            turn_side=turn,
            board_changed=self.board_changed(),
            state=state,
            commitment=self.row.commitment,
            before=None if self.loaded.state is None else self.loaded.state.copy(),
            game_status=game_status(self, self._due_at, missed_turns_forfeit, state)
            if self.wrote
            else None,
        )


def game_status(
    book: Book,
    due_at: datetime | None,
    missed_turns_forfeit: int,
    state: GameState | None = None,
) -> GameStatus:
    """The game as ``book`` holds it now, with its deadline's ``due_at``: what
    ``GameService.status`` reads, and what a command that wrote the game answers with (so
    the adapter need not read it again). ``state``: a copy of ``book.state`` already made;
    ``missed_turns_forfeit``: the service's, for a game from before it was kept per game."""
    row = book.written_row
    acting = book.acting_side()
    request = book.undo_request
    if state is None and book.state is not None:
        state = book.state.copy()
    return GameStatus(
        game_id=book.game_id,
        version=book.version,
        guild=row.guild_id,
        channel=row.channel_id,
        status=book.status,
        scenario=row.scenario_id,
        house=house_of_column(row.house_rules) if book.setup is None else book.setup.house,
        points_limit=row.points_limit,
        language=row.language,
        deadline_seconds=row.deadline_seconds,
        players=tuple(
            PlayerView(p.side, p.user, p.army_submitted, p.missed_turns)
            for p in sorted(book.players.values(), key=lambda p: p.side != Side.SOUTH)
        ),
        acting_side=acting,
        acting_user=book.user_of(acting),
        turn_side=None if book.state is None else turn_side(book.state),
        paused=book.paused,
        paused_by=(book.paused_by or PAUSED_BY_REFEREE) if book.paused else None,
        missed_turns_forfeit=missed_turns_forfeit
        if row.missed_turns_forfeit is None
        else row.missed_turns_forfeit,
        due_at=due_at,
        commitment=row.commitment,
        winner=None if row.winner is None else Side(row.winner),
        undo_request=None
        if request is None or request["version"] != book.version
        else UndoRequestView(
            Side(request["side"]), request["user"], tuple(int(s) for s in request["seqs"])
        ),
        state=state,
        rosters={} if book.setup is None else dict(book.setup.rosters),
    )


def house_of_column(text: str) -> frozenset[HouseRule]:
    """The house rules as the game's row keeps them (``house.house_column``)."""
    return frozenset(HouseRule(part) for part in text.split(",") if part)


def remind_before(length_seconds: int, chosen: int | None = None) -> timedelta:
    """N1: remind when a quarter of the time is left, and never more than 12 hours early;
    or ``chosen`` seconds before (the server's setting), at most the whole time left."""
    if chosen is not None:
        return timedelta(seconds=min(chosen, length_seconds))
    return timedelta(seconds=min(length_seconds // 4, 12 * 3600))
