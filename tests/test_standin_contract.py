"""The stand-in refuses what Discord refuses, in Discord's shape, and fails as Discord fails.

Each documented limit is tried just inside (accepted) and just outside (refused with
Discord's status, code and ``errors`` tree), then switched off to show a test can relax
it. The faults (429 with its headers and buckets, 5xx, slow answers) are checked raw, then
through unmodified discord.py, which must wait out a 429 and retry a 502 by itself.
"""

from __future__ import annotations

import asyncio
import io
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.standin import Interaction, StandIn
from tests.standin.contract import command_problems, pinged
from tests.standin.world import MANAGE_THREADS

API = "/api/v10"


class Raw:
    """REST calls as the bot would make them, answers read raw."""

    def __init__(self, standin: StandIn, session: aiohttp.ClientSession) -> None:
        self.standin = standin
        self.session = session
        self.headers = {"Authorization": f"Bot {standin.token}"}

    async def call(
        self, method: str, path: str, body: Any = None, *, files: dict[str, bytes] | None = None
    ) -> tuple[int, Any, dict[str, str]]:
        url = self.standin.host_url + API + path
        if files:
            form = aiohttp.FormData()
            form.add_field("payload_json", _json(body or {}), content_type="application/json")
            for i, (name, data) in enumerate(files.items()):
                form.add_field(f"files[{i}]", data, filename=name)
            request = self.session.request(method, url, data=form, headers=self.headers)
        else:
            request = self.session.request(method, url, json=body, headers=self.headers)
        async with request as response:
            text = await response.text()
            data = _parse(text)
            return response.status, data, dict(response.headers)


def _json(value: Any) -> str:
    import json

    return json.dumps(value)


def _parse(text: str) -> Any:
    import json

    try:
        return json.loads(text) if text else None
    except ValueError:
        return text


class Place:
    def __init__(self, standin: StandIn) -> None:
        self.owner = standin.add_user("owner")
        self.guild = standin.add_guild("Vaha", owner=self.owner)
        self.text = standin.add_text_channel(self.guild, "games")
        self.forum = standin.add_forum_channel(self.guild, "battles")


@pytest.fixture
async def standin() -> AsyncIterator[StandIn]:
    server = StandIn()
    await server.start()
    try:
        yield server
    finally:
        await server.close()


@pytest.fixture
async def raw(standin: StandIn) -> AsyncIterator[Raw]:
    async with aiohttp.ClientSession() as session:
        yield Raw(standin, session)


@pytest.fixture
def place(standin: StandIn) -> Place:
    return Place(standin)


def _first_error(data: dict[str, Any]) -> tuple[list[str], str]:
    """The path to the first ``_errors`` in a 50035 tree and its code."""
    path: list[str] = []
    node = data["errors"]
    while "_errors" not in node:
        key = next(iter(node))
        path.append(key)
        node = node[key]
    return path, node["_errors"][0]["code"]


async def _refused(raw: Raw, method: str, path: str, body: Any, **kw: Any) -> Any:
    status, data, _ = await raw.call(method, path, body, **kw)
    assert status == 400 and data["code"] == 50035 and data["message"] == "Invalid Form Body"
    return data


# -- messages ---------------------------------------------------------------------------------
async def test_an_empty_message_is_50006_unless_relaxed(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    path = f"/channels/{place.text}/messages"
    status, data, _ = await raw.call("POST", path, {"content": ""})
    assert (status, data) == (400, {"message": "Cannot send an empty message", "code": 50006})
    assert (await raw.call("POST", path, {"content": "", "embeds": [{"title": "t"}]}))[0] == 200
    standin.contract.relax("empty_message")
    assert (await raw.call("POST", path, {"content": ""}))[0] == 200


async def test_content_at_most_2000(standin: StandIn, raw: Raw, place: Place) -> None:
    path = f"/channels/{place.text}/messages"
    assert (await raw.call("POST", path, {"content": "x" * 2000}))[0] == 200
    data = await _refused(raw, "POST", path, {"content": "x" * 2001})
    assert data["errors"]["content"]["_errors"] == [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}
    ]
    standin.contract.relax("content")
    assert (await raw.call("POST", path, {"content": "x" * 2001}))[0] == 200


@pytest.mark.parametrize(
    ("embeds", "where", "code"),
    [
        ([{"title": "t" * 257}], ["embeds", "0", "title"], "BASE_TYPE_MAX_LENGTH"),
        ([{"description": "d" * 4097}], ["embeds", "0", "description"], "BASE_TYPE_MAX_LENGTH"),
        ([{"title": "t"}] * 11, ["embeds"], "BASE_TYPE_MAX_LENGTH"),
        (
            [{"fields": [{"name": "n", "value": "v"}] * 26}],
            ["embeds", "0", "fields"],
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            [{"description": "d" * 4000}, {"description": "d" * 2001}],
            ["embeds"],
            "MAX_EMBED_SIZE_EXCEEDED",
        ),
    ],
)
async def test_embed_limits(
    raw: Raw, place: Place, embeds: list[dict[str, Any]], where: list[str], code: str
) -> None:
    data = await _refused(raw, "POST", f"/channels/{place.text}/messages", {"embeds": embeds})
    assert _first_error(data) == (where, code)


def _button(custom_id: str = "b", label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


@pytest.mark.parametrize(
    ("rows", "where"),
    [
        ([{"type": 1, "components": [_button()]}] * 6, ["components"]),
        (
            [{"type": 1, "components": [_button(f"b{i}") for i in range(6)]}],
            ["components", "0", "components"],
        ),
        (
            [{"type": 1, "components": [_button("c" * 101)]}],
            ["components", "0", "components", "0", "custom_id"],
        ),
        (
            [{"type": 1, "components": [_button(label="l" * 81)]}],
            ["components", "0", "components", "0", "label"],
        ),
        (
            [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 3,
                            "custom_id": "s",
                            "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                        }
                    ],
                }
            ],
            ["components", "0", "components", "0", "options"],
        ),
    ],
)
async def test_component_limits(raw: Raw, place: Place, rows: Any, where: list[str]) -> None:
    body = {"content": "x", "components": rows}
    data = await _refused(raw, "POST", f"/channels/{place.text}/messages", body)
    assert _first_error(data)[0] == where


async def test_attachments_at_most_10_mib_and_10_files(raw: Raw, place: Place) -> None:
    path = f"/channels/{place.text}/messages"
    big = {"a.bin": b"0" * (6 * 2**20), "b.bin": b"0" * (5 * 2**20)}
    status, data, _ = await raw.call("POST", path, {"content": "x"}, files=big)
    assert (status, data) == (413, {"message": "Request entity too large", "code": 40005})
    many = {f"{i}.txt": b"x" for i in range(11)}
    data = await _refused(raw, "POST", path, {"content": "x"}, files=many)
    assert _first_error(data)[0] == ["files"]
    assert (await raw.call("POST", path, {"content": "x"}, files={"a.txt": b"x"}))[0] == 200


async def test_allowed_mentions_are_checked_and_honoured(raw: Raw, place: Place) -> None:
    body = {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    data = await _refused(raw, "POST", f"/channels/{place.text}/messages", body)
    assert _first_error(data) == (["allowed_mentions"], "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE")
    text = "<@1> and <@2>"
    assert pinged(text, None) == {1, 2}
    assert pinged(text, {"parse": []}) == set()
    assert pinged(text, {"parse": [], "users": ["2", "3"]}) == {2}
    assert pinged(text, {"parse": ["users"]}) == {1, 2}
    assert pinged("hi", {"parse": []}, replied_author=7) == set()
    assert pinged("hi", {"replied_user": True}, replied_author=7) == {7}


async def test_an_edit_may_not_empty_a_message(raw: Raw, place: Place) -> None:
    status, sent, _ = await raw.call("POST", f"/channels/{place.text}/messages", {"content": "x"})
    assert status == 200
    path = f"/channels/{place.text}/messages/{sent['id']}"
    status, data, _ = await raw.call("PATCH", path, {"content": ""})
    assert (status, data["code"]) == (400, 50006)
    assert (await raw.call("PATCH", path, {"content": "y"}))[0] == 200


# -- channels -------------------------------------------------------------------------------
async def test_forum_tags_at_most_20_each_of_20_characters(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    path = f"/channels/{place.forum}"
    data = await _refused(
        raw, "PATCH", path, {"available_tags": [{"name": "Looking for an opponent"}]}
    )
    assert _first_error(data) == (["available_tags", "0", "name"], "BASE_TYPE_BAD_LENGTH")
    tags = [{"name": f"t{i}"} for i in range(21)]
    data = await _refused(raw, "PATCH", path, {"available_tags": tags})
    assert _first_error(data)[0] == ["available_tags"]
    assert (await raw.call("PATCH", path, {"available_tags": tags[:20]}))[0] == 200
    standin.contract.relax("forum_tags")
    assert (await raw.call("PATCH", path, {"available_tags": tags}))[0] == 200


async def test_thread_names_and_archive_durations(raw: Raw, place: Place) -> None:
    path = f"/channels/{place.text}/threads"
    data = await _refused(raw, "POST", path, {"name": "n" * 101, "type": 11})
    assert _first_error(data)[0] == ["name"]
    data = await _refused(
        raw, "POST", path, {"name": "n", "type": 11, "auto_archive_duration": 100}
    )
    assert _first_error(data)[0] == ["auto_archive_duration"]
    status, thread, _ = await raw.call(
        "POST", path, {"name": "n" * 100, "type": 11, "auto_archive_duration": 10080}
    )
    assert status == 200 and thread["thread_metadata"]["auto_archive_duration"] == 10080
    forum = f"/channels/{place.forum}/threads"
    data = await _refused(raw, "POST", forum, {"name": "", "message": {"content": "x"}})
    assert _first_error(data)[0] == ["name"]


# -- commands -------------------------------------------------------------------------------
def _command(**changes: Any) -> dict[str, Any]:
    return {"name": "vl", "description": "Vaha-Lite", "type": 1, **changes}


@pytest.mark.parametrize(
    ("command", "where"),
    [
        (_command(name="Vl"), ["0", "name"]),
        (_command(name="v l"), ["0", "name"]),
        (_command(name="v" * 33), ["0", "name"]),
        (_command(description=""), ["0", "description"]),
        (_command(description="d" * 101), ["0", "description"]),
        (_command(name_localizations={"ru": "Ход"}), ["0", "name_localizations", "ru"]),
        (
            _command(description_localizations={"ru": "д" * 101}),
            ["0", "description_localizations", "ru"],
        ),
        (
            _command(options=[{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]),
            ["0", "options"],
        ),
        (
            _command(
                options=[
                    {
                        "type": 3,
                        "name": "o",
                        "description": "d",
                        "choices": [{"name": str(i), "value": str(i)} for i in range(26)],
                    }
                ]
            ),
            ["0", "options", "0", "choices"],
        ),
        (
            _command(
                options=[
                    {
                        "type": 3,
                        "name": "o",
                        "description": "d",
                        "choices": [{"name": "n" * 101, "value": "v"}],
                    }
                ]
            ),
            ["0", "options", "0", "choices", "0", "name"],
        ),
        (
            _command(
                options=[
                    {
                        "type": 1,
                        "name": "move",
                        "description": "d",
                        "options": [{"type": 3, "name": "Unit", "description": "d"}],
                    }
                ]
            ),
            ["0", "options", "0", "options", "0", "name"],
        ),
    ],
)
async def test_command_limits(
    standin: StandIn, raw: Raw, command: dict[str, Any], where: list[str]
) -> None:
    path = f"/applications/{standin.application_id}/commands"
    data = await _refused(raw, "PUT", path, [command])
    assert _first_error(data)[0] == where
    assert standin.commands == []
    assert (await raw.call("PUT", path, [_command(name="ход-1_x")]))[0] == 200


def test_command_names_follow_discords_pattern() -> None:
    assert not command_problems([_command(name="армия")])
    assert command_problems([_command(name="армия!")])
    assert command_problems([_command(name="ARMY")])


# -- interactions -----------------------------------------------------------------------------
def _interaction(standin: StandIn, place: Place, *, kind: int = 2) -> Interaction:
    interaction = Interaction(
        id=standin.ids.next(), token=f"itok.{standin.ids.next()}", type=kind, channel_id=place.text
    )
    interaction.dispatched_at = time.perf_counter()
    standin.interactions[interaction.token] = interaction
    return interaction


def _callback(interaction: Interaction) -> str:
    return f"/interactions/{interaction.id}/{interaction.token}/callback"


async def test_one_answer_in_3_seconds_followups_for_15_minutes(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    first = _interaction(standin, place)
    assert (await raw.call("POST", _callback(first), {"type": 5}))[0] == 200
    status, data, _ = await raw.call("POST", _callback(first), {"type": 5})
    assert (status, data["code"]) == (400, 40060)
    hook = f"/webhooks/{standin.application_id}/{first.token}"
    assert (await raw.call("POST", hook, {"content": "later"}))[0] == 204
    standin.contract.token_seconds = 0.0  # the 15 minutes are over
    status, data, _ = await raw.call("POST", hook, {"content": "too late"})
    assert (status, data) == (401, {"message": "Invalid Webhook Token", "code": 50027})
    late = _interaction(standin, place)
    late.dispatched_at -= 3.5  # dispatched 3.5 s ago
    status, data, _ = await raw.call("POST", _callback(late), {"type": 5})
    assert (status, data) == (404, {"message": "Unknown interaction", "code": 10062})
    standin.contract.relax("response_window")
    assert (await raw.call("POST", _callback(late), {"type": 5}))[0] == 200


async def test_the_first_followup_after_a_deferral_is_its_answer_and_notifies_nobody(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    """Discord takes the first followup after a deferral as resolving the "thinking"
    message: the deferral's visibility, whatever the followup's flags, and no ping (an
    edit). Later followups, and a message in the callback itself, are messages of their own."""
    user = standin.add_user("asked")
    body = {"content": f"<@{user}>", "allowed_mentions": {"users": [str(user)]}, "flags": 0}
    deferred = _interaction(standin, place)
    assert (await raw.call("POST", _callback(deferred), {"type": 5, "data": {"flags": 64}}))[
        0
    ] == 200
    hook = f"/webhooks/{standin.application_id}/{deferred.token}?wait=true"
    for _ in range(2):
        assert (await raw.call("POST", hook, body))[0] == 200
    first, second = deferred.followups
    assert first.ephemeral and standin.pinged(first) == set()
    assert not second.ephemeral and standin.pinged(second) == {user}
    answered = _interaction(standin, place)
    assert (await raw.call("POST", _callback(answered), {"type": 4, "data": body}))[0] == 200
    assert answered.original is not None and standin.pinged(answered.original) == {user}


async def test_a_callback_type_the_interaction_does_not_take_is_refused(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    message = {"type": 4, "data": {"content": "a message"}}
    asked = _interaction(standin, place, kind=4)  # an autocomplete takes only its choices
    data = await _refused(raw, "POST", _callback(asked), message)
    assert _first_error(data) == (["type"], "INTERACTION_RESPONSE_TYPE_INVALID")
    command = _interaction(standin, place)  # a slash command has no message to update
    await _refused(raw, "POST", _callback(command), {"type": 7, "data": {"content": "x"}})
    assert not asked.responses and not command.responses
    pressed = _interaction(standin, place, kind=3)  # a button may answer with a new message
    assert (await raw.call("POST", _callback(pressed), message))[0] == 200


async def test_a_lost_answer_was_made_and_a_second_one_is_40060(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    standin.faults.lost("POST", "/interactions/{id}/{token}/callback", status=500)
    lost = _interaction(standin, place)
    body = {"type": 4, "data": {"content": "the post"}}
    assert (await raw.call("POST", _callback(lost), body))[0] == 500
    assert [m.content for m in standin.messages(place.text)] == ["the post"]
    status, data, _ = await raw.call("POST", _callback(lost), body)
    assert (status, data["code"]) == (400, 40060)
    hook = f"/webhooks/{standin.application_id}/{lost.token}/messages/@original"
    status, original, _ = await raw.call("GET", hook)
    assert status == 200 and original["content"] == "the post"


async def test_two_answers_on_their_way_together_make_one_and_a_40060(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    """One initial response, even when a second arrives while the first is still being
    uploaded: whichever Discord finishes reading second is refused (40060)."""
    both = _interaction(standin, place)
    url = standin.host_url + API + _callback(both)
    headers = {**raw.headers, "Content-Type": "application/json"}
    post = json.dumps({"type": 4, "data": {"content": "the post"}}).encode()

    async def uploading() -> AsyncIterator[bytes]:
        yield post[:10]
        await asyncio.sleep(0.5)  # the rest of a board image on its way
        yield post[10:]

    async def send(body: Any) -> int:
        async with raw.session.post(url, data=body, headers=headers) as response:
            await response.read()
            return response.status

    slow = asyncio.ensure_future(send(uploading()))
    await asyncio.sleep(0.2)  # the post's request is in, its body still coming
    quick = await send(json.dumps({"type": 5}).encode())
    assert sorted([quick, await slow]) == [200, 400]
    assert len(both.responses) == 1 and [e.code for _, _, e in standin.refusals] == [40060]


async def test_an_answer_reopens_an_archived_thread_and_a_locked_one_refuses_it(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    """A message made by an interaction's answer is a message in the thread: like a post
    (and a webhook's), it reopens an archived thread; in a locked one it is refused unless
    the bot may manage threads (discord/discord-api-docs#5517: "Thread is archived")."""
    status, made, _ = await raw.call(
        "POST", f"/channels/{place.text}/threads", {"name": "game", "type": 11}
    )
    assert status == 200
    thread = int(made["id"])
    body = {"type": 4, "data": {"content": "the post"}}
    standin.archive_thread(thread)
    pressed = _interaction(standin, place, kind=3)
    pressed.channel_id = thread
    assert (await raw.call("POST", _callback(pressed), body))[0] == 200
    assert standin.channel(thread)["archived"] is False
    standin.archive_thread(thread, locked=True)
    standin.deny_bot(place.text, MANAGE_THREADS)
    locked = _interaction(standin, place, kind=3)
    locked.channel_id = thread
    status, data, _ = await raw.call("POST", _callback(locked), body)
    assert (status, data["code"]) == (400, 50083) and not locked.responses
    assert [m.content for m in standin.messages(thread)] == ["the post"]


async def test_autocomplete_choices_and_modals(standin: StandIn, raw: Raw, place: Place) -> None:
    choices = [{"name": str(i), "value": str(i)} for i in range(26)]
    asked = _interaction(standin, place, kind=4)
    data = await _refused(raw, "POST", _callback(asked), {"type": 8, "data": {"choices": choices}})
    assert _first_error(data)[0] == ["data", "choices"]
    long_value = [{"name": "n", "value": "v" * 101}]
    data = await _refused(
        raw, "POST", _callback(asked), {"type": 8, "data": {"choices": long_value}}
    )
    assert _first_error(data)[0] == ["data", "choices", "0", "value"]
    assert (
        await raw.call("POST", _callback(asked), {"type": 8, "data": {"choices": choices[:25]}})
    )[0] == 200
    text = {"type": 4, "custom_id": "list", "style": 2, "label": "l" * 46}
    modal = {"title": "t" * 46, "custom_id": "m", "components": [{"type": 1, "components": [text]}]}
    shown = _interaction(standin, place)
    data = await _refused(raw, "POST", _callback(shown), {"type": 9, "data": modal})
    assert set(data["errors"]["data"]) == {"title", "components"}


# -- faults ---------------------------------------------------------------------------------
async def test_a_429_carries_discords_body_and_headers_and_closes_its_bucket(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    route = "/channels/{channel}/messages"
    standin.faults.rate_limit("POST", route, retry_after=0.3)
    path = f"/channels/{place.text}/messages"
    status, data, headers = await raw.call("POST", path, {"content": "x"})
    assert status == 429
    assert data == {"message": "You are being rate limited.", "retry_after": 0.3, "global": False}
    assert headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Remaining"] == "0"
    assert {"X-RateLimit-Bucket", "X-RateLimit-Reset-After", "Retry-After"} <= set(headers)
    assert (await raw.call("POST", path, {"content": "x"}))[0] == 429  # did not wait
    assert standin.messages(place.text) == []
    time.sleep(0.35)
    assert (await raw.call("POST", path, {"content": "x"}))[0] == 200


async def test_a_global_429_holds_every_route_but_interactions(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    standin.faults.rate_limit("GET", "/channels/{channel}", retry_after=0.3, scope="global")
    status, data, headers = await raw.call("GET", f"/channels/{place.text}")
    assert (status, data["global"], headers["X-RateLimit-Global"]) == (429, True, "true")
    assert (await raw.call("POST", f"/channels/{place.text}/messages", {"content": "x"}))[0] == 429
    answer = _interaction(standin, place)
    assert (await raw.call("POST", _callback(answer), {"type": 5}))[0] == 200


async def test_a_real_bucket_sends_headers_and_refuses_past_its_limit(
    standin: StandIn, raw: Raw, place: Place
) -> None:
    standin.faults.limit("GET", "/channels/{channel}", per=2, seconds=5)
    first = await raw.call("GET", f"/channels/{place.text}")
    assert first[0] == 200 and first[2]["X-RateLimit-Remaining"] == "1"
    assert (await raw.call("GET", f"/channels/{place.text}"))[0] == 200
    assert (await raw.call("GET", f"/channels/{place.text}"))[0] == 429


async def test_server_errors_and_slow_answers(standin: StandIn, raw: Raw, place: Place) -> None:
    path = f"/channels/{place.text}/messages"
    standin.faults.server_error("POST", "/channels/{channel}/messages", status=503, times=2)
    assert (await raw.call("POST", path, {"content": "x"}))[0] == 503
    assert (await raw.call("POST", path, {"content": "x"}))[0] == 503
    assert (await raw.call("POST", path, {"content": "x"}))[0] == 200
    standin.faults.slow("POST", "/channels/{channel}/messages", 0.5)
    started = time.perf_counter()
    assert (await raw.call("POST", path, {"content": "x"}))[0] == 200
    assert time.perf_counter() - started >= 0.5
    assert len(standin.messages(place.text)) == 2


async def test_discord_py_waits_out_a_429_retries_a_502_and_raises_a_503(
    standin: StandIn, place: Place, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", standin.api_base)
    client = discord.Client(intents=discord.Intents.none())
    await client.login(standin.token)
    try:
        channel = await client.fetch_channel(place.text)
        assert isinstance(channel, discord.TextChannel)
        route = "/channels/{channel}/messages"
        standin.faults.rate_limit("POST", route, retry_after=0.2, times=2)
        await channel.send("after two 429s")
        standin.faults.server_error("POST", route, status=502)
        await channel.send("after a 502", file=discord.File(io.BytesIO(b"png"), "b.png"))
        standin.faults.server_error("POST", route, status=503)
        with pytest.raises(discord.DiscordServerError):
            await channel.send("lost to a 503 unless the caller retries")
        sent = standin.messages(place.text)
        assert [m.content for m in sent] == ["after two 429s", "after a 502"]
        assert sent[1].attachments[0].data == b"png"
        assert standin.faults.count(429) == 2 and standin.faults.count(502) == 1
    finally:
        await client.close()
