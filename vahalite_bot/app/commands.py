"""The machinery every command of the GameService runs on, and the checks they share.

Each command is one transaction: load the game (the turn's snapshot and its entries, or the
cache while the version is unchanged), check who may do it, apply it, append the log entries
and write them under the version read. If another writer got there first the command runs
again on the fresh state, so nothing is applied twice and nothing is lost; a caller that
passes ``expected_version`` (the version it showed the user) is refused instead, and one that
passes an idempotency ``key`` already used gets the first answer back (``keys.py``).
"""

from __future__ import annotations

import asyncio
import inspect
import random
import secrets
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import exc
from sqlalchemy.ext.asyncio import AsyncSession

from vahalite_bot.app import keys, schemas
from vahalite_bot.app.book import Book, Conflict, GameCache, Loaded, load
from vahalite_bot.app.commandlog import logged
from vahalite_bot.app.errors import InvalidRequest, NotAllowed, NotFound, StaleState, Unavailable
from vahalite_bot.app.results import LOBBY, PAUSED_BY_PLAYERS, Actor, Outcome, ServerConfig
from vahalite_bot.codex.loader import all_sheets, demo_factions
from vahalite_bot.i18n import LANGUAGES
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Scenario, Side
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.scenarios import shipped_scenarios
from vahalite_bot.store import repository as repo
from vahalite_bot.store.database import Database, is_conflict
from vahalite_bot.store.gamerow import GameRow
from vahalite_bot.store.group import GroupFailed

# N1: a turn's deadline is 1 hour to 14 days.
MIN_DEADLINE_HOURS, MAX_DEADLINE_HOURS = 1, 14 * 24
# A command that keeps losing races this many times is refused (StaleState) rather than
# retried for ever.
ATTEMPTS = 8

PLAYER, REFEREE = "player", "referee"

Body = Callable[[Book], Awaitable[None] | None]


class Commands:
    """What every part of the service shares: the database, the codex, the clock, the cache."""

    def __init__(
        self,
        db: Database,
        *,
        sheets: Mapping[str, UnitSheet] | None = None,
        scenarios: Mapping[str, Scenario] | None = None,
        clock: Callable[[], datetime] | None = None,
        language: str = "ru",
        deadline_hours: int = 48,
        missed_turns_forfeit: int = 3,
        seeds: Callable[[], bytes] | None = None,
    ) -> None:
        self.db = db
        self.sheets = dict(all_sheets(demo_factions()) if sheets is None else sheets)
        # L: every scenario file of boards/ unless the caller brings its own.
        self.scenarios = dict(shipped_scenarios() if scenarios is None else scenarios)
        self.clock = clock or (lambda: datetime.now(UTC))
        self.defaults = ServerConfig("", None, language, deadline_hours, missed_turns_forfeit)
        self.cache = GameCache()
        self.retries = 0  # commands run again after losing a race to another writer
        # K2: each game's secret dice seed; tests and benchmarks pass a seeded source.
        self.seeds = seeds or (lambda: secrets.token_bytes(32))

    # -- running a command -------------------------------------------------------------------
    @logged
    async def _write(self, command: keys.Command, body: Body) -> Outcome:
        """Run ``body`` on the game in one transaction; again on fresh state if a race is lost.

        Under a key already used, nothing is made: the first answer comes back. The first
        try does not look the key up (a trip, and a duplicate is rare): the key's row is
        written before the game's update, in the same trip on SQLite, and a stored one
        makes it fail as a unique violation, a conflict whose retry looks the key up first.
        A first try refused (or failing) before it wrote looks the key up then, so that a
        duplicate gets the first answer whatever the game now says. Two deliveries of one
        key racing each other both run, but only one can commit (the game's version, and
        the key's row, are written by one of them): the loser's retry finds the key.
        """
        game_id = command.game_id
        for attempt in range(ATTEMPTS):
            try:
                async with self.db.write() as session:
                    done = await self._attempt(session, command, body, looked=attempt > 0)
                if isinstance(done, Outcome):
                    return done
            except (Conflict, GroupFailed):  # GroupFailed: another command's error undid it
                pass
            except exc.DBAPIError as error:
                if not is_conflict(error):
                    raise
            else:
                outcome, loaded = done
                self.cache.put(game_id, loaded)
                return outcome
            self.retries += 1
            self.cache.drop(game_id)
            await backoff(attempt)
        raise StaleState("busy", game=game_id)

    async def _attempt(
        self, session: AsyncSession, command: keys.Command, body: Body, *, looked: bool
    ) -> Outcome | tuple[Outcome, Loaded]:
        """One try of ``_write``: the first answer under the command's key (an Outcome), or
        the new outcome and what the game now loads as, for the cache once committed.
        ``looked``: look the key up before anything else (a retry)."""
        if command.key is not None and looked:
            first = await self._first_answer(session, command)
            if first is not None:
                return first
        game_id, expected = command.game_id, command.expected_version
        remembered = False
        try:
            book = await self._book(session, game_id, expected)
            cached = book is not None
            if book is None:  # not cached, or not as the caller saw it: read the row
                row = await game_row(session, game_id)
                if expected is not None and row.version != expected:
                    raise StaleState("stale", expected=expected, current=row.version)
                book = await load(session, row, self.cache, self.clock())
            try:
                await _run(body, book)
                key = None
                if command.key is not None:
                    # Written before the game's update: on SQLite its row rides in that
                    # trip (``sqlite_driver.LATER``), and a key already stored fails it there.
                    remembered = True
                    key = keys.key_row(
                        command.scope,
                        command.key,
                        command.action,
                        command.digest,
                        game_id,
                        keys.answer_of_book(book, command.actor.user),
                        book.now,
                    )
                await book.flush(key)
            except exc.DBAPIError:
                raise  # the transaction is broken: the caller's loop judges it
            except Exception:
                if cached:
                    await _still_current(book)
                raise
            if cached and not book.wrote:
                await _still_current(book)
        except (Conflict, exc.DBAPIError):
            raise
        except Exception:
            if command.key is None or looked or remembered:
                raise
            first = await self._first_answer(session, command)
            if first is None:
                raise
            return first
        return book.outcome(self.defaults.missed_turns_forfeit), book.result()

    async def _first_answer(self, session: AsyncSession, command: keys.Command) -> Outcome | None:
        """The answer given the first time the command's key was used, if it was."""
        assert command.key is not None
        done = await keys.find(
            session,
            command.scope,
            command.key,
            command.action,
            command.actor.user,
            command.digest,
        )
        return None if done is None else await keys.first_outcome(session, done, self.cache)

    async def _book(self, session: AsyncSession, game_id: int, expected: int | None) -> Book | None:
        """The game as this process last left it, without reading its row (None: not
        cached, or not at the version the caller expects).

        The write is made only if the row is still at the cached version (``flush``), so a
        write is never made on a stale game; but a refusal, or a command that writes
        nothing, answers from the cached game, so before it does the version is checked
        (``_attempt``): another process's change (a new version) makes the command run
        again on fresh state."""
        loaded = self.cache.latest(game_id)
        if loaded is None or (expected is not None and loaded.version != expected):
            return None
        return Book(session, loaded.row, loaded, self.clock())

    def scenario_of(self, scenario_id: str) -> Scenario:
        """The scenario a stored game names. Its id is its file's name (the loader sees to
        that), so a process started without that file can say which one is missing."""
        scenario = self.scenarios.get(scenario_id)
        if scenario is None:
            raise Unavailable("scenario_missing", scenario=scenario_id, file=f"{scenario_id}.toml")
        return scenario

    async def _config(self, session: AsyncSession, guild: str | None) -> ServerConfig:
        settings = None if guild is None else await repo.get_settings(session, guild)
        if settings is None:
            return ServerConfig(
                guild or "",
                None,
                self.defaults.language,
                self.defaults.deadline_hours,
                self.defaults.missed_turns_forfeit,
            )
        return ServerConfig(
            guild or "",
            settings.referee_role,
            settings.language or self.defaults.language,
            settings.deadline_hours,
            settings.missed_turns_forfeit,
            settings.referee_may_play,
            settings.remind_hours,
            language_chosen=settings.language is not None,
        )

    async def _require_referee(self, book: Book, actor: Actor) -> None:
        """N2: the server's referee role (or its administrator) holds the overrides.

        Both count only on the server the caller speaks for: an administrator of another
        server is nobody here. A referee who plays in this game may not judge it, unless
        the server allows that.
        """
        guild = book.row.guild_id
        if not actor.admin and not actor.roles:
            raise NotAllowed("not_referee")
        require_same_server(actor, guild)
        config = await self._config(book.session, guild)
        if not actor.admin and (
            config.referee_role is None or config.referee_role not in actor.roles
        ):
            raise NotAllowed("not_referee")
        if book.side_of(actor.user) is not None and not config.referee_may_play:
            raise NotAllowed("referee_plays")


# -- the envelope ------------------------------------------------------------------------------
def call_fields(
    game_id: int, actor: Actor, expected_version: int | None, key: str | None
) -> dict[str, Any]:
    """The envelope's fields, as every game command's schema declares them."""
    return {"game_id": game_id, "actor": actor, "expected_version": expected_version, "key": key}


def command_of(call: schemas.GameCall, action: str, **arguments: Any) -> keys.Command:
    """The checked call as the envelope ``_write`` runs; ``arguments`` are those the schema
    does not hold (or holds otherwise), for the key's digest."""
    return keys.Command(
        call.game_id,
        call.actor,
        action,
        call.expected_version,
        call.key,
        keys.digest_of(call, **arguments),
    )


async def _run(body: Body, book: Book) -> None:
    result = body(book)
    if inspect.isawaitable(result):
        await result


async def _still_current(book: Book) -> None:
    """Raise Conflict (a retry on fresh state) if the game is no longer at ``book``'s
    version; also if it is gone (the retry then finds no game)."""
    if await repo.game_version(book.session, book.game_id) != book.loaded.version:
        raise Conflict(book.game_id)


# -- checks ------------------------------------------------------------------------------------
async def game_row(session: AsyncSession, game_id: int) -> GameRow:
    row = await repo.get_game(session, game_id)
    if row is None:
        raise NotFound("no_game", game=game_id)
    return row


def require_same_server(actor: Actor, guild: str | None) -> None:
    """An administrator flag or roles from another server (or none) count for nothing."""
    if actor.guild != guild:
        raise NotAllowed("other_server")


def require_home_server(actor: Actor, guild: str | None) -> None:
    """A player creates or joins a game only speaking from its server (None: the terminal's
    games, which have none)."""
    if actor.guild != guild:
        raise NotAllowed("wrong_server")


def require_player(book: Book, actor: Actor) -> Side:
    side = book.side_of(actor.user)
    if side is None:
        raise NotAllowed("not_a_player")
    return side


def on_board(state: GameState, cell: Cell) -> Cell:
    """A cell of this game's board (the schema only knows the largest board there can be)."""
    if not state.scenario.on_board(cell):
        raise InvalidRequest("off_board", cell=cell.name)
    return cell


def require_lobby(book: Book) -> None:
    if book.status != LOBBY:
        raise NotAllowed("game_started")


def require_started(book: Book) -> GameState:
    if book.state is None:
        raise NotAllowed("game_not_started")
    return book.state


def require_running(book: Book) -> GameState:
    state = require_started(book)
    if state.phase is Phase.ENDED:
        raise NotAllowed("game_over")
    return state


def require_unpaused(book: Book) -> None:
    if book.paused and book.paused_by == PAUSED_BY_PLAYERS:
        raise NotAllowed("players_paused")
    if book.paused:
        raise NotAllowed("game_paused")


def checked_language(language: str) -> str:
    if language not in LANGUAGES:
        raise InvalidRequest("bad_language", language=language, allowed=", ".join(LANGUAGES))
    return language


def checked_deadline_hours(hours: int) -> int:
    if not MIN_DEADLINE_HOURS <= hours <= MAX_DEADLINE_HOURS:
        raise InvalidRequest(
            "bad_deadline", hours=hours, low=MIN_DEADLINE_HOURS, high=MAX_DEADLINE_HOURS
        )
    return hours


async def backoff(attempt: int) -> None:
    # Jittered, so that two losers of the same race do not collide again in step.
    await asyncio.sleep(random.uniform(0, 0.002 * 2**attempt))
