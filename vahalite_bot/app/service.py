"""The GameService: every use case the adapters (console, Discord) call, with who calls.

Lobby and server settings are in ``lobby.py``, the referee's overrides in ``referee.py``,
the transaction machinery in ``commands.py``; here are the players' orders, undo, deadlines
and reading.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import exc

from vahalite_bot.app import deadlines, records, schemas
from vahalite_bot.app.book import Book, Conflict, game_status, load, setup_of
from vahalite_bot.app.commands import (
    ATTEMPTS,
    PLAYER,
    backoff,
    call_fields,
    command_of,
    game_row,
    on_board,
    require_player,
    require_running,
    require_started,
    require_unpaused,
)
from vahalite_bot.app.days import Days
from vahalite_bot.app.errors import NotAllowed
from vahalite_bot.app.house import HouseRules
from vahalite_bot.app.keys import Command
from vahalite_bot.app.lobby import Lobby
from vahalite_bot.app.outbox import Outbox, add_expiry, add_reminder
from vahalite_bot.app.referee import Referee
from vahalite_bot.app.replay import Entry, entry_of
from vahalite_bot.app.results import (
    ENDED,
    LOBBY,
    Actor,
    DeadlineReport,
    GameStatus,
    LogLine,
    Outcome,
    RecapLog,
    Reminder,
    SeedReveal,
    log_lines,
)
from vahalite_bot.app.schemas import check
from vahalite_bot.app.undo import check_own, last_undoable
from vahalite_bot.rules import movement
from vahalite_bot.rules.actions import (
    Action,
    Advance,
    Attack,
    ChooseDeployOrder,
    Deploy,
    EndTurn,
    Move,
    PlacePassenger,
    PlaceSP,
    PlaceTerrain,
    Resign,
    RollOff,
)
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.store import rawlog
from vahalite_bot.store import repository as repo
from vahalite_bot.store.database import is_conflict
from vahalite_bot.store.snapshot import play_began, turn_ended

# Snapshots a recap looks back over: a turn of each side, and room for setup steps or a
# referee's changes between them; a side whose turn ended further back gets the whole log.
RECENT_TURNS = 8


class GameService(Lobby, HouseRules, Referee, Days, Outbox):
    """The one service every adapter calls; each command is one transaction.

    Every command checks its arguments against its schema (``schemas.py``) first, then runs
    as one envelope (``keys.Command``: game, caller, action, expected version, idempotency
    key) through ``_write``.
    """

    # -- the players' moves ----------------------------------------------------------------------
    async def act(
        self,
        game_id: int,
        actor: Actor,
        action: Action,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Any engine action, made for the caller's own side."""
        call = check(
            schemas.Act, **call_fields(game_id, actor, expected_version, key), action=action
        )

        def make(state: GameState, side: Side) -> Action:
            if isinstance(action, RollOff):
                raise NotAllowed("bot_rolls")
            if action.side is not side:
                raise NotAllowed("not_your_side", side=action.side.value)
            for cell in _cells_of(action):
                on_board(state, cell)
            return action

        return await self._play(command_of(call, "act"), make, anytime=isinstance(action, Resign))

    async def choose_deploy_order(
        self,
        game_id: int,
        actor: Actor,
        deploy_first: bool,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        call = check(
            schemas.ChooseDeployOrder,
            **call_fields(game_id, actor, expected_version, key),
            deploy_first=deploy_first,
        )
        return await self._play(
            command_of(call, "choose_deploy_order"),
            lambda s, side: ChooseDeployOrder(side, deploy_first),
        )

    async def place_terrain(
        self,
        game_id: int,
        actor: Actor,
        kind: TerrainKind,
        cell: Cell,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        call = check(
            schemas.PlaceTerrain,
            **call_fields(game_id, actor, expected_version, key),
            kind=kind,
            cell=cell,
        )
        return await self._play(
            command_of(call, "place_terrain"),
            lambda s, side: PlaceTerrain(side, kind, on_board(s, cell)),
        )

    async def place_sp(
        self,
        game_id: int,
        actor: Actor,
        cell: Cell,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        call = check(
            schemas.OnCell, **call_fields(game_id, actor, expected_version, key), cell=cell
        )
        return await self._play(
            command_of(call, "place_sp"), lambda s, side: PlaceSP(side, on_board(s, cell))
        )

    async def deploy(
        self,
        game_id: int,
        actor: Actor,
        unit: str,
        cell: Cell,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        call = check(
            schemas.UnitToCell,
            **call_fields(game_id, actor, expected_version, key),
            unit=unit,
            cell=cell,
        )
        return await self._play(
            command_of(call, "deploy"), lambda s, side: Deploy(side, unit, on_board(s, cell))
        )

    async def move(
        self,
        game_id: int,
        actor: Actor,
        unit: str,
        cell: Cell,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """D1: to ``cell`` by a shortest legal path (onto a friendly transport: embark, H2)."""
        call = check(
            schemas.UnitToCell,
            **call_fields(game_id, actor, expected_version, key),
            unit=unit,
            cell=cell,
        )
        return await self._play(
            command_of(call, "move"),
            lambda s, side: Move(side, unit, _path(s, unit, on_board(s, cell))),
        )

    async def embark(
        self,
        game_id: int,
        actor: Actor,
        unit: str,
        transport: str,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        call = check(
            schemas.Embark,
            **call_fields(game_id, actor, expected_version, key),
            unit=unit,
            transport=transport,
        )

        def make(state: GameState, side: Side) -> Action:
            cell = state.position(state.unit(transport))
            if cell is None:  # not deployed yet (setup), or itself carried
                raise NotAllowed("transport_not_on_board", unit=transport)
            return Move(side, unit, _path(state, unit, cell))

        return await self._play(command_of(call, "embark"), make)

    async def disembark(
        self,
        game_id: int,
        actor: Actor,
        unit: str,
        cell: Cell,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """H3: one step out of the transport."""
        call = check(
            schemas.UnitToCell,
            **call_fields(game_id, actor, expected_version, key),
            unit=unit,
            cell=cell,
        )
        return await self._play(
            command_of(call, "disembark"), lambda s, side: Move(side, unit, (on_board(s, cell),))
        )

    async def attack(
        self,
        game_id: int,
        actor: Actor,
        unit: str,
        target: str,
        *,
        weapons: tuple[int, ...] | None = None,
        melee: bool | None = None,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        call = check(
            schemas.Attack,
            **call_fields(game_id, actor, expected_version, key),
            unit=unit,
            target=target,
            weapons=weapons,
            melee=melee,
        )
        return await self._play(
            command_of(call, "attack"), lambda s, side: Attack(side, unit, target, weapons, melee)
        )

    async def place_passenger(
        self,
        game_id: int,
        actor: Actor,
        unit: str,
        cell: Cell,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        call = check(
            schemas.UnitToCell,
            **call_fields(game_id, actor, expected_version, key),
            unit=unit,
            cell=cell,
        )
        return await self._play(
            command_of(call, "place_passenger"),
            lambda s, side: PlacePassenger(side, unit, on_board(s, cell)),
        )

    async def advance(
        self,
        game_id: int,
        actor: Actor,
        unit: str,
        accept: bool,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        call = check(
            schemas.Advance,
            **call_fields(game_id, actor, expected_version, key),
            unit=unit,
            accept=accept,
        )
        return await self._play(
            command_of(call, "advance"), lambda s, side: Advance(side, unit, accept)
        )

    async def end_turn(
        self,
        game_id: int,
        actor: Actor,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        call = check(schemas.Plain, **call_fields(game_id, actor, expected_version, key))
        return await self._play(command_of(call, "end_turn"), lambda s, side: EndTurn(side))

    async def resign(
        self,
        game_id: int,
        actor: Actor,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """J4: at any time, paused or not; in the lobby, leaving closes the game."""
        call = check(schemas.Plain, **call_fields(game_id, actor, expected_version, key))

        def body(book: Book) -> None:
            side = require_player(book, actor)
            if book.status == LOBBY:
                book.closed = True
                book.note(records.LobbyClosed(side), actor=actor.user, role=PLAYER, side=side)
                return
            require_started(book)
            book.act(Resign(side), actor=actor.user, role=PLAYER, side=side)

        return await self._write(command_of(call, "resign"), body)

    async def _play(
        self,
        command: Command,
        make: Callable[[GameState, Side], Action],
        *,
        anytime: bool = False,
    ) -> Outcome:
        actor = command.actor

        def body(book: Book) -> None:
            side = require_player(book, actor)
            state = require_started(book)
            if not anytime:
                require_unpaused(book)
            book.act(make(state, side), actor=actor.user, role=PLAYER, side=side)
            book.set_missed(side, 0)  # N1 counts missed turns in a row

        return await self._write(command, body)

    # -- undo ------------------------------------------------------------------------------------
    async def undo(
        self,
        game_id: int,
        actor: Actor,
        count: int = 1,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Take back the caller's own last actions of this turn, if they rolled no dice."""
        call = check(
            schemas.Undo, **call_fields(game_id, actor, expected_version, key), count=count
        )

        async def body(book: Book) -> None:
            side = require_player(book, actor)
            require_running(book)
            require_unpaused(book)
            chosen = await _own_undo(book, actor, count)
            if check_own(chosen, actor.user, book.turn_seq):
                raise NotAllowed("undo_needs_consent")
            await book.undo([e.seq for e in chosen], actor=actor.user, role=PLAYER, side=side)

        return await self._write(command_of(call, "undo"), body)

    async def request_undo(
        self,
        game_id: int,
        actor: Actor,
        count: int = 1,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Ask the opponent to agree to taking back the caller's own actions of this turn."""
        call = check(
            schemas.Undo, **call_fields(game_id, actor, expected_version, key), count=count
        )

        async def body(book: Book) -> None:
            side = require_player(book, actor)
            require_running(book)
            require_unpaused(book)
            chosen = await _own_undo(book, actor, count)
            check_own(chosen, actor.user, book.turn_seq)
            seqs = tuple(e.seq for e in chosen)
            book.note(records.UndoRequested(side, seqs), actor=actor.user, role=PLAYER, side=side)
            book.undo_request = {
                "side": side.value,
                "user": actor.user,
                "seqs": list(seqs),
                "version": book.version,
            }

        return await self._write(command_of(call, "request_undo"), body)

    async def answer_undo(
        self,
        game_id: int,
        actor: Actor,
        accept: bool,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """The opponent agrees (the undo happens) or declines an open undo request."""
        call = check(
            schemas.Answer, **call_fields(game_id, actor, expected_version, key), accept=accept
        )

        async def body(book: Book) -> None:
            side = require_player(book, actor)
            require_running(book)
            require_unpaused(book)
            request = book.undo_request
            if request is None or request["version"] != book.version:
                raise NotAllowed("no_undo_request")
            if request["side"] == side.value:
                raise NotAllowed("not_your_request")
            seqs = [int(s) for s in request["seqs"]]
            if not accept:
                book.note(
                    records.UndoDeclined(Side(request["side"]), tuple(seqs)),
                    actor=actor.user,
                    role=PLAYER,
                    side=side,
                )
                return
            await book.undo(
                seqs, actor=actor.user, role=PLAYER, side=side, requested_by=request["user"]
            )

        return await self._write(command_of(call, "answer_undo"), body)

    # -- deadlines (N1) --------------------------------------------------------------------------
    async def fire_due(self, now: datetime, limit: int = 100) -> DeadlineReport:
        """End every turn whose deadline has passed by ``now``, and collect due reminders;
        each with its announcement in the outbox, written in its own transaction
        (``claim_announcements``).

        Idempotent: a turn ends once however often (and from however many processes) this
        runs; a game another process is working on is passed over and fired next time.
        """
        async with self.db.read() as session:
            due = await repo.games_due(session, now, limit)
        expired: list[Outcome] = []
        for game_id in due:
            outcome = await self._expire(game_id, now)
            if outcome is not None:
                expired.append(outcome)
        return DeadlineReport(tuple(expired), tuple(await self._reminders(now, limit)))

    async def _expire(self, game_id: int, now: datetime) -> Outcome | None:
        for attempt in range(ATTEMPTS):
            try:
                async with self.db.write() as session:
                    row = await repo.lock_game(session, game_id, skip_locked=True)
                    if row is None:
                        return None  # another process holds it: it is firing it, or acting
                    deadline = await repo.get_deadline(session, game_id)
                    if deadline is None or deadline.due_at is None or deadline.due_at > now:
                        return None  # already fired, moved on, or paused meanwhile
                    book = await load(session, row, self.cache, now)
                    if book.state is None or book.state.phase is Phase.ENDED:
                        await repo.put_deadline(session, game_id, None)
                        return None
                    if deadline.turn_seq != book.turn_seq:
                        # A deadline for a turn that is over: start the running turn's.
                        await repo.put_deadline(session, game_id, book.fresh_deadline())
                        return None
                    forfeit_after = row.missed_turns_forfeit
                    if forfeit_after is None:  # a game from before it was kept per game
                        config = await self._config(session, row.guild_id)
                        forfeit_after = config.missed_turns_forfeit
                    expiry = deadlines.expire(book, forfeit_after)
                    await book.flush()
                    await add_expiry(book, expiry)
            except Conflict:
                pass
            except exc.DBAPIError as error:
                if not is_conflict(error):
                    raise
            else:
                self.cache.put(game_id, book.result())
                return book.outcome(self.defaults.missed_turns_forfeit)
            self.cache.drop(game_id)
            await backoff(attempt)
        return None

    async def _reminders(self, now: datetime, limit: int) -> list[Reminder]:
        reminders: list[Reminder] = []
        for _ in range(limit):
            async with self.db.write() as session:
                deadline = await repo.claim_reminder(session, now)
                if deadline is None:
                    break
                await repo.update_deadline(session, deadline.game_id, {"remind_at": None})
                players = {
                    p.side: p.user_id for p in await repo.get_players(session, deadline.game_id)
                }
                if deadline.due_at is not None and deadline.due_at > now:
                    reminder = Reminder(
                        deadline.game_id,
                        Side(deadline.side),
                        players[deadline.side],
                        deadline.due_at,
                    )
                    game = await repo.get_game(session, deadline.game_id)
                    assert game is not None
                    await add_reminder(
                        session,
                        now,
                        reminder.game_id,
                        game.version,
                        reminder.side,
                        reminder.user,
                        reminder.due_at,
                    )
                    reminders.append(reminder)
        return reminders

    # -- reading: anyone may ---------------------------------------------------------------------
    async def status(self, game_id: int) -> GameStatus:
        """The game as of one version: every part read in one consistent snapshot."""
        check(schemas.Read, game_id=game_id)
        async with self.db.read() as session:
            row = await game_row(session, game_id)
            book = await load(session, row, self.cache, self.clock())
            deadline = await repo.get_deadline(session, game_id)
        self.cache.put(game_id, book.result())
        due_at = None if deadline is None else deadline.due_at
        return game_status(book, due_at, self.defaults.missed_turns_forfeit)

    async def game_log(self, game_id: int, since: int = 0) -> list[LogLine]:
        """The log after entry ``since``, each line marked if a later undo took it back."""
        check(schemas.ReadLog, game_id=game_id, since=since)
        async with self.db.read() as session:
            await game_row(session, game_id)
            rows = await repo.entries_after(session, game_id, since)
        return log_lines(rows)

    async def recap_log(self, game_id: int, side: Side, *, whole: bool = False) -> RecapLog:
        """The log ``side``'s recap reads (``present.recap.recap_from``): the state from the
        snapshot taken when ``side``'s last turn ended, and the entries from there on, so
        that it costs the same in a long game as in a short one. Before ``side`` has
        finished a turn, the same from the snapshot taken when play began. The whole log
        before play began, where those snapshots are too far back, or with ``whole`` (the
        recap asks for it if the tail holds no end of that turn: ``present.recap.ShortLog``)."""
        check(schemas.ReadRecap, game_id=game_id, side=side)
        async with self.db.read() as session:
            turns = [] if whole else await repo.recent_turns(session, game_id, RECENT_TURNS)
            if not turns:  # a game with snapshots exists: one statement fewer
                await game_row(session, game_id)
            since, began = turn_ended(turns, side), False
            if not since:
                # A side yet to end a turn is recapped from play's start: its snapshot
                # spares the worker decoding and replaying the whole setup.
                since = play_began(turns)
                began = bool(since)
            state = await rawlog.snapshot_state(session, game_id, since) if since else None
            setup = None if state is None else await setup_of(session, game_id, self.cache)
            if state is None or setup is None:
                state, setup, since, began = None, None, 0, False
            # Read as stored: the loop that awaits this (the bot's) leaves decoding to a worker.
            rows = await rawlog.entries_after(session, game_id, max(since - 1, 0))
        return RecapLog(since, tuple(rows), state, setup, play_began=began)

    async def reveal_seed(
        self, game_id: int, actor: Actor, *, key: str | None = None
    ) -> SeedReveal:
        """K2: once the game has ended, the seed behind every die (any caller).

        Idempotent by nature (the seed is revealed once, then only shown again), so ``key``
        is checked but not stored.
        """
        check(schemas.Plain, game_id=game_id, actor=actor, key=key)
        revealed: list[SeedReveal] = []

        async def body(book: Book) -> None:
            if book.status != ENDED:
                raise NotAllowed("game_not_over")
            if not book.seed_revealed:
                book.seed_revealed = True
                book.note(
                    records.SeedRevealed(book.row.seed.hex(), book.row.commitment),
                    actor=actor.user,
                    role=PLAYER if book.side_of(actor.user) else "public",
                    side=book.side_of(actor.user),
                )
            entries = await repo.entries_after(book.session, game_id, 0)
            dice = tuple(d for e in entries for d in entry_of(e).dice)
            revealed.append(SeedReveal(book.row.seed, book.row.commitment, dice))

        await self._write(Command(game_id, actor, "reveal_seed"), body)
        return revealed[-1]


async def _own_undo(book: Book, actor: Actor, count: int) -> list[Entry]:
    """The caller's candidates: the last entries of this turn (undo never reaches further)."""
    rows = await repo.entries_after(book.session, book.game_id, book.turn_seq)
    entries = [entry_of(r) for r in rows]
    return last_undoable(entries, count)


def _cells_of(action: Action) -> tuple[Cell, ...]:
    if isinstance(action, Move):
        return action.path
    cell = getattr(action, "cell", None)
    return () if cell is None else (cell,)


def _path(state: GameState, unit_id: str, cell: Cell) -> tuple[Cell, ...]:
    """A shortest legal path; failing that, a plain one, so the engine names what is wrong."""
    unit = state.unit(unit_id)
    path = movement.path_to(state, unit, cell)
    if path is not None:
        return path
    start = state.position(unit)
    if start is None or unit.embarked_in is not None or not state.scenario.on_board(cell):
        # Off the board (callers check first; this keeps the walk below bounded even so:
        # it once walked towards Cell(2**40, 0) one cell at a time).
        return (cell,)
    steps: list[Cell] = []
    col, row = start
    while col != cell.col:
        col += 1 if cell.col > col else -1
        steps.append(Cell(col, row))
    while row != cell.row:
        row += 1 if cell.row > row else -1
        steps.append(Cell(col, row))
    return tuple(steps)
