"""The Discord bot's refusals and edges, end to end through the stand-in: who may act, stale
buttons, autocomplete against the engine, missing permissions, a bot without the
message-content intent, a bad token, the practice opponent, chat that is not an order."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

from tests.botproc import BotProcess, write_config
from tests.discord_moves import slash_of
from tests.discord_world import World, game_of, make_world, play_until, reply_text
from tests.discord_world import ready_game as _ready_game
from tests.standin import StandIn
from vahalite_bot.app.results import ENDED
from vahalite_bot.discord import choices
from vahalite_bot.orders import parse_line, resolve
from vahalite_bot.rules import combat, movement
from vahalite_bot.rules.queries import is_legal
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase
from vahalite_bot.selfplay.greedy import GreedyPlayer

ATTACH_FILES = 1 << 15
MANAGE_MESSAGES = 1 << 13
PIN_MESSAGES = 1 << 51


async def test_who_may_act_and_what_is_refused(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        thread, game = await _ready_game(world, world.text)
        await play_until(world, thread, game, Phase.PLAYING)
        status = await world.status(game)
        state = status.state
        assert state is not None and state.active is not None
        mover = world.alice if state.active is Side.SOUTH else world.bob
        waiter = world.bob if mover == world.alice else world.alice
        unit = next(u for u in state.living(state.active) if movement.reachable(state, u))
        cell = next(iter(movement.reachable(state, unit)))
        # A spectator may read, but not act; the other player may not act on this turn.
        refused = await world.slash(
            world.carol, thread, "vl move", {"unit": unit.id, "cell": cell.name}
        )
        assert refused.ephemeral and "not playing" in reply_text(refused)
        wrong = await world.slash(waiter, thread, "vl end")
        assert wrong.ephemeral and "Done" not in reply_text(wrong)
        # Issue 22: no hint in a game between two people, even on one's own turn.
        hint = await world.slash(mover, thread, "vl odds", {"best": True})
        assert hint.ephemeral and "only given in a game against the bot" in reply_text(hint)
        # Neither units nor ``best``: what to type instead.
        bare = await world.slash(mover, thread, "vl odds", locale="ru")
        assert bare.ephemeral and "/vl шансы отряд: tac1 цель: kab1" in reply_text(bare)
        board = await world.slash(world.carol, thread, "vl board")
        assert any(
            a.filename.endswith(".png") for m in await board.wait_done() for a in m.attachments
        )
        # A cell off the board says what to type instead; a Russian client reads Russian.
        off = await world.slash(
            mover, thread, "vl move", {"unit": unit.id, "cell": "Z9"}, locale="ru"
        )
        assert "например C4" in reply_text(off)
        # None of it changed the game.
        assert (await world.status(game)).version == status.version
        # Outside a game's thread: told where to go.
        lost = await world.slash(world.alice, world.text, "vl status")
        assert "/vl new" in reply_text(lost)
        # Chat that is not an order is left alone; a line that looks like one gets an answer.
        chat = len(world.public(thread))
        await world.standin.post(mover, thread, "good luck, have fun")
        await world.standin.post(world.carol, thread, f"{unit.id} {cell.name}")  # not a player
        await asyncio.sleep(1.0)
        assert len(world.public(thread)) == chat + 2  # only the two posts themselves
        await world.standin.post(waiter, thread, f"{unit.id} {cell.name}")
        reply = await world.next_public(thread, chat + 3)
        assert reply.author_id == world.standin.bot_user_id and "✗" in reply.content
        assert (await world.status(game)).version == status.version
    finally:
        await world.close()


async def test_autocomplete_answers_from_the_engine(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        thread, game = await _ready_game(world, world.text)
        await play_until(world, thread, game, Phase.PLAYING)
        state = (await world.status(game)).state
        assert state is not None and state.active is not None
        mover = world.alice if state.active is Side.SOUTH else world.bob
        units = await world.standin.autocomplete(mover, thread, "vl move", {"unit": ""}, "unit")
        assert {c["value"] for c in units} == set(choices.acting_units(state, state.active))
        assert len(units) <= 25
        for offered in units[:3]:
            unit = state.units[offered["value"]]
            cells = await world.standin.autocomplete(
                mover, thread, "vl move", {"unit": unit.id, "cell": ""}, "cell"
            )
            assert {c["value"] for c in cells} == {c.name for c in movement.reachable(state, unit)}
        # Targets carry the engine's exact odds, best first.
        attacker = next(
            (u for u in state.living(state.active) if combat.attack_options(state, u)), None
        )
        if attacker is not None:
            targets = await world.standin.autocomplete(
                mover, thread, "vl attack", {"unit": attacker.id, "target": ""}, "target"
            )
            legal = {o.target for o in combat.attack_options(state, attacker)}
            assert {c["value"] for c in targets} == legal
            assert all("%" in c["name"] and "dice" in c["name"] for c in targets)
        # The other player, and a spectator, are offered nothing to act with.
        waiter = world.bob if mover == world.alice else world.alice
        assert (
            await world.standin.autocomplete(waiter, thread, "vl move", {"unit": ""}, "unit") == []
        )
        assert (
            await world.standin.autocomplete(world.carol, thread, "vl move", {"unit": ""}, "unit")
            == []
        )
        rules = await world.standin.autocomplete(mover, thread, "vl rule", {"id": "E"}, "id")
        assert rules and all(c["value"].startswith("E") for c in rules)
    finally:
        await world.close()


async def test_missing_permissions_the_game_goes_on_inreply_text(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        world.standin.deny_bot(world.text, ATTACH_FILES | MANAGE_MESSAGES | PIN_MESSAGES)
        thread, game = await _ready_game(world, world.text)
        await play_until(world, thread, game, Phase.TERRAIN)
        posts = [m for m in world.public(thread) if m.author_id == world.standin.bot_user_id]
        assert not any(m.attachments for m in posts)
        warnings = [m for m in posts if "Attach Files" in m.content]
        assert len(warnings) == 1  # told once
        assert sum("Pin Messages" in m.content for m in posts) == 1
        assert any("```" in m.content for m in posts)  # the board as text
        assert world.standin.pins(thread) == []
    finally:
        await world.close()


async def test_without_the_message_content_intent_slash_commands_work(tmp_path: Path) -> None:
    world = await make_world(tmp_path, standin={"message_content_allowed": False})
    try:
        helped = await world.slash(world.alice, world.text, "vl help")
        assert "Text orders are off" in reply_text(helped)
        thread, game = await _ready_game(world, world.text)
        status = await world.status(game)
        assert status.state is not None
        count = len(world.public(thread))
        await world.standin.post(world.alice, thread, "конец")
        await asyncio.sleep(1.0)
        assert len(world.public(thread)) == count + 1  # read as empty: no answer
        assert "message-content intent" in world.bot.output()
    finally:
        await world.close()


async def practise(world: World, options: dict[str, object], rounds: int) -> tuple[int, int]:
    """A practice game opened with ``options``; Alice plays greedily, the bot answers in the
    thread by itself, until the game ends or reaches round ``rounds + 1``."""
    made = await world.slash(world.alice, world.text, "vl new", {"points": 500, **options})
    thread = int(world.standin.threads_of(world.text)[0]["id"])
    game = await game_of(world, thread)
    # The creator is told where the game is, and the thread says the bot has joined.
    assert f"<#{thread}>" in reply_text(made)
    assert any("North" in m.content for m in world.public(thread))
    await world.slash(world.alice, thread, "vl army", {"faction": "space_marines"})
    rng = random.Random(5)
    for _ in range(300):
        status = await world.status(game)
        state = status.state
        assert state is not None
        if status.status == ENDED or state.round > rounds:
            break
        if status.acting_user != str(world.alice):
            await asyncio.sleep(0.05)
            continue
        command, given = slash_of(GreedyPlayer().choose(state, rng), state)
        await world.slash(world.alice, thread, command, given)
    return thread, game


async def test_practice_against_the_bot(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        thread, game = await practise(world, {"opponent": "bot"}, rounds=99)
        assert (await world.status(game)).status == ENDED
        bot_posts = [
            m
            for m in world.public(thread)
            if m.author_id == world.standin.bot_user_id and "🤖" in m.content
        ]
        assert len(bot_posts) >= 6 and any(m.attachments for m in bot_posts)
        # Issue 22: only the search player has reasons to give; the normal bot gives none.
        assert not any("The bot's thought" in m.content for m in bot_posts)
    finally:
        await world.close()


async def test_practice_against_the_hard_bot_thinks_in_the_workers(tmp_path: Path) -> None:
    """``level: hard``: the search player takes North, with the config's thinking time."""
    world = await make_world(tmp_path, game={"bot_think_ms": 30})
    try:
        thread, game = await practise(world, {"opponent": "bot", "level": "hard"}, rounds=1)
        status = await world.status(game)
        assert {p.side: p.user for p in status.players}[Side.NORTH] == "auto:hard"
        assert status.state is not None and status.state.round >= 2  # a whole turn played
        assert any("🤖 hard" in m.content for m in world.public(thread))

        # Issue 22: the search's reasons, one short line per action, in the bot's posts
        # (which may still be on their way when the turn has passed).
        def thoughts() -> list[str]:
            return [
                line
                for m in world.public(thread)
                if m.author_id == world.standin.bot_user_id
                for line in m.content.splitlines()
                if line.startswith("The bot's thought — ")
            ]

        rng = random.Random(22)
        for _ in range(600):
            status = await world.status(game)
            mine = status.acting_user == str(world.alice)
            if mine and status.state is not None and status.state.pending:
                # A decision of Alice's (an advance, a passenger to place) comes first: a hint
                # is for a turn with nothing else waiting.
                command, given = slash_of(GreedyPlayer().choose(status.state, rng), status.state)
                await world.slash(world.alice, thread, command, given)
                continue
            if mine and thoughts():
                break
            await asyncio.sleep(0.05)
        said = thoughts()
        assert said and all(len(line) < 160 for line in said), said
        reasons = ("ahead of the next best", "the plain choice", "the game")
        assert all(any(r in line for r in reasons) for line in said), said
        # The player's hint, on their turn: ephemeral, three orders that can be typed.
        state = (await world.status(game)).state
        assert state is not None
        hint = await world.slash(world.alice, thread, "vl odds", {"best": True})
        told = reply_text(hint)
        assert hint.ephemeral and "best actions the search sees now" in told, told
        orders = re.findall(r"^\d\. (.+?) — ", told, re.MULTILINE)
        assert len(orders) == 3, told
        for order in orders:
            typed = resolve(parse_line(order), state, Side.SOUTH)  # type: ignore[arg-type]
            assert is_legal(state, typed), order  # type: ignore[arg-type]
        # Typed as a message, ``hint`` points to the slash command (the search needs the pool).
        seen = len(world.public(thread))
        await world.standin.post(world.alice, thread, "hint")
        reply = await world.next_public(
            thread, seen, lambda m: m.author_id == world.standin.bot_user_id
        )
        assert "/vl odds best: true" in reply.content, reply.content
    finally:
        await world.close()


async def test_a_bad_token_is_one_clear_line_and_exit_code_2(tmp_path: Path) -> None:
    standin = StandIn()
    await standin.start()
    try:
        bot = BotProcess(write_config(tmp_path, standin, token="not-the-token"))
        await bot.start()
        assert await bot.wait(60) == 2
        output = bot.output()
        assert "refused the bot token" in output
        assert "Traceback" not in output and "not-the-token" not in output
    finally:
        await standin.close()


async def test_a_second_process_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        second = BotProcess(world.bot.config, ["--shard-ids", "0", "--shard-count", "1"])
        second.log = tmp_path / "second.log"
        await second.start()
        assert await second.wait(60) == 2
        assert "one process per SQLite file" in second.output()
        # The first one serves on, and after it stops, a new one starts on the same file.
        helped = await world.slash(world.alice, world.text, "vl help")
        assert "/vl new" in reply_text(helped)
        await world.restart_bot()
        assert world.bot.process is not None and world.bot.process.returncode is None
    finally:
        await world.close()
