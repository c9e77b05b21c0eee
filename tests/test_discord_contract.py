"""Discord's contract, end to end: the real bot against a stand-in that refuses what Discord
refuses (tests/standin/contract.py) and fails as Discord fails (tests/standin/faults.py).

Forum tags that fit, posts and threads that live for days, the practice opponent's post,
answers that come in time however slow Discord is, and posts that survive 429s and 5xx:
no command lost, doubled or left unanswered.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.botproc import BotProcess
from tests.discord_moves import slash_of
from tests.discord_world import World, game_of, make_world, play_until, ready_game, reply_text
from tests.standin import Message
from tests.standin.contract import FORUM_TAG_NAME
from vahalite_bot.app import records
from vahalite_bot.codex.army import Army
from vahalite_bot.codex.armylist import format_army
from vahalite_bot.codex.loader import codex_factions
from vahalite_bot.i18n import translate
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.selfplay.greedy import GreedyPlayer

SEVEN_DAYS = 10080  # minutes: Discord's longest auto-archive


def _tag_names(world: World, forum: int, post: dict[str, object]) -> list[str]:
    tags = {t["id"]: t["name"] for t in world.standin.channel(forum)["available_tags"]}
    applied = post["applied_tags"]
    assert isinstance(applied, list)
    return [tags[t] for t in applied]


def _archive_minutes(world: World, thread: int) -> int:
    return world.standin.world.channels[thread].auto_archive_duration


async def test_a_fresh_english_forum_gets_its_tag_and_a_post_that_lasts_a_week(
    tmp_path: Path,
) -> None:
    world = await make_world(tmp_path)
    try:
        made = await world.slash(world.alice, world.forum, "vl new", {"points": 500})
        posts = world.standin.threads_of(world.forum)
        assert len(posts) == 1, reply_text(made)
        post = posts[0]
        assert f"<#{post['id']}>" in reply_text(made)
        wanted = translate("en", "discord-tag-open")
        assert len(wanted) <= FORUM_TAG_NAME
        assert _tag_names(world, world.forum, post) == [wanted]
        assert _archive_minutes(world, int(post["id"])) == SEVEN_DAYS
    finally:
        await world.close()


async def test_a_forum_with_no_room_for_a_tag_still_gets_the_game(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        full = world.standin.add_forum_channel(world.guild, "full", [f"t{i}" for i in range(20)])
        await asyncio.sleep(0.2)  # CHANNEL_CREATE reaches the bot
        made = await world.slash(world.alice, full, "vl new", {"points": 500})
        posts = world.standin.threads_of(full)
        assert len(posts) == 1, reply_text(made)
        assert posts[0]["applied_tags"] == []
        assert await game_of(world, int(posts[0]["id"])) > 0
        # Discord refused the 21st tag (50035); the bot said so in its log, as a warning.
        refused = [e for _, _, e in world.standin.refusals if e.code == 50035]
        assert refused and "available_tags" in str(refused[0].errors)
        assert "tag" in world.bot.output().lower()
    finally:
        await world.close()


async def test_a_game_thread_in_a_text_channel_lasts_a_week(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        await world.slash(world.alice, world.text, "vl new", {"points": 500})
        thread = int(world.standin.threads_of(world.text)[0]["id"])
        assert _archive_minutes(world, thread) == SEVEN_DAYS
    finally:
        await world.close()


POSTS = "/channels/{channel}/messages"
ANSWERS = "/webhooks/{app}/{token}"
CALLBACKS = "/interactions/{id}/{token}/callback"
DEFERRED = 5  # the callback type of a deferral


# A sweep over every fault: a soak test (make test-soak, and CI).
@pytest.mark.soak
async def test_429s_5xx_and_slow_answers_lose_double_and_leave_unanswered_no_command(
    tmp_path: Path,
) -> None:
    """One move per fault, while it lasts: the move is made once, its board posted once,
    the player answered, and the first answer always within 3 s: the answer itself in the
    interaction's callback, or a deferral when the move and its post take long."""
    world = await make_world(tmp_path)
    try:
        thread, game = await ready_game(world, world.text)
        await play_until(world, thread, game, Phase.PLAYING)
        faults = world.standin.faults
        plan: list[tuple[str, Callable[[], object]]] = [
            (
                "429 on posts, twice",
                lambda: faults.rate_limit("POST", POSTS, retry_after=0.5, times=2),
            ),
            (
                "global 429",
                lambda: faults.rate_limit("POST", POSTS, retry_after=0.4, scope="global"),
            ),
            (
                "shared 429",
                lambda: faults.rate_limit("POST", POSTS, retry_after=0.3, scope="shared"),
            ),
            ("500", lambda: faults.server_error("POST", POSTS, status=500)),
            ("502", lambda: faults.server_error("POST", POSTS, status=502)),
            ("503", lambda: faults.server_error("POST", POSTS, status=503)),
            ("503 twice", lambda: faults.server_error("POST", POSTS, status=503, times=2)),
            ("slow post, 4 s", lambda: faults.slow("POST", POSTS, 4.0)),
            # A quick command is answered in its callback; a slow one (here its post) is
            # deferred, then answered by a followup: the faults of both routes.
            (
                "slow post, 429 on the followup",
                lambda: (
                    faults.slow("POST", POSTS, 2.5),
                    faults.rate_limit("POST", ANSWERS, retry_after=0.3),
                ),
            ),
            (
                "slow post, 503 on the followup",
                lambda: (
                    faults.slow("POST", POSTS, 2.5),
                    faults.server_error("POST", ANSWERS, status=503),
                ),
            ),
            ("429 on the callback", lambda: faults.rate_limit("POST", CALLBACKS, retry_after=0.3)),
            ("500 on the callback", lambda: faults.server_error("POST", CALLBACKS, status=500)),
            ("503 on the callback", lambda: faults.server_error("POST", CALLBACKS, status=503)),
            ("slow callback, 1 s", lambda: faults.slow("POST", CALLBACKS, 1.0)),
            ("none", lambda: None),
        ]
        users = {Side.SOUTH: world.alice, Side.NORTH: world.bob}
        rng = random.Random(11)
        tally = {"lost": 0, "doubled": 0, "unanswered": 0, "late": 0, "fault unmet": 0}
        slowest = 0.0
        for name, inject in plan:
            state = (await world.status(game)).state
            assert state is not None and state.phase is Phase.PLAYING, name
            side = acting_side(state)
            assert side is not None
            command, options = slash_of(GreedyPlayer().choose(state, rng), state)
            actions = await _actions(world, game)
            boards = _boards(world, thread)
            inject()
            interaction = await world.standin.slash(users[side], thread, command, options)
            try:
                await interaction.wait_done(timeout=40)
            except TimeoutError:
                tally["unanswered"] += 1
                continue
            answer = reply_text(interaction)
            if "went wrong" in answer or "error id" in answer:
                tally["unanswered"] += 1
            waited = interaction.responded_at - interaction.dispatched_at
            tally["late"] += waited >= 3.0
            if name.startswith("slow post"):  # far too slow to answer in the callback
                assert interaction.responses[0]["type"] == DEFERRED, name
            # Each fault met the move it was meant for, not a later one.
            tally["fault unmet"] += any(f.hits < (f.times or 1) for f in faults.rules)
            faults.clear()
            made = await _actions(world, game) - actions
            tally["lost"] += made == 0
            tally["doubled"] += made > 1 or _boards(world, thread) - boards > 1
            # The post pings at most the player who acts next, never the one who moved.
            post = [m for m in world.public(thread) if _is_board(world, m)][-1]
            assert world.standin.pinged(post) <= {world.alice, world.bob} - {users[side]}
            slowest = max(slowest, time.perf_counter() - interaction.dispatched_at)
            print(f"{name}: {command} answered {waited:.2f} s, done; {made} action(s)")
        assert tally == {
            "lost": 0,
            "doubled": 0,
            "unanswered": 0,
            "late": 0,
            "fault unmet": 0,
        }, tally
        # Every fault was met, and the slow one outlived the 3 s an answer may take.
        assert faults.count(429) >= 6 and faults.count(503) >= 5, faults.answered
        assert faults.count(500) == 2 and faults.count(502) == 1 and slowest > 4.0
        callbacks = [path for _, path, _ in faults.answered if path.endswith("/callback")]
        assert len(callbacks) >= 4, faults.answered
        print(f"faults answered: {len(faults.answered)}; tally {tally}")
    finally:
        await world.close()


async def _actions(world: World, game: int) -> int:
    service = await world.oracle()
    log = await service.game_log(game)
    return sum(1 for line in log if line.kind == records.ACTION and not line.undone)


def _is_board(world: World, message: Message) -> bool:
    return message.author_id == world.standin.bot_user_id and any(
        a.filename == "board.png" for a in message.attachments
    )


def _boards(world: World, thread: int) -> int:
    """The bot's posts with a board image in the thread."""
    return sum(1 for m in world.public(thread) if _is_board(world, m))


async def test_a_post_refused_three_times_is_reported_and_the_move_kept(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        thread, game = await ready_game(world, world.text)
        state = (await world.status(game)).state
        assert state is not None
        side = acting_side(state)
        assert side is not None
        command, options = slash_of(GreedyPlayer().choose(state, random.Random(1)), state)
        actions = await _actions(world, game)
        world.standin.faults.server_error("POST", POSTS, status=503, times=3)
        user = world.alice if side is Side.SOUTH else world.bob
        done = await world.slash(user, thread, command, options)
        # The player learns the command was made and how to see the game; nothing doubled.
        assert "Discord would not take my post" in reply_text(done) and "503" in reply_text(done)
        assert await _actions(world, game) == actions + 1
        assert world.standin.faults.count(503) == 3
    finally:
        await world.close()


async def test_the_play_the_bot_button_brings_the_bot_in_with_one_post(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        await world.slash(world.alice, world.text, "vl new", {"points": 500})
        thread = int(world.standin.threads_of(world.text)[0]["id"])
        lobby = next(m for m in world.public(thread) if any("vl:bot:" in c for c in m.custom_ids()))
        button = next(c for c in lobby.custom_ids() if c.startswith("vl:bot:"))
        posts = len(world.public(thread))
        pressed = await world.standin.click(world.alice, lobby, button)
        await pressed.wait_done(timeout=30)
        assert "went wrong" not in reply_text(pressed)
        status = await world.status(await game_of(world, thread))
        assert len(status.players) == 2
        joined = world.public(thread)[posts:]
        assert [m for m in joined if "North" in m.content], [m.content for m in joined]
    finally:
        await world.close()


def test_the_harness_hears_errors_and_tracebacks_and_only_declared_ones_pass(
    tmp_path: Path,
) -> None:
    log = tmp_path / "bot.log"
    log.write_text(
        'Traceback (most recent call last):\n  File "x", line 1\nValueError: before logging\n'
        "2026-01-01 12:00:00,000 INFO discord.client: logging in\n"
        "2026-01-01 12:00:01,000 WARNING discord.http: We are being rate limited.\n"
        "2026-01-01 12:00:02,000 ERROR vahalite_bot.discord.tree: error ab12 in interaction 7\n"
        'Traceback (most recent call last):\n  File "y", line 2\n'
        "discord.errors.HTTPException: 400 Bad Request (error code: 50006)\n"
        "2026-01-01 12:00:03,000 WARNING vahalite_bot.discord.tree: could not answer 8\n"
        "Traceback (most recent call last):\nKeyError: 'x'\n"
        "2026-01-01 12:00:04,000 INFO vahalite_bot.discord: connected\n"
    )
    process = BotProcess(tmp_path / "config.toml")
    found = process.errors()
    assert [e.splitlines()[-1] for e in found] == [
        "ValueError: before logging",
        "discord.errors.HTTPException: 400 Bad Request (error code: 50006)",
        "KeyError: 'x'",
    ]
    assert len(process.errors(expected=["error code: 50006"])) == 2
    assert process.errors(expected=["before logging", "50006", "KeyError"]) == []


async def test_army_forms_are_answered_whoever_opened_them_and_across_a_restart(
    tmp_path: Path,
) -> None:
    """Both players open the army form of one game (one custom id for both) and Alice's bot
    is restarted before she sends hers: every submission is answered and counted. discord.py
    alone keeps one form per custom id and only from the moment Discord took it."""
    world = await make_world(tmp_path)
    try:
        await world.slash(world.alice, world.text, "vl new", {"points": 500})
        thread = int(world.standin.threads_of(world.text)[0]["id"])
        game = await game_of(world, thread)
        await world.slash(world.bob, thread, "vl join")
        factions = codex_factions()
        forms: dict[int, str] = {}
        for user in (world.alice, world.bob):
            asked = await world.standin.slash(user, thread, "vl army", {})
            forms[user] = (await asked.wait_response(timeout=30))["data"]["custom_id"]
        await world.restart_bot()
        for user, faction in ((world.bob, "orks"), (world.alice, "space_marines")):
            listing = format_army(Army.ready_made(factions[faction], "500"), factions, "en")
            sent = await world.standin.submit_modal(user, thread, forms[user], {"list": listing})
            await sent.wait_done(timeout=30)
            assert "500" in reply_text(sent), reply_text(sent)
        status = await world.status(game)
        assert status.status != "lobby" and status.state is not None
    finally:
        await world.close()
