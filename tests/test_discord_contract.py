"""Discord's contract, end to end: the real bot against a stand-in that refuses what Discord
refuses (tests/standin/contract.py) and fails as Discord fails (tests/standin/faults.py).

Forum tags that fit, posts and threads that live for days, the practice opponent's post,
answers that come in time however slow Discord is, and posts that survive 429s and 5xx:
no command lost, doubled or left unanswered.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.discord_world import World, game_of, make_world, reply_text
from tests.standin.contract import FORUM_TAG_NAME
from vahalite_bot.i18n import translate

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
