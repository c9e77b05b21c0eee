"""N1: turn deadlines live in the database; one call fires what is due, exactly once."""

from __future__ import annotations

import os
from datetime import timedelta

from sqlalchemy import select

from tests import processes
from tests.conftest import REFEREE, Clock, Games
from tests.processes import Workers
from vahalite_bot.app import GameService, autoplay, records
from vahalite_bot.app.results import EXPIRED, REMINDER, Announcement
from vahalite_bot.rules.actions import EndTurn, PlacePassenger
from vahalite_bot.rules.events import GameEnded
from vahalite_bot.store.models import Announcement as Row

PLAYERS = autoplay.PLAYERS
DAY2 = timedelta(hours=48)


async def test_a_turn_ends_when_its_deadline_passes_and_only_once(
    games: Games, service: GameService, clock: Clock
) -> None:
    game = await games.playing()
    side = game.turn_side
    assert side is not None
    early = await service.fire_due(clock.now + DAY2 - timedelta(seconds=1))
    assert game.game_id not in [o.game_id for o in early.expired]
    now = clock.advance(hours=48)
    fired = [o for o in (await service.fire_due(now)).expired if o.game_id == game.game_id]
    assert len(fired) == 1
    assert fired[0].events[0] == records.TurnMissed(side, 1)
    assert fired[0].turn_side is side.other
    line = (await service.game_log(game.game_id))[-1]
    assert (line.record, line.role, line.actor) == (EndTurn(side), "system", None)
    again = await service.fire_due(now)
    assert game.game_id not in [o.game_id for o in again.expired]
    status = await service.status(game.game_id)
    assert status.version == fired[0].version
    assert status.due_at == now + DAY2  # the next turn's own deadline
    assert [p.missed_turns for p in status.players if p.side is side] == [1]


async def test_missed_turns_in_a_row_forfeit_and_acting_resets_the_count(
    games: Games, service: GameService, clock: Clock
) -> None:
    games.guild = f"guild-{games.channel}"  # a server of its own: its setting is its own
    await service.configure_server(games.admin, games.guild, missed_turns_forfeit=2)
    game = await games.playing()
    first = game.turn_side
    assert first is not None
    await service.fire_due(clock.advance(hours=48))  # first misses (1)
    await service.end_turn(game.game_id, PLAYERS[first.other])  # the other acts: no count
    await service.fire_due(clock.advance(hours=48))  # first misses again (2): forfeit
    status = await service.status(game.game_id)
    assert status.status == "ended" and status.winner is first.other
    log = await service.game_log(game.game_id)
    assert log[-1].record == records.DecideGame(first.other, "forfeit")
    assert [e.reason for e in log[-1].events if isinstance(e, GameEnded)] == ["forfeit"]
    assert status.due_at is None


async def test_acting_resets_the_missed_count(
    games: Games, service: GameService, clock: Clock
) -> None:
    game = await games.playing()
    first = game.turn_side
    assert first is not None
    await service.fire_due(clock.advance(hours=48))
    await service.end_turn(game.game_id, PLAYERS[first.other])
    await service.end_turn(game.game_id, PLAYERS[first])
    status = await service.status(game.game_id)
    assert {p.side: p.missed_turns for p in status.players} == {first: 0, first.other: 0}


async def test_a_setup_step_is_not_skipped_but_counted(
    games: Games, service: GameService, clock: Clock
) -> None:
    game = await games.setup()
    side = game.acting_side
    assert side is not None
    fired = await service.fire_due(clock.advance(hours=48))
    (outcome,) = [o for o in fired.expired if o.game_id == game.game_id]
    assert outcome.events == (records.TurnMissed(side, 1),)
    assert outcome.acting_side is side and outcome.state == game.state
    assert (await service.status(game.game_id)).due_at == clock.now + DAY2


async def test_pending_decisions_take_their_defaults(
    games: Games, service: GameService, clock: Clock
) -> None:
    pending = await games.placement_pending()
    assert pending.state is not None and pending.acting_side is not None
    cell = pending.state.pending[0].cells[0]  # type: ignore[union-attr]
    fired = await service.fire_due(clock.advance(hours=48))
    (outcome,) = [o for o in fired.expired if o.game_id == pending.game_id]
    # The turn's player missed it, not the passenger's owner who owed the decision.
    turn = pending.turn_side
    assert turn is not None and turn is not pending.acting_side
    assert outcome.events[0] == records.TurnMissed(turn, 1)
    missed = {p.side: p.missed_turns for p in (await service.status(pending.game_id)).players}
    assert missed == {turn: 1, turn.other: 0}
    assert outcome.state is not None and outcome.state.units["tac1"].cell == cell
    log = await service.game_log(pending.game_id)
    assert PlacePassenger(pending.acting_side, "tac1", cell) in [line.record for line in log]


async def test_a_paused_game_has_no_deadline_to_fire(
    games: Games, service: GameService, clock: Clock
) -> None:
    game = await games.playing()
    await service.ref_pause(game.game_id, REFEREE)
    fired = await service.fire_due(clock.advance(days=30))
    assert game.game_id not in [o.game_id for o in fired.expired]
    assert (await service.status(game.game_id)).version == game.version + 1


async def test_a_reminder_comes_once_before_the_deadline(
    games: Games, service: GameService, clock: Clock
) -> None:
    game = await games.playing()
    side = game.turn_side
    assert side is not None
    due = clock.now + DAY2
    early = await service.fire_due(clock.advance(hours=35))
    assert game.game_id not in [r.game_id for r in early.reminders]
    report = await service.fire_due(clock.advance(hours=1))  # 12 hours left
    mine = [r for r in report.reminders if r.game_id == game.game_id]
    assert [(r.side, r.user, r.due_at) for r in mine] == [(side, PLAYERS[side].user, due)]
    again = await service.fire_due(clock.advance(hours=1))
    assert game.game_id not in [r.game_id for r in again.reminders]


async def test_two_processes_fire_each_deadline_once(
    games: Games, service: GameService, clock: Clock, db_url: str
) -> None:
    """Two bot processes (OS processes, each with its own connections) fire the same due
    deadlines at the same moment."""
    made = [await games.playing(seed) for seed in range(4)]
    now = clock.advance(hours=48)
    with Workers(db_url) as workers:
        replies = workers.run([(processes.fire_due, (now,)), (processes.fire_due, (now,))])
    assert len({r.pid for r in replies} | {os.getpid()}) == 3
    fired = [game_id for reply in replies for game_id in reply.value]
    mine = sorted(g for g in fired if g in {m.game_id for m in made})
    assert mine == sorted(m.game_id for m in made)
    for game in made:
        log = await service.game_log(game.game_id)
        assert sum(isinstance(line.record, records.TurnMissed) for line in log) == 1


async def test_N1_the_forfeit_count_is_the_games_own_from_its_creation(
    games: Games, service: GameService, clock: Clock
) -> None:
    """Lowering the server's count later ends no running game at its next missed turn."""
    games.guild = f"guild-{games.channel}"
    await service.configure_server(games.admin, games.guild, missed_turns_forfeit=3)
    game = await games.made_afresh(seed=5)
    await service.configure_server(games.admin, games.guild, missed_turns_forfeit=1)
    await service.fire_due(clock.advance(hours=48))
    status = await service.status(game.game_id)
    assert status.status == "playing" and status.missed_turns_forfeit == 3
    assert sorted(p.missed_turns for p in status.players) == [0, 1]


def _mine(claimed: list[Announcement], game_id: int) -> list[Announcement]:
    return [a for a in claimed if a.game_id == game_id]


async def test_N1_every_announcement_is_committed_with_what_it_announces(
    games: Games, service: GameService, clock: Clock
) -> None:
    """A reminder and an expiry are in the outbox from their own transaction; a claim holds
    them from every other claimer until it runs out (its holder died), posted they are gone."""
    game = await games.playing()
    side = game.turn_side
    assert side is not None
    due = clock.now + DAY2
    await service.fire_due(clock.advance(hours=36))  # the reminder
    fired = await service.fire_due(clock.advance(hours=12))  # the expiry
    (expired,) = [o for o in fired.expired if o.game_id == game.game_id]
    claimed = _mine(await service.claim_announcements(clock.now, limit=10_000), game.game_id)
    assert [(a.kind, a.side, a.user) for a in claimed] == [
        (REMINDER, side, PLAYERS[side].user),
        (EXPIRED, side, PLAYERS[side].user),
    ]
    reminder, expiry = claimed
    assert reminder.due_at == due
    assert (expiry.missed, expiry.forfeit, expiry.setup) == (1, False, False)
    assert (expiry.version_from, expiry.version) == (game.version, expired.version)
    assert reminder.nonce != expiry.nonce and len(expiry.nonce) <= 25
    held = await service.claim_announcements(clock.advance(seconds=1), limit=10_000)
    assert _mine(held, game.game_id) == []
    again = await service.claim_announcements(clock.advance(seconds=60), limit=10_000)
    assert _mine(again, game.game_id) == claimed  # the holder died: claimed anew
    await service.mark_announced([a.id for a in claimed], clock.now)
    later = await service.claim_announcements(clock.advance(seconds=60), limit=10_000)
    assert _mine(later, game.game_id) == []


async def test_N1_a_posted_announcement_is_kept_a_month_then_dropped(
    games: Games, service: GameService, clock: Clock
) -> None:
    """The outbox of a bot that runs for months does not grow with every turn it announced."""
    game = await games.playing()

    async def kept() -> list[int]:
        async with service.db.read() as session:
            rows = await session.execute(
                select(Row.id).where(Row.game_id == game.game_id).order_by(Row.id)
            )
            return list(rows.scalars())

    await service.fire_due(clock.advance(hours=48))  # the reminder, then the expiry
    first = _mine(await service.claim_announcements(clock.now, limit=10_000), game.game_id)
    await service.mark_announced([a.id for a in first], clock.now)
    assert await kept() == [a.id for a in first]
    await service.fire_due(clock.advance(hours=48))  # the next player's turn runs out too
    second = _mine(await service.claim_announcements(clock.now, limit=10_000), game.game_id)
    await service.mark_announced([a.id for a in second], clock.now)
    assert await kept() == [a.id for a in first + second]  # two days on: both kept
    await service.fire_due(clock.advance(days=31))
    third = _mine(await service.claim_announcements(clock.now, limit=10_000), game.game_id)
    assert third, "a month on, the game's turn has run out again"
    await service.mark_announced([a.id for a in third], clock.now)
    assert await kept() == [a.id for a in third]


async def test_N1_expiries_announce_who_missed_in_setup_and_at_a_forfeit(
    games: Games, service: GameService, clock: Clock
) -> None:
    games.guild = f"guild-{games.channel}"
    await service.configure_server(games.admin, games.guild, missed_turns_forfeit=2)
    game = await games.setup()
    side = game.turn_side
    assert side is not None
    await service.fire_due(clock.advance(hours=48))
    await service.fire_due(clock.advance(hours=48))
    claimed = _mine(await service.claim_announcements(clock.now, limit=10_000), game.game_id)
    assert [(a.side, a.missed, a.setup, a.forfeit) for a in claimed] == [
        (side, 1, True, False),
        (side, 2, True, True),  # the same player's step again, and that ended it
    ]
    assert (await service.status(game.game_id)).winner is side.other


async def test_two_processes_never_claim_one_announcement(
    games: Games, service: GameService, clock: Clock, db_url: str
) -> None:
    made = [await games.playing(seed) for seed in range(3)]
    await service.fire_due(clock.advance(hours=48))
    ids = {g.game_id for g in made}
    now = clock.advance(seconds=1)
    with Workers(db_url) as workers:
        replies = workers.run([(processes.claim, (now,)), (processes.claim, (now,))])
    claimed = [a for reply in replies for a in reply.value if a[1] in ids]
    assert sorted(game for _, game in claimed) == sorted(ids)  # each once, by one of them
    assert len({a for a, _ in claimed}) == len(claimed)
