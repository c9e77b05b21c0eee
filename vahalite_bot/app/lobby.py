"""Server settings and the lobby: creating a game, joining it, submitting the armies."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from sqlalchemy import exc

from vahalite_bot.app import keys, records, schemas
from vahalite_bot.app.book import Book, house_of_column, load
from vahalite_bot.app.commands import (
    ATTEMPTS,
    MAX_DEADLINE_HOURS,
    PLAYER,
    Commands,
    backoff,
    call_fields,
    checked_deadline_hours,
    checked_language,
    command_of,
    require_home_server,
    require_lobby,
    require_player,
    require_same_server,
)
from vahalite_bot.app.errors import InvalidRequest, NotAllowed, NotFound, RosterRejected, StaleState
from vahalite_bot.app.house import checked_house_rules, house_column
from vahalite_bot.app.results import LOBBY, Actor, Outcome, ServerConfig
from vahalite_bot.app.schemas import check
from vahalite_bot.rules.dice import WORD_MAX, FairDice, clean_word
from vahalite_bot.rules.roster import Roster, field_units, roster_points, validate
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.store import repository as repo
from vahalite_bot.store import valuecodec
from vahalite_bot.store.database import is_conflict
from vahalite_bot.store.snapshot import Setup


class Lobby(Commands):
    """Before a game begins: the server's settings, then creating, joining, army lists."""

    # -- server settings ---------------------------------------------------------------------
    async def server_config(self, guild: str | None) -> ServerConfig:
        check(schemas.Guild, guild=guild)
        async with self.db.read() as session:
            return await self._config(session, guild)

    async def configure_server(
        self,
        actor: Actor,
        guild: str,
        *,
        referee_role: str | None = None,
        language: str | None = None,
        deadline_hours: int | None = None,
        missed_turns_forfeit: int | None = None,
        referee_may_play: bool | None = None,
        remind_hours: int | None = None,
        key: str | None = None,
    ) -> ServerConfig:
        """Only the server's administrator, speaking for that server, sets who referees (an
        empty role: nobody but the administrator), whether a referee may judge a game they
        play in, and the server's defaults."""
        call = check(
            schemas.Configure,
            actor=actor,
            guild=guild,
            referee_role=referee_role,
            language=language,
            deadline_hours=deadline_hours,
            missed_turns_forfeit=missed_turns_forfeit,
            referee_may_play=referee_may_play,
            remind_hours=remind_hours,
            key=key,
        )
        if not actor.admin:
            raise NotAllowed("not_admin")
        require_same_server(actor, guild)
        scope = keys.guild_scope(guild)
        # The schema reads "" as None; to the command they differ ("nobody" / "unchanged").
        digest = keys.digest_of(call, referee_role=referee_role)
        async with self.db.write() as session:
            if key is not None:
                done = await keys.find(session, scope, key, "configure_server", actor.user, digest)
                if done is not None:
                    return ServerConfig(**done.answer["config"])
            old = await self._config(session, guild)
            new = ServerConfig(
                guild,
                (referee_role or None) if referee_role is not None else old.referee_role,
                checked_language(language if language is not None else old.language),
                checked_deadline_hours(
                    deadline_hours if deadline_hours is not None else old.deadline_hours
                ),
                missed_turns_forfeit
                if missed_turns_forfeit is not None
                else old.missed_turns_forfeit,
                referee_may_play if referee_may_play is not None else old.referee_may_play,
                checked_remind_hours(remind_hours, old.remind_hours),
                language_chosen=language is not None or old.language_chosen,
            )
            if new.missed_turns_forfeit < 1:
                raise InvalidRequest("bad_forfeit", count=new.missed_turns_forfeit)
            await repo.put_settings(
                session,
                guild,
                {
                    "referee_role": new.referee_role,
                    "language": new.language if new.language_chosen else None,
                    "deadline_hours": new.deadline_hours,
                    "missed_turns_forfeit": new.missed_turns_forfeit,
                    "referee_may_play": new.referee_may_play,
                    "remind_hours": new.remind_hours,
                    "updated_at": self.clock(),
                },
            )
            if key is not None:
                answer = {"user": actor.user, "config": dataclasses.asdict(new)}
                stored = keys.key_row(
                    scope, key, "configure_server", digest, None, answer, self.clock()
                )
                await keys.remember(session, stored)
        return new

    # -- the lobby ---------------------------------------------------------------------------
    async def create_game(
        self,
        actor: Actor,
        channel: str,
        *,
        guild: str | None = None,
        scenario: str = "standard",
        house_rules: str | Iterable[str] = (),
        points_limit: int | None = None,
        deadline_hours: int | None = None,
        language: str | None = None,
        entropy: str | None = None,
        key: str | None = None,
    ) -> Outcome:
        """A new game in ``channel``, its creator the south player; publishes the dice hash.

        ``house_rules``: the M1-M9 switched on ("M2, M7" or a collection of ids).

        ``entropy``: the creator's word, mixed into the dice seed (docs/dice.md). ``key`` is
        unique per channel: the same key again answers with the game it created."""
        call = check(
            schemas.Create,
            actor=actor,
            channel=channel,
            guild=guild,
            scenario=scenario,
            house_rules=house_rules,
            points_limit=points_limit,
            deadline_hours=deadline_hours,
            language=language,
            key=key,
        )
        word = checked_word(entropy)
        house = checked_house_rules(call.house_rules)
        require_home_server(actor, guild)
        # Not the word: an adapter draws one afresh for a player who gives none, so a retry
        # may carry another; the first delivery's is the one logged and mixed in.
        digest = keys.digest_of(call, house_rules=house)
        scope = keys.channel_scope(channel)
        board = self.scenarios.get(scenario)
        if board is None:
            raise InvalidRequest("unknown_scenario", scenario=scenario)
        limit = board.points_limits[0] if points_limit is None else points_limit
        if limit not in board.points_limits:
            allowed = ", ".join(str(p) for p in board.points_limits)
            raise InvalidRequest("bad_points_limit", points=limit, allowed=allowed)
        dice = FairDice(self.seeds())
        for attempt in range(ATTEMPTS):
            try:
                async with self.db.write() as session:
                    if key is not None:
                        done = await keys.find(
                            session, scope, key, "create_game", actor.user, digest
                        )
                        if done is not None:
                            return await keys.first_outcome(session, done, self.cache)
                    config = await self._config(session, guild)
                    hours = checked_deadline_hours(
                        config.deadline_hours if deadline_hours is None else deadline_hours
                    )
                    lang = checked_language(config.language if language is None else language)
                    existing = await repo.active_game_in(session, channel)
                    if existing is not None:
                        raise NotAllowed("channel_busy", game=existing.id)
                    now = self.clock()
                    game_id = await repo.add_game(
                        session,
                        {
                            "guild_id": guild,
                            "channel_id": channel,
                            "creator_id": actor.user,
                            "status": LOBBY,
                            "scenario_id": scenario,
                            "house_rules": house_column(house),
                            "points_limit": limit,
                            "language": lang,
                            "deadline_seconds": hours * 3600,
                            "remind_seconds": None
                            if config.remind_hours is None
                            else config.remind_hours * 3600,
                            "missed_turns_forfeit": config.missed_turns_forfeit,
                            "version": 0,
                            "seed": dice.seed,
                            "commitment": dice.commitment,
                            "created_at": now,
                        },
                    )
                    row = await repo.get_game(session, game_id)
                    assert row is not None
                    book = await load(session, row, self.cache, now)
                    created = records.GameCreated(
                        scenario, limit, hours * 3600, lang, dice.commitment, house
                    )
                    book.append(
                        records.LOBBY,
                        created,
                        actor=actor.user,
                        role=PLAYER,
                        side=Side.SOUTH,
                        events=[created],
                    )
                    book.add_player(Side.SOUTH, actor.user, word)
                    book.note(
                        records.PlayerJoined(Side.SOUTH, actor.user, word),
                        actor=actor.user,
                        role=PLAYER,
                        side=Side.SOUTH,
                    )
                    await book.flush()
                    outcome = book.outcome(self.defaults.missed_turns_forfeit)
                    if key is not None:
                        answer = keys.answer_of(outcome, 0, actor.user)
                        stored = keys.key_row(
                            scope, key, "create_game", digest, game_id, answer, now
                        )
                        await keys.remember(session, stored)
            except exc.DBAPIError as error:
                if not is_conflict(error):
                    raise
                await backoff(attempt)
                continue
            self.cache.put(game_id, book.result())
            return outcome
        raise StaleState("busy", game=0)

    async def game_in_channel(self, channel: str) -> int:
        check(schemas.Channel, channel=channel)
        async with self.db.read() as session:
            row = await repo.active_game_in(session, channel)
        if row is None:
            raise NotFound("no_game_in_channel", channel=channel)
        return row.id

    async def join(
        self,
        game_id: int,
        actor: Actor,
        *,
        expected_version: int | None = None,
        entropy: str | None = None,
        key: str | None = None,
    ) -> Outcome:
        """The second player joins; ``entropy`` is their word, mixed into the dice seed after
        its hash was published, so that the operator alone did not choose the dice (K2)."""
        call = check(schemas.Join, **call_fields(game_id, actor, expected_version, key))
        word = checked_word(entropy)

        def body(book: Book) -> None:
            require_home_server(actor, book.row.guild_id)
            require_lobby(book)
            if book.side_of(actor.user) is not None:
                raise NotAllowed("already_joined")
            if Side.NORTH in book.players:
                raise NotAllowed("game_full")
            book.add_player(Side.NORTH, actor.user, word)
            book.note(
                records.PlayerJoined(Side.NORTH, actor.user, word),
                actor=actor.user,
                role=PLAYER,
                side=Side.NORTH,
            )

        return await self._write(command_of(call, "join"), body)  # the word: as create_game

    async def submit_army(
        self,
        game_id: int,
        actor: Actor,
        roster: Roster,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> Outcome:
        """A1-A7: a legal roster, or every reason it is not; both in, the game starts."""
        call = check(
            schemas.SubmitArmy, **call_fields(game_id, actor, expected_version, key), roster=roster
        )

        async def body(book: Book) -> None:
            side = require_player(book, actor)
            require_lobby(book)
            # A1/A2 as the game's scenario has them: per-side points (the stored limit is
            # the south one), maybe raised slot maxima.
            board = self.scenario_of(book.row.scenario_id)
            limit = board.points_for(side, book.row.points_limit)
            problems = validate(roster, self.sheets, limit, board.organisation())
            if problems:
                raise RosterRejected(problems)
            book.set_roster(side, valuecodec.encode(roster))
            points = roster_points(roster, self.sheets)
            book.note(records.ArmySubmitted(side, points), actor=actor.user, role=PLAYER, side=side)
            if len(book.players) == 2 and all(p.army_submitted for p in book.players.values()):
                await self._start(book, {side: roster})

        return await self._write(command_of(call, "submit_army"), body)

    async def _start(self, book: Book, known: Mapping[Side, Roster]) -> None:
        rosters = dict(known)
        for player in await repo.get_players(book.session, book.game_id):
            side = Side(player.side)
            if side not in rosters:
                assert player.roster is not None
                rosters[side] = valuecodec.decode_as(Roster, player.roster)
        forces: dict[Side, tuple[tuple[str, UnitSheet], ...]] = {}
        taken: list[str] = []
        for side in (Side.SOUTH, Side.NORTH):
            forces[side] = tuple(field_units(rosters[side], self.sheets, taken))
            taken.extend(handle for handle, _ in forces[side])
        setup = Setup(
            self.scenario_of(book.row.scenario_id),
            rosters,
            forces,
            house=house_of_column(book.row.house_rules),
        )
        points = {side: roster_points(rosters[side], self.sheets) for side in Side}
        book.start(setup, points)


def checked_word(entropy: str | None) -> str | None:
    """A player's dice word as stored (NFC, trimmed), or InvalidRequest."""
    if entropy is None:
        return None
    if not isinstance(entropy, str):
        raise InvalidRequest("bad_word", limit=WORD_MAX)
    try:
        return clean_word(entropy)
    except ValueError:
        raise InvalidRequest("bad_word", limit=WORD_MAX) from None


def checked_remind_hours(hours: int | None, old: int | None) -> int | None:
    """N1: the reminder's hours before a deadline; 0 goes back to the default rule."""
    if hours is None:
        return old
    if hours == 0:
        return None
    if hours > MAX_DEADLINE_HOURS:
        raise InvalidRequest("bad_remind", hours=hours, high=MAX_DEADLINE_HOURS)
    return hours
