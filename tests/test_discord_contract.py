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
from functools import partial
from pathlib import Path

import pytest

from tests.botproc import BotProcess
from tests.discord_moves import russian_of, slash_of
from tests.discord_world import World, game_of, make_world, play_until, ready_game, reply_text
from tests.standin import Interaction, Message
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
    the player answered, and the first answer always within 3 s. A slash command's post is
    its answer (the callback's faults); a text order's post is a message in the channel
    (the faults of that route)."""
    world = await make_world(tmp_path)
    try:
        thread, game = await ready_game(world, world.text)
        await play_until(world, thread, game, Phase.PLAYING)
        faults = world.standin.faults
        fail, lose = faults.server_error, faults.lost
        plan: list[tuple[str, str, Callable[[], object]]] = [
            (
                "429 on posts, twice",
                "text",
                lambda: faults.rate_limit("POST", POSTS, retry_after=0.5, times=2),
            ),
            (
                "global 429",
                "text",
                lambda: faults.rate_limit("POST", POSTS, retry_after=0.4, scope="global"),
            ),
            (
                "shared 429",
                "text",
                lambda: faults.rate_limit("POST", POSTS, retry_after=0.3, scope="shared"),
            ),
            ("500", "text", lambda: faults.server_error("POST", POSTS, status=500)),
            ("502", "text", lambda: faults.server_error("POST", POSTS, status=502)),
            ("503", "text", lambda: faults.server_error("POST", POSTS, status=503)),
            ("503 twice", "text", lambda: faults.server_error("POST", POSTS, status=503, times=2)),
            ("slow post, 4 s", "text", lambda: faults.slow("POST", POSTS, 4.0)),
            (
                "429 on the callback",
                "slash",
                lambda: faults.rate_limit("POST", CALLBACKS, retry_after=0.3),
            ),
            ("500 on the callback", "slash", lambda: fail("POST", CALLBACKS, status=500)),
            ("503 on the callback", "slash", lambda: fail("POST", CALLBACKS, status=503)),
            ("callback made, 500 back", "slash", lambda: lose("POST", CALLBACKS, status=500)),
            ("slow callback, 1 s", "slash", lambda: faults.slow("POST", CALLBACKS, 1.0)),
            ("none", "slash", lambda: None),
            ("none", "text", lambda: None),
        ]
        users = {Side.SOUTH: world.alice, Side.NORTH: world.bob}
        rng = random.Random(11)
        tally = {"lost": 0, "doubled": 0, "unanswered": 0, "late": 0, "fault unmet": 0}
        slowest = 0.0
        for name, kind, inject in plan:
            state = (await world.status(game)).state
            assert state is not None and state.phase is Phase.PLAYING, name
            side = acting_side(state)
            assert side is not None
            action = GreedyPlayer().choose(state, rng)
            actions = await _actions(world, game)
            boards = _boards(world, thread)
            inject()
            if kind == "text":
                sent = await world.standin.post(users[side], thread, russian_of(action, state))
                started = sent.created_at
                try:
                    await world.standin.wait_for(partial(_replies, world, thread, sent.id), 40)
                except TimeoutError:
                    tally["unanswered"] += 1
                    continue
            else:
                command, options = slash_of(action, state)
                interaction = await world.standin.slash(users[side], thread, command, options)
                started = interaction.dispatched_at
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
            await asyncio.sleep(1.5)  # a retry that came back "answered already" is done
            # Each fault met the move it was meant for, not a later one.
            tally["fault unmet"] += any(f.hits < (f.times or 1) for f in faults.rules)
            faults.clear()
            made = await _actions(world, game) - actions
            tally["lost"] += made == 0
            tally["doubled"] += made > 1 or _boards(world, thread) - boards > 1
            # The post pings at most the player who acts next, never the one who moved.
            post = [m for m in world.public(thread) if _is_board(world, m)][-1]
            assert world.standin.pinged(post) <= {world.alice, world.bob} - {users[side]}
            slowest = max(slowest, time.perf_counter() - started)
            print(f"{name}: {kind} {action} posted; {made} action(s)")
        assert tally == {
            "lost": 0,
            "doubled": 0,
            "unanswered": 0,
            "late": 0,
            "fault unmet": 0,
        }, tally
        # Every fault was met, and the slow one outlived the 3 s an answer may take.
        assert faults.count(429) >= 5 and faults.count(503) >= 4, faults.answered
        assert faults.count(500) == 3 and faults.count(502) == 1 and slowest > 4.0
        callbacks = [path for _, path, _ in faults.answered if path.endswith("/callback")]
        assert len(callbacks) >= 5, faults.answered
        print(f"faults answered: {len(faults.answered)}; tally {tally}")
    finally:
        await world.close()


def _replies(world: World, thread: int, message: int) -> list[Message]:
    """The bot's board posts that reply to ``message`` (a text order)."""
    return [m for m in world.public(thread) if _is_board(world, m) and m.reference_id == message]


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


async def test_a_post_refused_three_times_is_reported_and_the_change_kept(
    tmp_path: Path,
) -> None:
    """A slow command (here its "joined" message takes 2 s) is deferred and its post goes
    to the channel; Discord refuses that post three times: the player learns (by a followup,
    through a 429) that the change was made and how to see the game."""
    world = await make_world(tmp_path)
    try:
        await world.slash(world.alice, world.text, "vl new", {"points": 500})
        thread = int(world.standin.threads_of(world.text)[0]["id"])
        game = await game_of(world, thread)
        faults = world.standin.faults
        faults.slow("POST", POSTS, 2.0)
        faults.server_error("POST", POSTS, status=503, times=3)
        faults.rate_limit("POST", ANSWERS, retry_after=0.3)  # the followup that tells it
        done = await world.slash(world.bob, thread, "vl join")
        assert done.responses[0]["type"] == DEFERRED
        assert "Discord would not take my post" in reply_text(done) and "503" in reply_text(done)
        assert done.ephemeral
        assert len((await world.status(game)).players) == 2
        assert faults.count(503) == 3 and faults.count(429) == 1
    finally:
        await world.close()


def _mover(world: World, side: Side) -> int:
    return world.alice if side is Side.SOUTH else world.bob


async def _board_posts(world: World, thread: int, count: int) -> list[Message]:
    """Once the thread holds ``count`` board posts, all of them."""
    await world.standin.wait_for(lambda: _boards(world, thread) >= count, 30)
    return [m for m in world.public(thread) if _is_board(world, m)]


async def test_a_command_and_a_button_are_answered_by_their_post(tmp_path: Path) -> None:
    """The public post (the board, the buttons, the ping of whoever acts next) is the
    interaction's own answer: no ephemeral "done", no message of its own in the channel.
    A command deferred as slow (a loaded machine) is the one exception, and is skipped."""
    world = await make_world(tmp_path)
    try:
        thread, game = await ready_game(world, world.text)
        await play_until(world, thread, game, Phase.PLAYING)
        rng = random.Random(5)
        answered = 0
        for step in range(4):
            state = (await world.status(game)).state
            assert state is not None
            side = acting_side(state)
            assert side is not None
            boards = _boards(world, thread)
            if step < 3:
                command, options = slash_of(GreedyPlayer().choose(state, rng), state)
                interaction = await world.slash(_mover(world, side), thread, command, options)
            else:  # the End turn button under the last post
                last = (await _board_posts(world, thread, boards))[-1]
                end = next(c for c in last.custom_ids() if c.startswith("vl:end:"))
                interaction = await world.standin.click(_mover(world, side), last, end)
                await interaction.wait_done(timeout=30)
            post = (await _board_posts(world, thread, boards + 1))[-1]
            if interaction.responses[0]["type"] == DEFERRED:
                continue
            answered += 1
            assert interaction.answered() == [post] and len(interaction.responses) == 1
            assert not interaction.ephemeral and not interaction.followups
            assert post.interaction_id == interaction.id and post.custom_ids()
            status = await world.status(game)
            nxt = int(status.acting_user or 0)
            wanted = set() if nxt == _mover(world, side) else {nxt}
            assert world.standin.pinged(post) == wanted, (post.content, wanted)
        assert answered >= 1
        assert _boards(world, thread) >= 4 and world.standin.pinged(post) == {
            world.alice,
            world.bob,
        } - {_mover(world, side)}  # the button ended the turn: the other player is pinged
    finally:
        await world.close()


async def _one_command(world: World, thread: int, game: int) -> tuple[int, Interaction]:
    """The acting player's next greedy command: (its user, the interaction, not awaited)."""
    state = (await world.status(game)).state
    assert state is not None
    side = acting_side(state)
    assert side is not None
    command, options = slash_of(GreedyPlayer().choose(state, random.Random(2)), state)
    user = _mover(world, side)
    return user, await world.standin.slash(user, thread, command, options)


def _callback_refusals(world: World) -> list[int]:
    return [e.code for _, path, e in world.standin.refusals if path.endswith("/callback")]


async def _one_more_and_nothing_twice(
    world: World, thread: int, game: int, actions: int, boards: int
) -> None:
    """The next command is answered as usual, and of the two, nothing came twice."""
    _, following = await _one_command(world, thread, game)
    await following.wait_done(timeout=30)
    await _board_posts(world, thread, boards + 2)
    assert await _actions(world, game) == actions + 2
    assert _boards(world, thread) == boards + 2


async def test_a_post_whose_answer_came_too_late_reaches_the_channel_once(
    tmp_path: Path,
) -> None:
    """Discord refuses the answer (10062: its 3 s passed, here the callback is that slow):
    the change is made, so the post goes to the channel, once, pinging the same player."""
    world = await make_world(tmp_path)
    try:
        thread, game = await ready_game(world, world.text)
        await play_until(world, thread, game, Phase.PLAYING)
        actions, boards = await _actions(world, game), _boards(world, thread)
        world.standin.faults.slow("POST", CALLBACKS, 3.2)
        user, late = await _one_command(world, thread, game)
        post = (await _board_posts(world, thread, boards + 1))[-1]
        assert post.interaction_id is None and not late.responses  # never answered
        assert _callback_refusals(world) == [10062]
        nxt = int((await world.status(game)).acting_user or 0)
        assert world.standin.pinged(post) == (set() if nxt == user else {nxt})
        await _one_more_and_nothing_twice(world, thread, game, actions, boards)
    finally:
        await world.close()


@pytest.mark.parametrize(("retry_delay", "refused"), [(0.0, 40060), (3.2, 10062)])
async def test_an_answer_lost_on_its_way_back_is_not_posted_again(
    tmp_path: Path, retry_delay: float, refused: int
) -> None:
    """Discord made the answer but its reply was lost (a 500): discord.py tries again and
    hears "answered already" (40060), or, when that second try lands after the
    interaction's 3 s, "unknown interaction" (10062) as a command never answered would; the
    bot finds its post as the original either way and sends no other."""
    world = await make_world(tmp_path)
    try:
        thread, game = await ready_game(world, world.text)
        await play_until(world, thread, game, Phase.PLAYING)
        actions, boards = await _actions(world, game), _boards(world, thread)
        world.standin.faults.lost("POST", CALLBACKS, status=500)
        if retry_delay:
            world.standin.faults.slow("POST", CALLBACKS, retry_delay, after=1)  # the second try
        _, lost = await _one_command(world, thread, game)
        (post,) = await lost.wait_done(timeout=30)
        assert _is_board(world, post) and not lost.ephemeral
        # discord.py's second try, once the 500 came back:
        await world.standin.wait_for(lambda: bool(_callback_refusals(world)), 30)
        assert _callback_refusals(world) == [refused] and world.standin.faults.count(500) == 1
        await _one_more_and_nothing_twice(world, thread, game, actions, boards)
    finally:
        await world.close()


async def test_a_button_pressed_in_a_thread_archived_meanwhile_reopens_it_with_its_answer(
    tmp_path: Path,
) -> None:
    """A week without a move and Discord archived the thread; a player presses End turn on
    the last post (the desktop client sends it as it is). The answer, a message in the
    thread, reopens it as a post would, so the pinned status can be edited after it: the
    turn is ended once, and nothing is refused."""
    world = await make_world(tmp_path)
    try:
        thread, game = await ready_game(world, world.text)
        await play_until(world, thread, game, Phase.PLAYING)
        actions, boards = await _actions(world, game), _boards(world, thread)
        state = (await world.status(game)).state
        assert state is not None
        side = acting_side(state)
        assert side is not None
        last = (await _board_posts(world, thread, boards))[-1]
        end = next(c for c in last.custom_ids() if c.startswith("vl:end:"))
        # The last command started a turn: its recap, a post of its own, comes after its
        # answer and would reopen the thread itself.
        await world.standin.wait_for(partial(_recap_after, world, thread, last), 30)
        (pin,) = world.standin.pins(thread)
        before = pin.content
        world.standin.archive_thread(thread)
        pressed = await world.standin.click(_mover(world, side), last, end)
        await pressed.wait_done(timeout=30)
        assert world.standin.channel(thread)["archived"] is False
        await world.standin.wait_for(lambda: world.standin.pins(thread)[0].content != before, 30)
        assert not world.standin.refusals and "went wrong" not in reply_text(pressed)
        ended = (await world.status(game)).state
        assert ended is not None and ended.active is side.other
        await _one_more_and_nothing_twice(world, thread, game, actions, boards)
    finally:
        await world.close()


def _recap_after(world: World, thread: int, post: Message) -> bool:
    """A turn's recap (its image) is in the thread after ``post``."""
    return any(
        a.filename == "turn.png"
        for m in world.public(thread)
        if m.id > post.id
        for a in m.attachments
    )


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
