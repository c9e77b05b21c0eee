"""The stand-in's gateway faults and thread cache, driven by the tiny discord.py client of
``test_standin``: every close the gateway makes and op 9 either way, a RESUME on READY's
``resume_gateway_url`` replaying what was missed, threads archived and unarchived as Discord
does them (and discord.py's cache following), READY's ``shard``, CHANNEL_UPDATE's tags.
"""

# The fixtures come from test_standin by import, and pytest passes them by parameter name.
# ruff: noqa: F811

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from tests.standin import StandIn, gateway
from tests.test_standin import (  # noqa: F401  (fixtures, used by name)
    TinyBot,
    World,
    bot,
    discord_log,
    standin,
    until,
    world,
)

# (what the test does to the gateway, whether the client may RESUME afterwards)


@pytest.mark.parametrize(("fault", "resumable"), gateway.FAULTS.items())
async def test_every_gateway_fault_is_survived_and_no_command_lost_or_doubled(
    standin: StandIn, world: World, bot: TinyBot, fault: str, resumable: bool
) -> None:
    identifies, resumes = standin.gateway.identifies, standin.resumes
    before = await standin.slash(world.player, world.text, "vl move", {"unit": "tac1"})
    standin.gateway.fault(fault)
    if resumable:
        # Dispatched while the client is away: kept for the RESUME, replayed once.
        during = await standin.slash(world.player, world.text, "vl move", {"unit": "tac2"})
    await standin.wait_for(lambda: standin.connected == 1, 15)
    if not resumable:
        # Discord forgot the session: nothing is replayed; the client identified anew.
        await standin.wait_for(lambda: standin.gateway.identifies == identifies + 1)
        during = await standin.slash(world.player, world.text, "vl move", {"unit": "tac2"})
    after = await standin.slash(world.player, world.text, "vl move", {"unit": "cap1"})
    answered = [await i.wait_done() for i in (before, during, after)]
    assert [[m.content for m in a] for a in answered] == [
        ["tac1 moved 1"],
        ["tac2 moved 1"],
        ["cap1 moved 1"],
    ]
    await asyncio.sleep(0.2)  # a doubled delivery would have been answered by now
    for interaction in (before, during, after):
        assert len(interaction.responses) == 1  # a second callback would be 40060
    moved = [m.content for m in standin.messages(world.text) if "moved" in m.content]
    assert sorted(moved) == ["cap1 moved 1", "tac1 moved 1", "tac2 moved 1"]
    assert standin.resumes == resumes + (1 if resumable else 0)
    assert standin.gateway.identifies == identifies + (0 if resumable else 1)
    assert standin.gateway.resumes_elsewhere == 0  # discord.py resumes on resume_gateway_url


async def test_a_resume_with_a_sequence_never_sent_is_closed_4007(
    standin: StandIn, world: World
) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(standin.gateway_url) as ws:
            await ws.receive_json(timeout=5)
            await ws.send_json({"op": 2, "d": {"token": standin.token, "intents": 513}})
            ready = await ws.receive_json(timeout=5)
            assert "shard" not in ready["d"]  # not asked for in IDENTIFY: not in READY
            assert ready["d"]["resume_gateway_url"].endswith("/resume-gateway")
            standin.drop_gateway()
        resume = {"token": standin.token, "session_id": ready["d"]["session_id"], "seq": 99}
        async with session.ws_connect(ready["d"]["resume_gateway_url"]) as ws:
            await ws.receive_json(timeout=5)
            await ws.send_json({"op": 6, "d": resume})
            closing = await ws.receive(timeout=5)
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4007
        async with session.ws_connect(standin.gateway_url) as ws:
            await ws.receive_json(timeout=5)
            identify = {"token": standin.token, "intents": 513, "shard": [0, 1]}
            await ws.send_json({"op": 2, "d": identify})
            assert (await ws.receive_json(timeout=5))["d"]["shard"] == [0, 1]


async def test_archived_threads_leave_the_cache_and_a_members_post_unarchives(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    text = bot.get_channel(world.text)
    assert isinstance(text, discord.TextChannel)
    thread = await text.create_thread(name="game 2", type=discord.ChannelType.public_thread)
    await until(lambda: isinstance(bot.get_channel(thread.id), discord.Thread))

    standin.archive_thread(thread.id)
    await until(lambda: bot.get_channel(thread.id) is None)  # discord.py drops it
    with pytest.raises(AssertionError, match="archived thread"):
        await standin.slash(world.player, thread.id, "vl move", {"unit": "tac1"})
    with pytest.raises(discord.HTTPException) as refused:
        await thread.get_partial_message(thread.id).edit(content="no")
    assert refused.value.code in (50083, 10008)

    posted = await standin.post(world.player, thread.id, "tac1 C4")
    assert standin.channel(thread.id)["archived"] is False
    await until(lambda: any(m.id == posted.id for m in bot.seen))
    seen = next(m for m in bot.seen if m.id == posted.id)
    # The message came before the THREAD_UPDATE: the thread was not in the cache yet.
    assert isinstance(seen.channel, discord.PartialMessageable)
    await until(lambda: isinstance(bot.get_channel(thread.id), discord.Thread))

    sent = await thread.send("the board")
    standin.archive_thread(thread.id, locked=True)
    await until(lambda: bot.get_channel(thread.id) is None)
    with pytest.raises(discord.HTTPException) as refused:
        await sent.edit(content="edited")
    assert refused.value.code == 50083
    with pytest.raises(AssertionError, match="locked"):
        await standin.post(world.player, thread.id, "tac1 C5")
    # The bot has Manage Threads: its message reopens even a locked thread.
    await thread.send("the reminder")
    assert standin.channel(thread.id)["archived"] is False


async def test_guild_create_after_identifying_again_lists_only_active_threads(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    text = bot.get_channel(world.text)
    assert isinstance(text, discord.TextChannel)
    active = await text.create_thread(name="on", type=discord.ChannelType.public_thread)
    archived = await text.create_thread(name="off", type=discord.ChannelType.public_thread)
    standin.archive_thread(archived.id)
    identifies = standin.gateway.identifies
    standin.invalidate_session(resumable=False)
    await standin.wait_for(lambda: standin.gateway.identifies > identifies and standin.connected)
    guild = bot.get_guild(world.guild)
    assert guild is not None
    await until(lambda: guild.get_thread(active.id) is not None)
    assert guild.get_thread(archived.id) is None


async def test_channel_update_carries_the_forums_tags(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    forum = bot.get_channel(world.forum)
    assert isinstance(forum, discord.ForumChannel)
    await forum.create_tag(name="finished")
    await until(lambda: "finished" in [t.name for t in forum.available_tags])
    assert [t.name for t in forum.available_tags] == ["open", "done", "finished"]
