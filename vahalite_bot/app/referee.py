"""The referee's overrides (rulebook N2): each is an entry of the game's log, with who made it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from vahalite_bot.app import deadlines, records, schemas
from vahalite_bot.app.book import Book, remind_before
from vahalite_bot.app.commands import (
    MAX_DEADLINE_HOURS,
    MIN_DEADLINE_HOURS,
    REFEREE,
    Commands,
    call_fields,
    command_of,
    on_board,
    require_running,
    require_started,
)
from vahalite_bot.app.errors import InvalidRequest, NotAllowed
from vahalite_bot.app.keys import Command
from vahalite_bot.app.replay import entry_of
from vahalite_bot.app.results import (
    ENDED,
    LOBBY,
    PAUSED_BY_PLAYERS,
    PAUSED_BY_REFEREE,
    Actor,
    Outcome,
)
from vahalite_bot.app.schemas import check
from vahalite_bot.app.undo import last_undoable
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.store import repository as repo


class Referee(Commands):
    """N2: the referee (or the server's administrator) may override anything."""

    async def ref_move_unit(
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

        def on_this_board(book: Book) -> None:
            on_board(require_started(book), cell)

        return await self._override(
            command_of(call, "ref_move_unit"), records.PlaceUnit(unit, cell), on_this_board
        )

    async def ref_remove_unit(
        self,
        game_id: int,
        actor: Actor,
        unit: str,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        call = check(
            schemas.OnUnit, **call_fields(game_id, actor, expected_version, key), unit=unit
        )
        return await self._override(command_of(call, "ref_remove_unit"), records.RemoveUnit(unit))

    async def ref_set_hp(
        self,
        game_id: int,
        actor: Actor,
        unit: str,
        hp: int,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Set a living unit's HP, 1 to its maximum (to take it off, remove it)."""
        call = check(
            schemas.SetHP, **call_fields(game_id, actor, expected_version, key), unit=unit, hp=hp
        )

        def hp_check(book: Book) -> None:
            state = require_started(book)
            sheet = state.unit(unit).sheet
            if not 1 <= hp <= sheet.max_hp:
                raise InvalidRequest("bad_hp", unit=unit, hp=hp, maximum=sheet.max_hp)

        return await self._override(
            command_of(call, "ref_set_hp"), records.SetHP(unit, hp), hp_check
        )

    async def ref_decide(
        self,
        game_id: int,
        actor: Actor,
        winner: Side | None,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """End the game with ``winner`` (None: a draw); a game still in the lobby is closed."""
        call = check(
            schemas.Decide, **call_fields(game_id, actor, expected_version, key), winner=winner
        )

        async def body(book: Book) -> None:
            await self._require_referee(book, actor)
            if book.status == LOBBY:
                book.closed = True
                book.note(records.LobbyClosed(None), actor=actor.user, role=REFEREE, side=None)
                return
            require_running(book)
            book.override(records.DecideGame(winner, "referee"), actor=actor.user, role=REFEREE)

        return await self._write(command_of(call, "ref_decide"), body)

    async def _override(
        self,
        command: Command,
        record: records.Override,
        check: Callable[[Book], None] | None = None,
    ) -> Outcome:
        actor = command.actor

        async def body(book: Book) -> None:
            await self._require_referee(book, actor)
            require_running(book)
            if check is not None:
                check(book)
            book.override(record, actor=actor.user, role=REFEREE)

        return await self._write(command, body)

    async def ref_undo(
        self,
        game_id: int,
        actor: Actor,
        count: int = 1,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Take back the last ``count`` state-changing entries, whoever made them."""
        call = check(
            schemas.Undo, **call_fields(game_id, actor, expected_version, key), count=count
        )

        async def body(book: Book) -> None:
            await self._require_referee(book, actor)
            require_started(book)
            if book.status == ENDED:
                if book.seed_revealed:
                    raise NotAllowed("seed_revealed")
                other = await repo.active_game_in(book.session, book.row.channel_id)
                if other is not None:
                    raise NotAllowed("channel_busy", game=other.id)
            entries = [entry_of(r) for r in await repo.entries_after(book.session, game_id, 0)]
            chosen = last_undoable(entries, count)
            await book.undo([e.seq for e in chosen], actor=actor.user, role=REFEREE, side=None)

        return await self._write(command_of(call, "ref_undo"), body)

    async def ref_end_turn(
        self,
        game_id: int,
        actor: Actor,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """End the running turn as its deadline would (pending decisions take defaults)."""
        call = check(schemas.Plain, **call_fields(game_id, actor, expected_version, key))

        async def body(book: Book) -> None:
            await self._require_referee(book, actor)
            state = require_running(book)
            if state.phase is not Phase.PLAYING:
                raise NotAllowed("no_turn_to_end")
            deadlines.end_turn(book, actor=actor.user, role=REFEREE)

        return await self._write(command_of(call, "ref_end_turn"), body)

    async def ref_extend_deadline(
        self,
        game_id: int,
        actor: Actor,
        hours: int,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Give the running turn ``hours`` more (N1: up to 14 days at a time)."""
        call = check(
            schemas.Extend, **call_fields(game_id, actor, expected_version, key), hours=hours
        )

        async def body(book: Book) -> None:
            await self._require_referee(book, actor)
            require_running(book)
            if not MIN_DEADLINE_HOURS <= hours <= MAX_DEADLINE_HOURS:
                raise InvalidRequest(
                    "bad_deadline", hours=hours, low=MIN_DEADLINE_HOURS, high=MAX_DEADLINE_HOURS
                )
            deadline = await repo.get_deadline(book.session, game_id)
            if deadline is None:
                raise NotAllowed("no_deadline")
            seconds = hours * 3600
            if deadline.due_at is None:
                book.deadline_changes = {"paused_left": (deadline.paused_left or 0) + seconds}
                due = None
            else:
                due = deadline.due_at + timedelta(seconds=seconds)
                left = int((due - book.now).total_seconds())
                book.deadline_changes = {
                    "due_at": due,
                    "remind_at": due - remind_before(left, book.row.remind_seconds),
                }
            book.note(
                records.DeadlineExtended(seconds, due), actor=actor.user, role=REFEREE, side=None
            )

        return await self._write(command_of(call, "ref_extend_deadline"), body)

    async def ref_pause(
        self,
        game_id: int,
        actor: Actor,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Stop the game and its clock: players cannot act (but may resign) until resumed."""
        call = check(schemas.Plain, **call_fields(game_id, actor, expected_version, key))

        async def body(book: Book) -> None:
            await self._require_referee(book, actor)
            await pause(book, actor.user, REFEREE, None)

        return await self._write(command_of(call, "ref_pause"), body)

    async def ref_resume(
        self,
        game_id: int,
        actor: Actor,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """Play on; the turn gets back the time it had left when paused."""
        call = check(schemas.Plain, **call_fields(game_id, actor, expected_version, key))

        async def body(book: Book) -> None:
            await self._require_referee(book, actor)
            await resume(book, actor.user, REFEREE, None)

        return await self._write(command_of(call, "ref_resume"), body)


# -- pausing: by the referee, or by both players (days.py) ---------------------------------------
async def pause(book: Book, user: str, role: str, side: Side | None) -> None:
    """Stop the game and its clock: the turn keeps the time it had left. Who paused (the
    referee, or both players) is kept: the players lift only their own pause."""
    require_running(book)
    if book.paused:
        raise NotAllowed("already_paused")
    book.paused = True
    book.paused_by = PAUSED_BY_REFEREE if role == REFEREE else PAUSED_BY_PLAYERS
    deadline = await repo.get_deadline(book.session, book.game_id)
    if deadline is not None and deadline.due_at is not None:
        left = max(0, int((deadline.due_at - book.now).total_seconds()))
        book.deadline_changes = {"due_at": None, "remind_at": None, "paused_left": left}
    book.note(records.Paused(), actor=user, role=role, side=side)


async def resume(book: Book, user: str, role: str, side: Side | None) -> None:
    """Play on; the turn gets back the time it had left when paused."""
    require_running(book)
    if not book.paused:
        raise NotAllowed("not_paused")
    book.paused = False
    deadline = await repo.get_deadline(book.session, book.game_id)
    due = None
    if deadline is not None and deadline.paused_left is not None:
        due = book.now + timedelta(seconds=deadline.paused_left)
        book.deadline_changes = {
            "due_at": due,
            "remind_at": due - remind_before(deadline.paused_left, book.row.remind_seconds),
            "paused_left": None,
        }
    book.note(records.Resumed(due), actor=user, role=role, side=side)
