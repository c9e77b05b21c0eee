"""The Discord stand-in, driven by a tiny real discord.py client (not the project's bot).

Each test starts a stand-in and a client pointed at it; discord.py's log is collected and
any warning or error from it (a payload it could not parse, an exception in a handler)
fails the test.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from PIL import Image

from tests.standin import StandIn, gateway
from tests.standin.world import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    MANAGE_CHANNELS,
    PIN_MESSAGES,
    SEND_MESSAGES,
)

UNITS = ("tac1", "tac2", "cap1", "rhi1")
BUTTON_ID = "vl:board:refresh"  # a persistent custom id, as the real bot's will be
FLIP_ID = "vl:board:flip"
ACK_ID = "vl:board:ack"


# -- the tiny client ---------------------------------------------------------------------------
class RefreshView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Refresh", custom_id=BUTTON_ID)
    async def refresh(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.send_message(
            f"refreshed for {interaction.user.id}", ephemeral=True
        )

    @discord.ui.button(label="Flip", custom_id=FLIP_ID)
    async def flip(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="flipped", view=None)

    @discord.ui.button(label="Ack", custom_id=ACK_ID)
    async def ack(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # a deferred update: type 6
        await interaction.edit_original_response(content="acknowledged")


class NoteModal(discord.ui.Modal, title="Note"):
    text: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Text", custom_id="vl:note:text")

    def __init__(self) -> None:
        super().__init__(custom_id="vl:note")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.text.value}")


class Russian(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        names = {"move": "ход", "unit": "отряд"}
        return names.get(string.message) if locale is discord.Locale.russian else None


def board_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (48, 32), (200, 30, 30)).save(buffer, "PNG")
    return buffer.getvalue()


class TinyBot(discord.Client):
    def __init__(self, *, content: bool = True, **options: Any) -> None:
        intents = discord.Intents.default()
        intents.message_content = content
        intents.members = True  # so members are cached, and the startup chunking is exercised
        super().__init__(intents=intents, guild_ready_timeout=0.2, **options)
        self.tree = app_commands.CommandTree(self)
        self.seen: list[discord.Message] = []
        self.resumed = asyncio.Event()
        group = app_commands.Group(name="vl", description="Vaha-Lite")

        @group.command(name=app_commands.locale_str("move"), description="Move a unit")
        @app_commands.rename(unit=app_commands.locale_str("unit"))
        async def move(interaction: discord.Interaction, unit: str, steps: int = 1) -> None:
            await interaction.response.defer()
            await interaction.followup.send(
                f"{unit} moved {steps}",
                file=discord.File(io.BytesIO(board_png()), "board.png"),
                view=RefreshView(),
            )

        @move.autocomplete("unit")
        async def unit_choices(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=u, value=u) for u in UNITS if u.startswith(current)]

        @group.command(name="board", description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.edit_original_response(
                content="the board", attachments=[discord.File(io.BytesIO(board_png()), "b.png")]
            )

        @group.command(name="chat", description="Talk, then think better of it")
        async def chat(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            second = await interaction.followup.send("second", wait=True)
            await second.edit(content="second, edited")
            await interaction.delete_original_response()

        @group.command(name="note", description="Write a note")
        async def note(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NoteModal())

        @group.command(name="whoami", description="Who asks")
        async def whoami(interaction: discord.Interaction, who: discord.Member) -> None:
            files = interaction.app_permissions.attach_files
            await interaction.response.send_message(
                f"{who.id} {who.display_name} files={files}", ephemeral=True
            )

        self.tree.add_command(group)

    async def setup_hook(self) -> None:
        self.add_view(RefreshView())
        await self.tree.set_translator(Russian())
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)

    async def on_resumed(self) -> None:
        self.resumed.set()


class TinyShardedBot(discord.AutoShardedClient):
    def __init__(self, shard: int, count: int) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(
            intents=intents,
            shard_ids=[shard],
            shard_count=count,
            guild_ready_timeout=0.2,
        )
        self.seen: list[discord.Message] = []

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)


# -- fixtures ----------------------------------------------------------------------------------
class Complaints(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "voice will NOT be supported" not in record.getMessage():
            self.records.append(record)


@pytest.fixture
def discord_log() -> Iterator[Complaints]:
    handler = Complaints()
    logger = logging.getLogger("discord")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def point_discord_at(standin: StandIn, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", standin.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(standin.gateway_url)
    )


@pytest.fixture
async def standin(
    monkeypatch: pytest.MonkeyPatch, discord_log: Complaints
) -> AsyncIterator[StandIn]:
    server = StandIn(heartbeat_ms=500)
    await server.start()
    point_discord_at(server, monkeypatch)
    try:
        yield server
    finally:
        await server.close()
    problems = [f"{r.name}: {r.getMessage()}" for r in discord_log.records]
    assert not problems, problems


class World:
    """One guild with a text channel, a forum and two players."""

    def __init__(self, standin: StandIn) -> None:
        self.owner = standin.add_user("owner")
        self.player = standin.add_user("player")
        self.guild = standin.add_guild("Vaha", owner=self.owner, locale="ru")
        self.role = standin.add_role(self.guild, "players", permissions=SEND_MESSAGES)
        standin.add_member(self.guild, self.player, roles=[self.role])
        self.text = standin.add_text_channel(self.guild, "games")
        self.forum = standin.add_forum_channel(self.guild, "tables", ["open", "done"])


@pytest.fixture
def world(standin: StandIn) -> World:
    return World(standin)


async def run_client(client: discord.Client, token: str) -> asyncio.Task[None]:
    task = asyncio.create_task(client.start(token))
    done = asyncio.create_task(client.wait_until_ready())
    await asyncio.wait({task, done}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        done.cancel()
        task.result()  # raises what start() raised
    assert done.done(), "the client never became ready"
    return task


@pytest.fixture
async def bot(standin: StandIn, world: World) -> AsyncIterator[TinyBot]:
    client = TinyBot()
    task = await run_client(client, standin.token)
    try:
        yield client
    finally:
        await client.close()
        await task


async def until(check: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


# -- connecting ------------------------------------------------------------------------------
async def test_login_connect_ready_and_guild_create(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    assert bot.user is not None and bot.user.id == standin.bot_user_id
    assert bot.application_id == standin.application_id
    guild = bot.get_guild(world.guild)
    assert guild is not None and guild.owner_id == world.owner
    assert guild.preferred_locale is discord.Locale.russian
    assert guild.me.id == standin.bot_user_id
    assert {c.name for c in guild.channels} == {"games", "tables"}
    forum = guild.get_channel(world.forum)
    assert isinstance(forum, discord.ForumChannel)
    assert [t.name for t in forum.available_tags] == ["open", "done"]
    player = guild.get_member(world.player)
    assert player is not None and [r.name for r in player.roles][-1] == "players"
    assert standin.connected == 1
    assert ("GET", "/api/v10/oauth2/applications/@me") in standin.requests


async def test_command_sync_is_recorded_with_localizations(standin: StandIn, bot: TinyBot) -> None:
    (group,) = standin.commands
    assert group["name"] == "vl" and int(group["application_id"]) == standin.application_id
    subs = {o["name"]: o for o in group["options"]}
    assert set(subs) == {"move", "board", "chat", "note", "whoami"}
    assert subs["move"]["name_localizations"] == {"ru": "ход"}
    unit = subs["move"]["options"][0]
    assert unit["name"] == "unit" and unit["autocomplete"] is True
    assert unit["name_localizations"] == {"ru": "отряд"}


async def test_slash_command_refuses_what_the_bot_did_not_sync(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    with pytest.raises(AssertionError, match="no slash command"):
        await standin.slash(world.player, world.text, "game move", {"unit": "tac1"})
    with pytest.raises(AssertionError, match="no subcommand"):
        await standin.slash(world.player, world.text, "vl fly", {})
    with pytest.raises(AssertionError, match="no option"):
        await standin.slash(world.player, world.text, "vl move", {"unit": "x", "speed": 3})
    with pytest.raises(AssertionError, match="takes"):
        await standin.slash(world.player, world.text, "vl move", {"unit": "x", "steps": "2"})
    with pytest.raises(AssertionError, match="required"):
        await standin.slash(world.player, world.text, "vl move", {"steps": 2})


# -- interactions ----------------------------------------------------------------------------
async def test_deferred_slash_command_followed_up_with_a_png(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    interaction = await standin.slash(
        world.player, world.text, "vl move", {"unit": "tac1", "steps": 2}
    )
    (message,) = await interaction.wait_done()
    assert interaction.responses[0]["type"] == 5  # deferred first
    assert message.content == "tac1 moved 2" and message.interaction_id == interaction.id
    (attachment,) = message.attachments
    assert attachment.filename == "board.png"
    image = Image.open(io.BytesIO(attachment.data))
    assert image.format == "PNG" and image.size == (48, 32)
    assert message.custom_ids() == [BUTTON_ID, FLIP_ID, ACK_ID]
    assert interaction.dispatched_at < message.created_at
    assert not interaction.ephemeral
    assert standin.messages(world.text) == [message]
    # The followup came back through the gateway into discord.py's cache as well.
    await until(
        lambda: (
            bot.get_partial_messageable(world.text)
            and any(m.id == message.id for m in bot.cached_messages)
        )
    )


async def test_autocomplete_returns_the_bots_choices(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    choices = await standin.autocomplete(
        world.player, world.text, "vl move", {"unit": "ta"}, "unit"
    )
    assert choices == [{"name": "tac1", "value": "tac1"}, {"name": "tac2", "value": "tac2"}]
    # Typed with the Russian names the bot synced: the interaction carries the real ones.
    russian = await standin.autocomplete(
        world.player, world.text, "vl ход", {"отряд": "c"}, "отряд", locale="ru"
    )
    assert russian == [{"name": "cap1", "value": "cap1"}]


async def test_a_button_click_reaches_the_persistent_view(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    first = await standin.slash(world.player, world.text, "vl move", {"unit": "cap1"})
    (message,) = await first.wait_done()
    click = await standin.click(world.player, message, BUTTON_ID)
    (answer,) = await click.wait_done()
    assert click.responses[0]["type"] == 4 and click.ephemeral
    assert answer.content == f"refreshed for {world.player}"
    with pytest.raises(AssertionError, match="no component"):
        await standin.click(world.player, message, "vl:nothing")


async def test_a_modal_is_shown_then_submitted(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    with pytest.raises(AssertionError, match="never showed"):
        await standin.submit_modal(world.player, world.text, "vl:note", {"vl:note:text": "x"})
    shown = await standin.slash(world.player, world.text, "vl note")
    assert (await shown.wait_response())["type"] == 9
    submit = await standin.submit_modal(
        world.player, world.text, "vl:note", {"vl:note:text": "flank left"}
    )
    (answer,) = await submit.wait_done()
    assert answer.content == "noted: flank left"


async def test_member_options_come_resolved(standin: StandIn, world: World, bot: TinyBot) -> None:
    interaction = await standin.slash(world.owner, world.text, "vl whoami", {"who": world.player})
    (answer,) = await interaction.wait_done()
    assert answer.content == f"{world.player} player files=True" and answer.ephemeral


# -- channels, threads, forum posts, pins, edits ------------------------------------------------
async def test_threads_forum_posts_pins_and_edits(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    text = bot.get_channel(world.text)
    forum = bot.get_channel(world.forum)
    assert isinstance(text, discord.TextChannel) and isinstance(forum, discord.ForumChannel)

    thread = await text.create_thread(name="game 1", type=discord.ChannelType.public_thread)
    sent = await thread.send("round 1")
    await sent.pin()
    await sent.edit(content="round 1 (edited)")
    stored = standin.messages(thread.id)
    assert [m.content for m in stored] == ["round 1 (edited)"] and stored[0].edited_at
    assert standin.pins(thread.id) == stored
    assert standin.threads_of(world.text)[0]["name"] == "game 1"

    tag = await forum.create_tag(name="round 2")
    post = await forum.create_thread(
        name="table 7",
        content="first post",
        applied_tags=[tag],
        file=discord.File(io.BytesIO(board_png()), "board.png"),
    )
    info = standin.channel(post.thread.id)
    assert info["parent_id"] == world.forum and info["name"] == "table 7"
    assert info["applied_tags"] == [tag.id]
    assert [t["name"] for t in standin.channel(world.forum)["available_tags"]][-1] == "round 2"
    (starter,) = standin.messages(post.thread.id)
    assert starter.id == post.thread.id and starter.attachments[0].filename == "board.png"

    done = discord.utils.get(forum.available_tags, name="done")
    assert done is not None
    await post.thread.edit(archived=True, applied_tags=[done])
    assert standin.channel(post.thread.id)["archived"] is True
    assert standin.channel(post.thread.id)["applied_tags"] == [done.id]

    # discord.py's cache followed the gateway events.
    await until(lambda: bot.get_channel(thread.id) is not None)
    await until(lambda: "round 2" in [t.name for t in forum.available_tags])
    cached = bot.get_channel(post.thread.id)
    await until(lambda: isinstance(cached, discord.Thread) and cached.archived)


async def test_permission_denied_is_403_and_visible_to_the_client(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    channel = bot.get_channel(world.text)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("before")
    standin.deny_bot(world.text, SEND_MESSAGES)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("after")
    assert refused.value.code == 50013
    standin.allow_bot(world.text, SEND_MESSAGES)
    standin.deny_bot(world.guild, ATTACH_FILES | PIN_MESSAGES | MANAGE_CHANNELS)
    await channel.send("text is fine")
    with pytest.raises(discord.Forbidden):
        await channel.send(file=discord.File(io.BytesIO(b"x"), "x.txt"))
    with pytest.raises(discord.Forbidden):
        await message.pin()
    forum = bot.get_channel(world.forum)
    assert isinstance(forum, discord.ForumChannel)
    with pytest.raises(discord.Forbidden):
        await forum.create_tag(name="new")
    # discord.py computes the same from the overwrite the stand-in dispatched.
    await until(lambda: not channel.permissions_for(channel.guild.me).attach_files)
    assert channel.permissions_for(channel.guild.me).send_messages
    interaction = await standin.slash(world.player, world.text, "vl whoami", {"who": world.owner})
    (answer,) = await interaction.wait_done()
    assert answer.content.endswith("files=False")  # app_permissions carry the denial
    assert [m.content for m in standin.messages(world.text)][:2] == ["before", "text is fine"]

    standin.deny_bot(world.text, CREATE_PUBLIC_THREADS)
    with pytest.raises(discord.Forbidden):
        await channel.create_thread(name="no", type=discord.ChannelType.public_thread)
    standin.deny_bot(world.forum, SEND_MESSAGES)
    with pytest.raises(discord.Forbidden):
        await forum.create_thread(name="no", content="no")
    assert standin.threads_of(world.text) == [] and standin.threads_of(world.forum) == []


# -- messages from users ---------------------------------------------------------------------
async def test_message_content_only_with_the_intent(standin: StandIn, world: World) -> None:
    reader, blind = TinyBot(content=True), TinyBot(content=False)
    tasks = [await run_client(reader, standin.token), await run_client(blind, standin.token)]
    try:
        posted = await standin.post(world.player, world.text, "tac1 C4")
        await until(lambda: reader.seen and blind.seen)
        assert reader.seen[0].content == "tac1 C4" and reader.seen[0].id == posted.id
        assert blind.seen[0].content == "" and blind.seen[0].author.id == world.player
    finally:
        for client in (reader, blind):
            await client.close()
        await asyncio.gather(*tasks)


async def test_a_disallowed_privileged_intent_closes_with_4014(
    monkeypatch: pytest.MonkeyPatch, discord_log: Complaints
) -> None:
    standin = StandIn(message_content_allowed=False)
    await standin.start()
    point_discord_at(standin, monkeypatch)
    client = TinyBot(content=True)
    try:
        with pytest.raises(discord.PrivilegedIntentsRequired):
            await asyncio.wait_for(client.start(standin.token), 10)
        assert standin.gateway.close_codes == [4014]
    finally:
        await client.close()
        await standin.close()


async def test_a_wrong_token_gets_401(standin: StandIn) -> None:
    client = TinyBot()
    try:
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
    finally:
        await client.close()
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{standin.api_base}/users/@me") as response,
    ):
        assert response.status == 401
        assert response.headers["Content-Type"] == "application/json"
        assert (await response.json())["message"] == "401: Unauthorized"
    assert standin.unhandled == []
    headers = {"Authorization": f"Bot {standin.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{standin.api_base}/voice/regions", headers=headers) as response,
    ):
        assert response.status == 404 and (await response.json())["code"] == 0
    assert standin.unhandled == [("GET", "/api/v10/voice/regions")]


# -- the connection --------------------------------------------------------------------------
async def test_a_dropped_connection_resumes_and_gets_what_it_missed(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    standin.drop_gateway()
    assert standin.connected == 0
    missed = await standin.post(world.player, world.text, "while you were away")
    asked = await standin.slash(world.player, world.text, "vl move", {"unit": "cap1"})
    await asyncio.wait_for(bot.resumed.wait(), 10)
    (answer,) = await asked.wait_done()  # the interaction came with the replay
    assert answer.content == "cap1 moved 1"
    await until(lambda: any(m.id == missed.id for m in bot.seen))
    assert standin.resumes == 1 and standin.connected == 1
    # The connection works on: an interaction after the resume is answered.
    interaction = await standin.slash(world.player, world.text, "vl move", {"unit": "rhi1"})
    await interaction.wait_done()


async def test_shards_get_only_their_guilds(standin: StandIn, world: World) -> None:
    owner = world.owner
    by_shard: dict[int, int] = {(world.guild >> 22) % 2: world.guild}
    while len(by_shard) < 2:
        time.sleep(0.002)  # a new millisecond: the next guild id may fall in the other shard
        guild = standin.add_guild("other", owner=owner)
        by_shard.setdefault((guild >> 22) % 2, guild)
    channels = {shard: standin.add_text_channel(g, f"chan{shard}") for shard, g in by_shard.items()}
    clients = [TinyShardedBot(0, 2), TinyShardedBot(1, 2)]
    tasks = [await run_client(client, standin.token) for client in clients]
    try:
        await standin.wait_ready(count=2)
        for shard, client in enumerate(clients):
            assert by_shard[shard] in {g.id for g in client.guilds}
            assert by_shard[1 - shard] not in {g.id for g in client.guilds}
        for shard in (0, 1):
            await standin.post(owner, channels[shard], f"to shard {shard}")
        await until(lambda: all(client.seen for client in clients))
        await asyncio.sleep(0.05)  # a wrongly routed event would have come by now
        for shard, client in enumerate(clients):
            assert [m.content for m in client.seen] == [f"to shard {shard}"]
    finally:
        for client in clients:
            await client.close()
        await asyncio.gather(*tasks)


async def test_a_deferred_answer_by_editing_the_original(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    interaction = await standin.slash(world.player, world.text, "vl board")
    (message,) = await interaction.wait_done()
    assert interaction.responses[0]["type"] == 5 and not interaction.followups
    assert message.content == "the board" and message.attachments[0].filename == "b.png"
    assert Image.open(io.BytesIO(message.attachments[0].data)).size == (48, 32)


async def test_a_button_that_edits_its_message(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    first = await standin.slash(world.player, world.text, "vl move", {"unit": "tac2"})
    (message,) = await first.wait_done()
    press = await standin.click(world.player, message, FLIP_ID)
    (edited,) = await press.wait_done()
    assert press.responses[0]["type"] == 7 and edited is message
    assert message.content == "flipped" and message.components == [] and message.edited_at
    assert message.attachments  # an edit that names no attachments keeps them
    with pytest.raises(AssertionError, match="no component"):
        await standin.click(world.player, message, FLIP_ID)  # the buttons are gone
    # discord.py's cache took the MESSAGE_UPDATE.
    await until(
        lambda: any(m.id == message.id and m.content == "flipped" for m in bot.cached_messages)
    )


async def test_direct_messages_replies_and_reactions(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    dm = standin.dm_channel(world.player)
    asked = await standin.post(world.player, dm, "hello bot")
    await until(lambda: any(m.id == asked.id for m in bot.seen))
    seen = next(m for m in bot.seen if m.id == asked.id)
    assert seen.guild is None and seen.content == "hello bot"
    answer = await seen.reply("hello player")
    await answer.add_reaction("👍")
    question, stored_answer = standin.messages(dm)
    assert question.id == asked.id and question.author_id == world.player
    assert stored_answer.reference_id == asked.id and stored_answer.content == "hello player"
    assert stored_answer.reactions == {"👍": {standin.bot_user_id}}
    user = bot.get_user(world.player)
    assert user is not None
    await user.send("a direct word")  # discord.py opens the DM channel through REST
    assert standin.messages(dm)[-1].content == "a direct word"


async def test_wait_message_sees_new_messages_and_with_after_earlier_ones(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    channel = bot.get_channel(world.text)
    assert isinstance(channel, discord.TextChannel)
    early = await channel.send("early")
    with pytest.raises(TimeoutError):
        await standin.wait_message(world.text, lambda m: m.content == "early", timeout=0.2)
    stored = standin.messages(world.text)[0]
    found = await standin.wait_message(world.text, after=stored.created_at)
    assert found.id == early.id
    waiting = asyncio.create_task(standin.wait_message(world.text, lambda m: "late" in m.content))
    await asyncio.sleep(0.05)
    late = await channel.send("late")
    assert (await waiting).id == late.id


async def test_the_gateway_protocol_raw(standin: StandIn, world: World) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(
            f"{standin.api_base}/gateway/bot", headers={"Authorization": f"Bot {standin.token}"}
        ) as response:
            info = await response.json()
        assert info["url"] == standin.gateway_url and info["shards"] == 1
        assert info["session_start_limit"]["max_concurrency"] == 1

        async with session.ws_connect(standin.gateway_url) as ws:
            hello = await ws.receive_json(timeout=5)
            assert hello == {"op": 10, "d": {"heartbeat_interval": 500}}
            await ws.send_json({"op": 1, "d": None})
            assert (await ws.receive_json(timeout=5))["op"] == 11
            await ws.send_json(
                {"op": 6, "d": {"token": standin.token, "session_id": "x", "seq": 3}}
            )
            assert await ws.receive_json(timeout=5) == {"op": 9, "d": False}

        async with session.ws_connect(standin.gateway_url) as ws:
            await ws.receive_json(timeout=5)
            await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 513}})
            closing = await ws.receive(timeout=5)
            assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4004

        async with session.ws_connect(standin.gateway_url) as ws:
            await ws.receive_json(timeout=5)
            await ws.send_json({"op": 2, "d": {"token": standin.token, "intents": 513}})
            ready = await ws.receive_json(timeout=5)
            created = await ws.receive_json(timeout=5)
            assert (ready["t"], ready["s"], created["t"], created["s"]) == (
                "READY",
                1,
                "GUILD_CREATE",
                2,
            )
            assert ready["d"]["guilds"] == [{"id": str(world.guild), "unavailable": True}]
            assert int(created["d"]["id"]) == world.guild > 2**53


async def test_big_ids_sent_as_json_numbers_stay_exact(standin: StandIn, world: World) -> None:
    tags = standin.channel(world.forum)["available_tags"]
    url = f"{standin.api_base}/channels/{world.forum}"
    body = b'{"available_tags": [{"id": %d, "name": "open"}, {"name": "new"}]}' % tags[0]["id"]
    headers = {"Authorization": f"Bot {standin.token}", "Content-Type": "application/json"}
    async with aiohttp.ClientSession() as session, session.patch(url, data=body, headers=headers):
        pass
    kept, new = standin.channel(world.forum)["available_tags"]
    assert kept["id"] == tags[0]["id"] and new["id"] > 2**53 and new["name"] == "new"


async def test_a_session_away_too_long_cannot_resume(
    standin: StandIn, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(standin.gateway_url) as ws:
            await ws.receive_json(timeout=5)
            await ws.send_json({"op": 2, "d": {"token": standin.token, "intents": 513}})
            ready = await ws.receive_json(timeout=5)
            standin.drop_gateway()
        resume = {"token": standin.token, "session_id": ready["d"]["session_id"], "seq": 1}
        monkeypatch.setattr(gateway, "RESUME_WINDOW_S", -1.0)
        async with session.ws_connect(standin.gateway_url) as ws:
            await ws.receive_json(timeout=5)
            await ws.send_json({"op": 6, "d": resume})
            assert await ws.receive_json(timeout=5) == {"op": 9, "d": False}
        monkeypatch.setattr(gateway, "RESUME_WINDOW_S", 60.0)
        async with session.ws_connect(standin.gateway_url) as ws:
            await ws.receive_json(timeout=5)
            await ws.send_json({"op": 6, "d": resume})
            replayed = await ws.receive_json(timeout=5)
            assert (replayed["t"], replayed["s"]) == ("GUILD_CREATE", 2)
            assert (await ws.receive_json(timeout=5))["t"] == "RESUMED"


async def test_a_deferred_update_then_an_edit_of_the_original(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    first = await standin.slash(world.player, world.text, "vl move", {"unit": "tac1"})
    (message,) = await first.wait_done()
    press = await standin.click(world.player, message, ACK_ID)
    (edited,) = await press.wait_done()
    assert press.responses[0]["type"] == 6 and edited is message
    assert message.content == "acknowledged"


async def test_followups_edited_and_the_original_deleted(
    standin: StandIn, world: World, bot: TinyBot
) -> None:
    interaction = await standin.slash(world.player, world.text, "vl chat")
    await interaction.wait_followup()
    await standin.wait_for(lambda: len(standin.messages(world.text)) == 1)
    (left,) = standin.messages(world.text)
    assert left.content == "second, edited" and left is interaction.followups[0]


async def test_history_fetch_and_delete(standin: StandIn, world: World, bot: TinyBot) -> None:
    channel = bot.get_channel(world.text)
    assert isinstance(channel, discord.TextChannel)
    sent = [await channel.send(f"m{n}") for n in range(4)]
    await standin.post(world.player, world.text, "from a player")
    history = [m.content async for m in channel.history(limit=3)]
    assert history == ["from a player", "m3", "m2"]
    older = [m.content async for m in channel.history(limit=10, before=sent[2])]
    assert older == ["m1", "m0"]
    newer = [m.content async for m in channel.history(limit=2, after=sent[1])]
    assert newer == ["m2", "m3"]
    fetched = await channel.fetch_message(sent[1].id)
    assert fetched.content == "m1" and fetched.author.id == standin.bot_user_id
    await sent[0].delete()
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(sent[0].id)
    assert [m.content for m in standin.messages(world.text)] == ["m1", "m2", "m3", "from a player"]
