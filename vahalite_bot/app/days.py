"""Play over days (rulebook N1): a player's games on a server, reminders by direct message
for those who ask, and pausing or resuming a game by both players' consent."""

from __future__ import annotations

from vahalite_bot.app import records, schemas
from vahalite_bot.app.book import Book
from vahalite_bot.app.commands import PLAYER, Commands, call_fields, command_of, require_player
from vahalite_bot.app.errors import NotAllowed
from vahalite_bot.app.referee import pause, resume
from vahalite_bot.app.replay import entry_of
from vahalite_bot.app.results import PAUSED_BY_PLAYERS, Actor, GameStatus, Outcome
from vahalite_bot.app.schemas import check
from vahalite_bot.store import repository as repo


class Days(Commands):
    # -- a player's games ----------------------------------------------------------------------
    async def games_of(self, user: str, guild: str | None) -> list[GameStatus]:
        """The unfinished games ``user`` plays on ``guild``, oldest first."""
        check(schemas.UserOnGuild, user=user, guild=guild)
        async with self.db.read() as session:
            ids = await repo.games_of_player(session, user, guild)
        return [await self.status(game) for game in ids]  # type: ignore[attr-defined]

    # -- reminders by direct message -----------------------------------------------------------
    async def dm_reminders(self, user: str) -> bool:
        check(schemas.UserOnGuild, user=user, guild=None)
        async with self.db.read() as session:
            settings = await repo.get_user_settings(session, user)
        return settings is not None and settings.dm_reminders

    async def set_dm_reminders(self, actor: Actor, on: bool, *, key: str | None = None) -> bool:
        """A switch is idempotent by nature (set twice is set once): the key is checked like
        every command's, and needs no record."""
        check(schemas.Switch, actor=actor, on=on, key=key)
        async with self.db.write() as session:
            await repo.put_user_settings(
                session, actor.user, {"dm_reminders": on, "updated_at": self.clock()}
            )
        return on

    # -- pausing by consent --------------------------------------------------------------------
    async def ask_pause(
        self,
        game_id: int,
        actor: Actor,
        pause_it: bool,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """One player asks to pause (or resume); when the other asks the same right after (or
        presses the button that answers), it happens. Anything else in between drops the
        request, as an undo request is dropped."""
        call = check(
            schemas.Answer, **call_fields(game_id, actor, expected_version, key), accept=pause_it
        )

        async def body(book: Book) -> None:
            side = require_player(book, actor)
            if pause_it and book.paused:
                raise NotAllowed("already_paused")
            if not pause_it and not book.paused:
                raise NotAllowed("not_paused")
            if not pause_it and book.paused_by != PAUSED_BY_PLAYERS:
                raise NotAllowed("referee_paused")  # the referee's pause: theirs to lift
            asked = await _open_request(book)
            if asked is not None and asked.side is side:
                raise NotAllowed("pause_asked")
            if asked is not None and asked.pause == pause_it:
                act = pause if pause_it else resume
                await act(book, actor.user, PLAYER, side)
                return
            book.note(records.PauseAsked(side, pause_it), actor=actor.user, role=PLAYER, side=side)

        return await self._write(command_of(call, "ask_pause"), body)


async def _open_request(book: Book) -> records.PauseAsked | None:
    """The other player's request, if it is the last thing that happened."""
    if book.version < 1:
        return None
    rows = await repo.entries_after(book.session, book.game_id, book.version - 1)
    last = entry_of(rows[-1]).record if rows else None
    return last if isinstance(last, records.PauseAsked) else None
