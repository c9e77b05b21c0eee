"""Play over days on Discord, end to end (RULES.md N1, N2): deadlines and reminders fired by
the bot's own loop (the clock moved by putting the deadline in the past, not by sleeping),
a deadline that passed while the bot was down fired exactly once after it starts, and every
referee override from a referee and refused from a player."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.discord_world import World, game_of, make_world, play_until, reply_text
from vahalite_bot.app import records
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.store import repository as repo

FAST = {"extra": {"deadline_tick": 0.3}}


async def _game(world: World) -> tuple[int, int]:
    await world.slash(world.alice, world.text, "vl new", {"points": 500, "hours": 12})
    thread = int(world.standin.threads_of(world.text)[-1]["id"])
    game = await game_of(world, thread)
    assert (await world.status(game)).deadline_seconds == 12 * 3600  # set at creation
    await world.slash(world.bob, thread, "vl join")
    await world.slash(world.alice, thread, "vl army", {"faction": "space_marines"})
    await world.slash(world.bob, thread, "vl army", {"faction": "orks"})
    await play_until(world, thread, game, Phase.PLAYING)
    return thread, game


async def _move_deadline(world: World, game: int, **when: datetime) -> None:
    """Time passes: the running turn's deadline (or reminder) is now in the past."""
    service = await world.oracle()
    async with service.db.write() as session:
        await repo.update_deadline(session, game, when)


async def _missed(world: World, game: int) -> int:
    log = await (await world.oracle()).game_log(game)
    return sum(isinstance(line.record, records.TurnMissed) for line in log)


async def test_N1_a_reminder_and_an_expired_turn_are_posted_once(tmp_path: Path) -> None:
    world = await make_world(tmp_path, **FAST)
    try:
        thread, game = await _game(world)
        status = await world.status(game)
        assert status.due_at is not None and status.acting_user is not None
        player = int(status.acting_user)
        past = datetime.now(UTC) - timedelta(seconds=1)
        count = len(world.public(thread))
        await _move_deadline(world, game, remind_at=past)
        reminder = await world.next_public(thread, count, lambda m: "ends" in m.content)
        assert f"<@{player}>" in reminder.content
        assert [int(u) for u in reminder.allowed_mentions["users"]] == [player]
        await _move_deadline(world, game, due_at=past)
        expired = await world.next_public(thread, count + 1, lambda m: "Time is up" in m.content)
        assert expired.attachments  # the board, for the next player
        after = await world.status(game)
        assert status.state is not None and after.state is not None
        assert after.state.active is not status.state.active
        assert next(p.missed_turns for p in after.players if p.user == str(player)) == 1
        assert await _missed(world, game) == 1
        await asyncio.sleep(1.0)  # many more ticks later: still once
        assert await _missed(world, game) == 1
    finally:
        await world.close()


async def test_N1_a_deadline_passed_while_the_bot_was_down_fires_once_after_start(
    tmp_path: Path,
) -> None:
    world = await make_world(tmp_path, **FAST)
    try:
        thread, game = await _game(world)
        world.bot.kill()
        await world.bot.wait()
        await _move_deadline(world, game, due_at=datetime.now(UTC) - timedelta(hours=3))
        count = len(world.public(thread))
        await world.start_bot(**FAST)
        await world.next_public(thread, count, lambda m: "Time is up" in m.content)
        await world.restart_bot()  # and once more: nothing left to fire
        assert await _missed(world, game) == 1
        assert sum("Time is up" in m.content for m in world.public(thread)) == 1
    finally:
        await world.close()


async def test_N2_every_override_from_the_referee_and_refused_from_a_player(
    tmp_path: Path,
) -> None:
    world = await make_world(tmp_path)
    try:
        standin = world.standin
        rita = standin.add_user("rita")
        role = standin.add_role(world.guild, "Referee")
        standin.add_member(world.guild, rita, roles=[role])
        # Only an administrator sets the role; a player may not.
        refused = await world.slash(
            world.alice, world.text, "vl config referee-role", {"role": role}
        )
        assert "administrator" in reply_text(refused)
        standin.add_member(world.guild, world.owner, admin=True)
        done = await world.slash(world.owner, world.text, "vl config referee-role", {"role": role})
        assert f"<@&{role}>" in reply_text(done)
        thread, game = await _game(world)
        state = (await world.status(game)).state
        assert state is not None
        unit = next(u for u in state.living(Side.SOUTH) if u.cell is not None)
        south = unit.id
        free = next(
            c
            for c in state.scenario.cells()
            if state.unit_at(c) is None and c not in state.terrain and state.can_stand(unit, c)
        )
        overrides = [
            ("vl ref hp", {"unit": south, "hp": 1}),
            ("vl ref move", {"unit": south, "cell": free.name}),
            ("vl ref extend", {"hours": 5}),
            ("vl ref pause", {}),
            ("vl ref resume", {}),
            ("vl ref end", {}),
            ("vl ref undo", {"count": 1}),
            ("vl ref remove", {"unit": south}),
            ("vl ref decide", {"winner": "draw"}),
        ]
        for command, options in overrides:
            version = (await world.status(game)).version
            player = await world.slash(world.alice, thread, command, options)
            assert player.ephemeral and "referee" in reply_text(player).lower(), command
            assert (await world.status(game)).version == version, command
            count = len(world.public(thread))
            await world.slash(rita, thread, command, options)
            post = await world.next_public(thread, count, lambda m: "(referee)" in m.content)
            assert f"<@{rita}>" in post.content, command
            assert (await world.status(game)).version > version, command
        log = await (await world.oracle()).game_log(game)
        assert sum(line.actor == str(rita) and line.role == "referee" for line in log) >= 9
        assert (await world.status(game)).status == "ended"
    finally:
        await world.close()


async def test_N1_my_games_reminders_by_dm_and_a_pause_by_both_players(tmp_path: Path) -> None:
    world = await make_world(tmp_path, **FAST)
    try:
        thread, game = await _game(world)
        status = await world.status(game)
        mover = int(status.acting_user or 0)
        waiter = world.bob if mover == world.alice else world.alice
        # /vl games lists the game with a link; /vl my-turn only for the one it waits for.
        listed = reply_text(await world.slash(waiter, world.text, "vl games"))
        assert f"#{game}" in listed and f"<#{thread}>" in listed
        assert f"<#{thread}>" in reply_text(await world.slash(mover, world.text, "vl my-turn"))
        assert "No game waits" in reply_text(await world.slash(waiter, world.text, "vl my-turn"))
        assert "no unfinished" in reply_text(await world.slash(world.carol, world.text, "vl games"))
        # Reminders by DM for a player who asked.
        assert "direct message" in reply_text(
            await world.slash(mover, thread, "vl notify", {"dm": True})
        )
        dm = world.standin.dm_channel(mover)
        await _move_deadline(world, game, remind_at=datetime.now(UTC) - timedelta(seconds=1))
        direct = await world.standin.wait_message(dm, lambda m: f"<#{thread}>" in m.content, 15)
        assert "ends" in direct.content
        # A pause: asked by one, agreed by the other with the button; the asker cannot agree.
        count = len(world.public(thread))
        await world.slash(world.alice, thread, "vl pause")
        asked = await world.next_public(thread, count, lambda m: bool(m.custom_ids()))
        agree = next(c for c in asked.custom_ids() if c.startswith("vl:agree:"))
        assert [int(u) for u in asked.allowed_mentions["users"]] == [world.bob]
        own = await world.standin.click(world.alice, asked, agree)
        assert "asked already" in (await own.wait_done(timeout=30))[0].content
        assert not (await world.status(game)).paused
        pressed = await world.standin.click(world.bob, asked, agree)
        await pressed.wait_done(timeout=30)
        paused = await world.status(game)
        assert paused.paused and paused.due_at is None  # the clock stopped
        # Resuming the same way, this time both by the command.
        await world.slash(world.bob, thread, "vl pause")
        assert (await world.status(game)).paused
        await world.slash(world.alice, thread, "vl pause")
        resumed = await world.status(game)
        assert not resumed.paused and resumed.due_at is not None
    finally:
        await world.close()
