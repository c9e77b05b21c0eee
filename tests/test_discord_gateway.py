"""The bot against Discord's gateway faults and thread cache, end to end (issue 17).

* Every fault the gateway makes (close 1001, 4000, 4009; op 9 resumable and not): a command
  sent while the bot is away is replayed on its RESUME, one sent just before the fault is
  answered, one after it too; each is answered once and applied once (the interaction id
  is the command's key), none is lost.
* A game thread that discord.py has not cached (archived, and the bot restarted since):
  typed orders are still served, by the channel's id; reminders, an expired turn and the
  recap reach a thread archived meanwhile (the bot's message unarchives it, as on Discord).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.discord_moves import russian_of, slash_of
from tests.discord_world import World, game_of, make_world, play_until, reply_text
from tests.standin import Interaction, gateway
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.store import repository as repo

FAST = {"extra": {"deadline_tick": 0.3}}
CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


async def _playing(world: World, **new: object) -> tuple[int, int]:
    await world.slash(world.alice, world.text, "vl new", {"points": 500, **new})
    thread = int(world.standin.threads_of(world.text)[-1]["id"])
    game = await game_of(world, thread)
    await world.slash(world.bob, thread, "vl join")
    await world.slash(world.alice, thread, "vl army", {"faction": "space_marines"})
    await world.slash(world.bob, thread, "vl army", {"faction": "orks"})
    await play_until(world, thread, game, Phase.PLAYING)
    return thread, game


async def _next_command(world: World, thread: int, game: int) -> Interaction:
    """The acting player's greedy move, as a slash command: dispatched, not yet answered."""
    state = (await world.status(game)).state
    assert state is not None
    side = acting_side(state)
    assert side is not None
    user = world.alice if side is Side.SOUTH else world.bob
    command, options = slash_of(GreedyPlayer().choose(state, random.Random(7)), state)
    return await world.standin.slash(user, thread, command, options)


# A sweep over every fault: a soak test (make test-soak, and CI).
@pytest.mark.soak
async def test_no_command_is_lost_or_applied_twice_across_any_reconnect(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    standin = world.standin
    try:
        thread, game = await _playing(world)
        sent: list[Interaction] = []
        figures: dict[str, dict[str, int]] = {}
        for fault, resumable in gateway.FAULTS.items():
            version = (await world.status(game)).version
            identifies = standin.gateway.identifies
            ours: list[Interaction] = []
            # A reading command in flight: written to the socket just before the fault.
            reads = [await standin.slash(world.carol, thread, "vl status")]
            if resumable:
                standin.gateway.fault(fault)
                ours.append(await _next_command(world, thread, game))  # while away
                await ours[-1].wait_done(30)
            else:
                ours.append(await _next_command(world, thread, game))  # then the fault
                standin.gateway.fault(fault)
                await ours[-1].wait_done(30)
                await standin.wait_for(
                    lambda before=identifies: standin.gateway.identifies > before, 30
                )
            await standin.wait_for(lambda: standin.connected == 1, 30)
            ours.append(await _next_command(world, thread, game))  # after it
            await ours[-1].wait_done(30)
            await reads[0].wait_done(30)
            applied = (await world.status(game)).version - version
            callbacks = Counter(
                int(m.group(1)) for _, path in standin.requests if (m := CALLBACK.search(path))
            )
            every = ours + reads
            figures[fault] = {
                "lost": sum(not i.responses for i in every),
                "doubled": sum(callbacks[i.id] > 1 for i in every) + max(0, applied - len(ours)),
                "unanswered": sum(i.answered() is None for i in every),
                "applied": applied,
            }
            sent.extend(every)
        print("reconnects:", figures)
        assert len(sent) == 3 * len(gateway.FAULTS)
        for fault, counted in figures.items():
            assert (counted["lost"], counted["doubled"], counted["unanswered"]) == (0, 0, 0), fault
            assert counted["applied"] == 2, (fault, counted)
        assert standin.gateway.resumes_elsewhere == 0
        assert standin.resumes >= 3  # 1001, 4000, op 9 resumable
    finally:
        await world.close()


async def test_orders_typed_in_an_archived_thread_after_a_restart_are_served(
    tmp_path: Path,
) -> None:
    world = await make_world(tmp_path)
    standin = world.standin
    try:
        thread, game = await _playing(world)
        standin.archive_thread(thread)  # a week without a move: Discord archived it
        await world.restart_bot()  # GUILD_CREATE lists active threads only: not this one
        status = await world.status(game)
        state = status.state
        assert state is not None and state.active is not None
        user = world.alice if state.active is Side.SOUTH else world.bob
        order = russian_of(GreedyPlayer().choose(state, random.Random(1)), state)
        posted = await standin.post(user, thread, order)
        assert standin.channel(thread)["archived"] is False  # the post reopened it
        reply = await world.next_public(
            thread, 0, lambda m: m.reference_id == posted.id and m.author_id != user
        )
        assert reply.attachments  # the board after the order
        assert (await world.status(game)).version == status.version + 1
        # The thread is open again: a slash command there means what the same words typed do.
        state = (await world.status(game)).state
        assert state is not None and state.active is not None
        mine = next(u.id for u in state.living(state.active) if u.cell is not None)
        theirs = next(u.id for u in state.living(state.active.other) if u.cell is not None)
        slash = await world.slash(user, thread, "vl odds", {"unit": mine, "target": theirs})
        count = len(world.public(thread))
        typed = await standin.post(user, thread, f"odds {mine} {theirs}")
        answer = await world.next_public(thread, count, lambda m: m.reference_id == typed.id)
        assert reply_text(slash) and reply_text(slash) in answer.content
    finally:
        await world.close()


async def test_reminder_expired_turn_and_recap_reach_an_archived_thread(tmp_path: Path) -> None:
    world = await make_world(tmp_path, **FAST)
    standin = world.standin
    try:
        thread, game = await _playing(world, hours=12)
        service = await world.oracle()
        past = datetime.now(UTC) - timedelta(seconds=1)
        standin.archive_thread(thread)
        count = len(world.public(thread))
        async with service.db.write() as session:
            await repo.update_deadline(session, game, {"remind_at": past})
        await world.next_public(thread, count, lambda m: "ends" in m.content)
        assert standin.channel(thread)["archived"] is False

        world.bot.kill()  # a restart, and the thread archived again: out of every cache
        await world.bot.wait()
        await world.start_bot(**FAST)
        standin.archive_thread(thread)
        count = len(world.public(thread))
        async with service.db.write() as session:
            await repo.update_deadline(session, game, {"due_at": past})
        expired = await world.next_public(thread, count, lambda m: "Time is up" in m.content)
        assert expired.attachments
        await world.next_public(thread, count, lambda m: "while you were away" in m.content)
        assert standin.channel(thread)["archived"] is False
    finally:
        await world.close()
