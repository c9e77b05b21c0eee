"""Play over days on Discord, end to end (rulebook N1, N2): deadlines and reminders fired by
the bot's own loop (the clock moved by putting the deadline in the past, not by sleeping),
a deadline that passed while the bot was down fired exactly once after it starts, and every
referee override from a referee and refused from a player."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select, update

from tests.discord_world import World, game_of, make_world, play_until, reply_text
from vahalite_bot.app import Actor, records
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.store import repository as repo
from vahalite_bot.store.models import Announcement

FAST = {"extra": {"deadline_tick": 0.3}}


async def _game(world: World, until: Phase | None = Phase.PLAYING) -> tuple[int, int]:
    """A game between Alice (South) and Bob (North) in a thread; ``until`` that phase (None:
    the first setup step, right after both armies are in)."""
    await world.slash(world.alice, world.text, "vl new", {"points": 500, "hours": 12})
    thread = int(world.standin.threads_of(world.text)[-1]["id"])
    game = await game_of(world, thread)
    assert (await world.status(game)).deadline_seconds == 12 * 3600  # set at creation
    await world.slash(world.bob, thread, "vl join")
    await world.slash(world.alice, thread, "vl army", {"faction": "space_marines"})
    await world.slash(world.bob, thread, "vl army", {"faction": "orks"})
    if until is not None:
        await play_until(world, thread, game, until)
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


# -- issue 18 ----------------------------------------------------------------------------------
def _admin(world: World) -> int:
    world.standin.add_member(world.guild, world.owner, admin=True)
    return world.owner


async def test_issue18_1_a_resign_question_is_answered_by_its_asker_alone(
    tmp_path: Path,
) -> None:
    """A typed ``resign`` is answered in public: the opponent's press is refused, ephemerally,
    and changes nothing; the asker's own press resigns."""
    world = await make_world(tmp_path)
    try:
        thread, game = await _game(world)
        count = len(world.public(thread))
        await world.standin.post(world.alice, thread, "resign")
        question = await world.next_public(thread, count, lambda m: bool(m.custom_ids()))
        yes = next(c for c in question.custom_ids() if c.startswith("vl:ry:"))
        no = next(c for c in question.custom_ids() if c.startswith("vl:rn:"))
        version = (await world.status(game)).version
        for button in (yes, no):
            pressed = await world.standin.click(world.bob, question, button)
            await pressed.wait_done(timeout=30)
            assert pressed.ephemeral and "alone" in reply_text(pressed), button
        status = await world.status(game)
        assert status.status == "playing" and status.version == version
        pressed = await world.standin.click(world.alice, question, yes)
        await pressed.wait_done(timeout=30)
        ended = await world.status(game)
        assert ended.status == "ended" and ended.winner is Side.NORTH  # Alice resigned
    finally:
        await world.close()


async def _unposted(world: World, game: int) -> None:
    """As if the bot was killed right after a post, before marking it: not posted yet."""
    service = await world.oracle()
    for _ in range(100):  # the bot marks it right after the post
        async with service.db.read() as session:
            marked = select(Announcement.posted_at).where(Announcement.game_id == game)
            if None not in (await session.execute(marked)).scalars().all():
                break
        await asyncio.sleep(0.1)
    async with service.db.write() as session:
        await session.execute(
            update(Announcement)
            .where(Announcement.game_id == game)
            .values(posted_at=None, claimed_until=None)
        )


async def test_issue18_3_an_expiry_committed_before_a_crash_is_posted_after_it_once(
    tmp_path: Path,
) -> None:
    world = await make_world(tmp_path, **FAST)
    try:
        thread, game = await _game(world)
        status = await world.status(game)
        missed = status.acting_user
        world.bot.kill()
        await world.bot.wait()
        # The bot's last act: the expiry's commit; killed before its post.
        fired = await (await world.oracle()).fire_due(datetime.now(UTC) + timedelta(hours=13))
        assert [o.game_id for o in fired.expired] == [game]
        count = len(world.public(thread))
        await world.start_bot(**FAST)
        expired = await world.next_public(thread, count, lambda m: "Time is up" in m.content)
        assert f"<@{missed}>" in expired.content and expired.attachments
        # Killed between a post and its mark: posted again under its nonce, kept once.
        hits = world.standin.nonce_hits
        await _unposted(world, game)
        await world.standin.wait_for(lambda: world.standin.nonce_hits > hits, 30)
        assert sum("Time is up" in m.content for m in world.public(thread)) == 1
    finally:
        await world.close()


async def test_issue18_4_lowering_the_servers_forfeit_ends_no_running_game(
    tmp_path: Path,
) -> None:
    world = await make_world(tmp_path, **FAST)
    try:
        thread, game = await _game(world)  # the config's count: 3
        await world.slash(_admin(world), world.text, "vl config forfeit", {"count": 1})
        count = len(world.public(thread))
        await _move_deadline(world, game, due_at=datetime.now(UTC) - timedelta(seconds=1))
        expired = await world.next_public(thread, count, lambda m: "Time is up" in m.content)
        assert "forfeit" not in expired.content
        status = await world.status(game)
        assert status.status == "playing" and status.missed_turns_forfeit == 3
    finally:
        await world.close()


async def test_issue18_5_an_expired_setup_step_and_a_forfeit_name_who_missed(
    tmp_path: Path,
) -> None:
    world = await make_world(tmp_path, **FAST)
    try:
        await world.slash(_admin(world), world.text, "vl config forfeit", {"count": 2})
        thread, game = await _game(world, until=None)
        status = await world.status(game)
        assert status.status == "setup" and status.acting_user is not None
        missed, other = (
            status.acting_user,
            next(p.user for p in status.players if p.user != status.acting_user),
        )
        count = len(world.public(thread))
        await _move_deadline(world, game, due_at=datetime.now(UTC) - timedelta(seconds=1))
        step = await world.next_public(thread, count, lambda m: "Time is up" in m.content)
        assert f"Time is up for <@{missed}>'s setup step" in step.content
        await world.standin.wait_for(lambda: world.standin.pins(thread) != [], 30)
        count = len(world.public(thread))
        await _move_deadline(world, game, due_at=datetime.now(UTC) - timedelta(seconds=1))
        forfeit = await world.next_public(thread, count, lambda m: "Time is up" in m.content)
        assert f"Time is up for <@{missed}>'s turn" in forfeit.content
        assert "forfeited" in forfeit.content and f"<@{other}>'s" not in forfeit.content
        ended = await world.status(game)
        assert ended.status == "ended" and ended.winner is not None
        assert next(p.user for p in ended.players if p.side is ended.winner) == other
    finally:
        await world.close()


async def test_issue18_6_a_pause_says_who_paused_and_only_they_lift_it(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        referee = _admin(world)
        thread, game = await _game(world)
        await world.slash(world.alice, thread, "vl pause")
        await world.slash(world.bob, thread, "vl pause")
        assert (await world.status(game)).paused
        await world.standin.wait_for(
            lambda: any("both players" in m.content for m in world.standin.pins(thread)), 30
        )
        assert not any("referee" in m.content for m in world.standin.pins(thread))
        mover = int((await world.status(game)).acting_user or 0)
        refused = reply_text(await world.slash(mover, thread, "vl end"))
        assert "Both players paused" in refused and "referee" not in refused
        await world.slash(world.alice, thread, "vl pause")
        await world.slash(world.bob, thread, "vl pause")
        assert not (await world.status(game)).paused
        await world.slash(referee, thread, "vl ref pause")
        for player in (world.alice, world.bob):
            answer = reply_text(await world.slash(player, thread, "vl pause"))
            assert "only the referee" in answer
        status = await world.status(game)
        assert status.paused and status.paused_by == "referee"
    finally:
        await world.close()


async def test_issue18_7_a_new_game_speaks_the_servers_chosen_language(tmp_path: Path) -> None:
    """The server's chosen language, then the creator's Discord locale, then the config."""
    world = await make_world(tmp_path)
    try:
        service = await world.oracle()
        await world.slash(world.alice, world.text, "vl new", locale="ru")
        first = await game_of(world, int(world.standin.threads_of(world.text)[-1]["id"]))
        assert (await service.status(first)).language == "ru"  # nothing chosen: the locale
        await world.slash(_admin(world), world.text, "vl config language", {"language": "ru"})
        await world.slash(world.bob, world.text, "vl new", locale="en-US")
        second = await game_of(world, int(world.standin.threads_of(world.text)[-1]["id"]))
        assert (await service.status(second)).language == "ru"
    finally:
        await world.close()


async def test_issue18_8_a_log_cut_to_one_message_keeps_the_newest(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        thread, game = await _game(world)
        # A long log: the referee sets a unit's HP over and over (behind the bot's back).
        service = await world.oracle()
        referee = Actor(str(world.owner), admin=True, guild=str(world.guild))
        state = (await world.status(game)).state
        assert state is not None
        unit = next(u for u in state.living() if u.sheet.max_hp > 1)
        for hp in range(40):
            await service.ref_set_hp(game, referee, unit.id, 1 + hp % unit.sheet.max_hp)
        text = reply_text(await world.slash(world.carol, thread, "vl log", {"count": 50}))
        log = await (await world.oracle()).game_log(game)
        asked = [line.seq for line in log if line.events][-50:]
        assert len(text) <= 2000
        note, *lines = text.splitlines()
        left_out = int(note.split()[0].lstrip("("))
        assert 0 < left_out < len(asked) and note == f"({left_out} older entries left out)"
        shown = [int(line.split()[0][1:]) for line in lines if line.startswith("#")]
        assert shown == asked[left_out:]  # the newest, every one of them
    finally:
        await world.close()
