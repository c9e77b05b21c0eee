"""REST plumbing: the request log, bot-token auth, JSON and multipart bodies, error answers,
and the application-level routes (users/@me, oauth2, gateway/bot, application commands)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import BodyPartReader, web

from . import payloads
from .contract import check_commands
from .core import Core
from .errors import ApiError
from .world import Attachment

API = "/api/v10"
# Interaction callbacks and webhook calls carry their token in the path, not a bot token.
TOKEN_FREE = (f"{API}/interactions/", f"{API}/webhooks/")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py compares the content type exactly: no "; charset=utf-8" suffix.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def make_middleware(core: Core) -> Any:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        core.requests.append((request.method, request.path))
        core.notify()
        needs_token = request.path.startswith(API) and not request.path.startswith(TOKEN_FREE)
        if needs_token and request.headers.get("Authorization") != f"Bot {core.token}":
            return json_response({"message": "401: Unauthorized", "code": 0}, 401)
        fault, limits = await core.faults.before(request)
        if fault is not None:
            core.notify()
            return fault
        try:
            response = await handler(request)
            response.headers.update(limits)
            lost = core.faults.after(request)
            if lost is not None:
                core.notify()
                return lost
            return response
        except ApiError as error:
            core.refusals.append((request.method, request.path, error))
            return json_response(error.body(), error.status)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed) as error:
            # No such route: record it, so a test can tell "the stand-in lacks this" apart.
            core.unhandled.append((request.method, request.path))
            return json_response({"message": f"{error.status}: {error.reason}", "code": 0}, 404)

    return middleware


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
    """The JSON body, or a multipart one's ``payload_json`` and its ``files[n]`` in order.

    Python's json keeps big integers exact, so ids sent as numbers above 2**53 survive.
    """
    if request.content_type.startswith("multipart/"):
        body: dict[str, Any] = {}
        files: list[tuple[int, Attachment]] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue  # a nested multipart: Discord does not use them
            name = part.name or ""
            data = await part.read()
            if name == "payload_json":
                body = json.loads(data)
            elif name.startswith("files[") or name.startswith("file"):
                index = int(name[6:-1]) if name.startswith("files[") else len(files)
                content_type = part.headers.get("Content-Type", "application/octet-stream")
                files.append((index, Attachment(part.filename or name, content_type, bytes(data))))
        return body, [file for _, file in sorted(files, key=lambda pair: pair[0])]
    raw = await request.read()
    if not raw:
        return {}, []
    parsed = json.loads(raw)
    return (parsed if isinstance(parsed, dict) else {"_list": parsed}), []


def snowflake(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError:
        raise ApiError(400, 50035, f"Invalid Form Body: {key} is not snowflake") from None


def app_routes(core: Core) -> list[web.RouteDef]:
    async def users_me(request: web.Request) -> web.Response:
        return json_response(payloads.me(core.world.users[core.bot_user_id]))

    async def application_me(request: web.Request) -> web.Response:
        bot = payloads.user(core.world.users[core.bot_user_id])
        return json_response(
            {
                "id": str(core.application_id),
                "name": "Vaha-Lite",
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": bot,
                "owner": bot,
                "team": None,
                "summary": "",
                "verify_key": "0" * 64,
                "flags": 0,
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(core.world.guilds),
            }
        )

    async def gateway_bot(request: web.Request) -> web.Response:
        return json_response(
            {
                "url": core.host_url.replace("http", "ws", 1) + "/gateway",
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    async def gateway(request: web.Request) -> web.Response:
        return json_response({"url": core.host_url.replace("http", "ws", 1) + "/gateway"})

    def _scope(request: web.Request) -> int | None:
        return snowflake(request, "guild") if "guild" in request.match_info else None

    async def put_commands(request: web.Request) -> web.Response:
        if snowflake(request, "app") != core.application_id:
            raise ApiError(403, 50001, "Missing Access")
        guild_id = _scope(request)
        body, _ = await read_body(request)
        wanted = body.get("_list", [])
        check_commands(core.contract, wanted)
        old = {c["name"]: c for c in core.commands if _guild_of(c) == guild_id}
        synced = [_stored(core, c, guild_id, old.get(c["name"])) for c in wanted]
        core.commands = [c for c in core.commands if _guild_of(c) != guild_id] + synced
        core.notify()
        return json_response(synced)

    async def get_commands(request: web.Request) -> web.Response:
        guild_id = _scope(request)
        return json_response([c for c in core.commands if _guild_of(c) == guild_id])

    app = f"{API}/applications/{{app}}"
    return [
        web.get(f"{API}/users/@me", users_me),
        web.get(f"{API}/oauth2/applications/@me", application_me),
        web.get(f"{API}/applications/@me", application_me),
        web.get(f"{API}/gateway/bot", gateway_bot),
        web.get(f"{API}/gateway", gateway),
        web.put(f"{app}/commands", put_commands),
        web.get(f"{app}/commands", get_commands),
        web.put(f"{app}/guilds/{{guild}}/commands", put_commands),
        web.get(f"{app}/guilds/{{guild}}/commands", get_commands),
    ]


def _guild_of(command: dict[str, Any]) -> int | None:
    return int(command["guild_id"]) if command.get("guild_id") else None


def _stored(
    core: Core, command: dict[str, Any], guild_id: int | None, old: dict[str, Any] | None
) -> dict[str, Any]:
    """A command as Discord returns it after a bulk overwrite: ids added, defaults filled,
    the id kept when a command of that name existed."""
    stored: dict[str, Any] = {
        "type": 1,
        "description": "",
        "options": [],
        "default_member_permissions": None,
        "nsfw": False,
        "name_localizations": None,
        "description_localizations": None,
        "contexts": None,
        "integration_types": [0],
        **command,
        "id": old["id"] if old else str(core.ids.next()),
        "application_id": str(core.application_id),
        "version": str(core.ids.next()),
    }
    if guild_id is not None:
        stored["guild_id"] = str(guild_id)
    return stored
