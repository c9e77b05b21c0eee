"""A complete game on Discord, end to end: the real bot (its own process, started as in
production) against the local stand-in of Discord, two players acting as people do.

The lobby in a forum post, one army pasted in a modal and one ready-made, every setup step,
then the game to its end: half the turns by slash commands, half by text orders in Russian;
shooting, melee, a transport, an undo with the opponent's consent; the bot killed with
SIGKILL mid-game and started again, the buttons of old messages still answering. What the
bot posted is read back: the text, the PNG boards, the pinned status, the mentions.
"""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

from PIL import Image

from tests.discord_moves import boards, choose, russian_of, slash_of
from tests.discord_world import World, make_world, png_size
from tests.standin.interactions import DEFERRED_MESSAGE
from vahalite_bot.app.results import ENDED
from vahalite_bot.codex.army import Army
from vahalite_bot.codex.armylist import format_army
from vahalite_bot.codex.loader import codex_factions
from vahalite_bot.rules.actions import Attack, EndTurn, Move
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.verify import check_text

MAX_ACTIONS = 400


async def test_a_whole_game_on_discord(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        thread, game = await _lobby(world)
        await _armies(world, thread, game)
        seen = await _play(world, thread, game)
        final = await world.status(game)
        assert final.status == ENDED
        # The last post answered the last command; the tag and the archive follow it.
        await world.standin.wait_for(lambda: world.standin.channel(thread)["archived"], 30)
        # Everything a full game should have gone through, through Discord.
        assert seen["slash"] > 10 and seen["text"] > 5, seen
        assert seen["text turns"] >= 2 and abs(seen["slash turns"] - seen["text turns"]) <= 1
        assert seen["embark"] and seen["disembark"], seen
        assert seen["undo"] and seen["restart"] and seen["melee"] and seen["ranged"], seen
        _check_posts(world, thread, final)
    finally:
        await world.close()


async def _lobby(world: World) -> tuple[int, int]:
    standin = world.standin
    interaction = await world.slash(
        world.alice, world.forum, "vl new", {"points": 500, "word": "apple"}
    )
    assert interaction.ephemeral
    posts = standin.threads_of(world.forum)
    assert len(posts) == 1
    thread = int(posts[0]["id"])
    status = await world.status(game := 1)
    assert status.channel == str(thread) and status.points_limit == 500
    lobby = world.public(thread)[0]
    # The lobby names the creator, the points and the published dice hash, with a Join button.
    assert status.commitment in lobby.content and "500" in lobby.content
    assert f"<@{world.alice}>" in lobby.content
    join = next(c for c in lobby.custom_ids() if c.startswith("vl:join:"))
    tags = {t["id"]: t["name"] for t in standin.channel(world.forum)["available_tags"]}
    assert [tags[t] for t in standin.channel(thread)["applied_tags"]] == ["Seeking an opponent"]
    # Bob joins with the button.
    pressed = await standin.click(world.bob, lobby, join)
    await pressed.wait_done(timeout=30)
    status = await world.status(game)
    assert {p.side: p.user for p in status.players} == {
        Side.SOUTH: str(world.alice),
        Side.NORTH: str(world.bob),
    }
    return thread, game


async def _armies(world: World, thread: int, game: int) -> None:
    standin = world.standin
    factions = codex_factions()
    # Alice pastes her list in the modal.
    asked = await standin.slash(world.alice, thread, "vl army", {})
    modal = await asked.wait_response(timeout=30)
    assert modal["type"] == 9, modal
    listing = format_army(Army.ready_made(factions["space_marines"], "500"), factions, "en")
    sent = await standin.submit_modal(
        world.alice, thread, modal["data"]["custom_id"], {"list": listing}
    )
    await sent.wait_done(timeout=30)
    # Bob picks a ready-made list, offered by autocomplete.
    offered = await standin.autocomplete(world.bob, thread, "vl army", {"faction": "or"}, "faction")
    assert [c["value"] for c in offered] == ["orks"]
    await world.slash(world.bob, thread, "vl army", {"faction": "orks"})
    status = await world.status(game)
    assert status.status != "lobby" and status.state is not None
    tags = {t["id"]: t["name"] for t in standin.channel(world.forum)["available_tags"]}
    assert [tags[t] for t in standin.channel(thread)["applied_tags"]] == ["Playing"]


async def _play(world: World, thread: int, game: int) -> dict[str, Any]:
    rng = random.Random(11)
    wanted = {"embarked": False, "disembarked": False}
    seen: dict[str, Any] = dict.fromkeys(
        (
            "slash",
            "text",
            "slash turns",
            "text turns",
            "embark",
            "disembark",
            "undo",
            "restart",
            "melee",
            "ranged",
        ),
        0,
    )
    users = {Side.SOUTH: world.alice, Side.NORTH: world.bob}
    turns = 0
    for _ in range(MAX_ACTIONS):
        status = await world.status(game)
        if status.status == ENDED:
            return seen
        state = status.state
        assert state is not None
        side = acting_side(state)
        assert side is not None
        if state.phase is Phase.PLAYING and state.round == 3 and not seen["restart"]:
            await _restart(world, thread, game)
            seen["restart"] = 1
            continue
        action = choose(state, rng, wanted)
        if isinstance(action, Move):
            if state.units[action.unit].embarked_in is not None:
                seen["disembark"] += 1
            elif boards(state, action.unit, action.path[-1]):
                seen["embark"] += 1
        if isinstance(action, Attack):
            seen["melee" if action.melee else "ranged"] += 1
        by_text = state.phase is Phase.PLAYING and turns % 2 == 1
        before = len(world.public(thread))
        answered = None
        if by_text:
            sent = await world.standin.post(users[side], thread, russian_of(action, state))
            seen["text"] += 1
            post = await world.next_public(thread, before, _replying_to(sent.id))
        else:
            command, options = slash_of(action, state)
            answered = await world.slash(users[side], thread, command, options)
            seen["slash"] += 1
            # The answer may come before the last command's recap: the board is this one's.
            post = await world.next_public(thread, before, _board_by_bot(world))
        if answered is not None and answered.responses[0]["type"] != DEFERRED_MESSAGE:
            # The post with the board is the command's answer (a command deferred as slow is
            # answered ephemerally, its post sent to the channel).
            (answer,) = answered.answered() or []
            assert not answer.ephemeral and answer.interaction_id == answered.id, answer
            assert any(a.filename == "board.png" for a in answer.attachments), answer
        after = await world.status(game)
        assert after.version > status.version, (action, post.content)
        if isinstance(action, Attack) and not seen["undo"] and not by_text:
            await _undo_with_consent(world, thread, game, side, users)
            seen["undo"] = 1
            await _redo(world, thread, game, action, users[side])
        if isinstance(action, EndTurn):
            seen["text turns" if by_text else "slash turns"] += 1
            turns += 1
    raise AssertionError("the game did not end")


def _replying_to(message_id: int) -> Any:
    return lambda message: message.reference_id == message_id


def _board_by_bot(world: World) -> Any:
    bot = world.standin.bot_user_id
    return lambda m: m.author_id == bot and any(a.filename == "board.png" for a in m.attachments)


async def _undo_with_consent(
    world: World, thread: int, game: int, side: Side, users: dict[Side, int]
) -> None:
    """Dice were rolled: the undo is asked, the opponent presses Accept, the attack is gone."""
    attacked = await world.status(game)
    before = len(world.public(thread))
    await world.slash(users[side], thread, "vl undo")
    question = await world.next_public(thread, before, lambda m: bool(m.custom_ids()))
    accept = next(c for c in question.custom_ids() if c.startswith("vl:ua:"))
    assert f"<@{users[side.other]}>" in question.content
    assert [int(u) for u in question.allowed_mentions["users"]] == [users[side.other]]
    # The asker may not answer their own request.
    own = await world.standin.click(users[side], question, accept)
    assert "your own" in (await own.wait_done(timeout=30))[0].content
    pressed = await world.standin.click(users[side.other], question, accept)
    await pressed.wait_done(timeout=30)
    undone = await world.status(game)
    assert undone.version > attacked.version
    log = await (await world.oracle()).game_log(game)
    assert log[-1].kind == "undo" or any(line.undone for line in log)


async def _redo(world: World, thread: int, game: int, action: Attack, user: int) -> None:
    state = (await world.status(game)).state
    assert state is not None
    command, options = slash_of(action, state)
    await world.slash(user, thread, command, options)


async def _restart(world: World, thread: int, game: int) -> None:
    """SIGKILL mid-game, start again; old buttons still answer (a stale one says so)."""
    old = next(
        m for m in world.public(thread) if any(c.startswith("vl:end:") for c in m.custom_ids())
    )
    version = (await world.status(game)).version
    await world.restart_bot()
    assert (await world.status(game)).version == version  # nothing lost, nothing added
    board = next(c for c in old.custom_ids() if c.startswith("vl:board:"))
    pressed = await world.standin.click(world.carol, old, board)
    shown = await pressed.wait_done(timeout=30)
    assert any(a.filename.endswith(".png") for m in shown for a in m.attachments)
    end = next(c for c in old.custom_ids() if c.startswith("vl:end:"))
    state = (await world.status(game)).state
    assert state is not None and state.active is not None
    player = world.alice if state.active is Side.SOUTH else world.bob
    stale = await world.standin.click(player, old, end)
    told = await stale.wait_done(timeout=30)
    assert "moved on" in told[0].content
    assert (await world.status(game)).version == version  # the stale press changed nothing


def _check_posts(world: World, thread: int, final: Any) -> None:
    posts = [m for m in world.public(thread) if m.author_id == world.standin.bot_user_id]
    boards = [a for m in posts for a in m.attachments if a.filename.endswith(".png")]
    assert len(boards) > 20
    width, height = png_size(boards[-1].data)
    assert width >= 600 and height >= 600
    # No post may ping anyone but the player it names as next (or nobody).
    for message in posts:
        allowed = message.allowed_mentions or {}
        assert not allowed.get("parse"), message.content
        assert len(allowed.get("users", [])) <= 1
    # Each turn starts with a recap of the opponent's whole turn: text and one image.
    recaps = [m for m in posts if "while you were away" in m.content]
    assert len(recaps) >= 4
    assert all(a.filename == "turn.png" for m in recaps for a in m.attachments)
    assert any("destroyed" in m.content for m in recaps)
    assert any("VP" in m.content for m in recaps)
    # The pinned status is the bot's, edited in place to the end.
    pins = world.standin.pins(thread)
    assert len(pins) == 1 and pins[0].author_id == world.standin.bot_user_id
    assert f"#{final.game_id}" in pins[0].content
    tags = {t["id"]: t["name"] for t in world.standin.channel(world.forum)["available_tags"]}
    assert [tags[t] for t in world.standin.channel(thread)["applied_tags"]] == ["Finished"]
    # K2: the seed is revealed in the last post, with the log that verifies every die.
    last = next(m for m in reversed(posts) if "seed" in m.content.lower())
    log = next(a for a in last.attachments if a.filename.endswith(".jsonl"))
    report = check_text(log.data.decode("utf-8"))
    assert report.verified and len(report.dice) > 50, report.problems
    # K2: Alice's own word and one the bot drew for Bob, both mixed into the dice.
    assert report.words.get("south") == "apple" and len(report.words.get("north", "")) == 8
    replay = next(a for a in last.attachments if a.filename.endswith(".gif"))
    assert len(replay.data) <= 10 * 1024 * 1024
    animation = Image.open(io.BytesIO(replay.data))
    assert animation.format == "GIF" and animation.n_frames > 20
    assert world.standin.channel(thread)["archived"]
