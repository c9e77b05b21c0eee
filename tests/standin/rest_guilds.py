"""REST reads of users and guilds (members, roles, channels, active threads)."""

from __future__ import annotations

from aiohttp import web

from . import payloads
from .core import Core, not_found
from .rest import API, json_response, snowflake
from .world import Guild


def guild_routes(core: Core) -> list[web.RouteDef]:
    def the_guild(request: web.Request) -> Guild:
        guild = core.world.guilds.get(snowflake(request, "guild"))
        if guild is None:
            raise not_found("Guild", 10004)
        return guild

    async def get_user(request: web.Request) -> web.Response:
        found = core.world.users.get(snowflake(request, "user"))
        if found is None:
            raise not_found("User", 10013)
        return json_response(payloads.user(found))

    async def get_guild(request: web.Request) -> web.Response:
        data = payloads.guild_create(core.world, the_guild(request), core.bot_user_id)
        for live_only in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(live_only)
        return json_response(data)

    async def get_member(request: web.Request) -> web.Response:
        guild = the_guild(request)
        member = guild.members.get(snowflake(request, "user"))
        if member is None:
            raise not_found("Member", 10007)
        return json_response(payloads.member(core.world, member))

    async def get_roles(request: web.Request) -> web.Response:
        return json_response([payloads.role(r) for r in the_guild(request).roles.values()])

    async def get_channels(request: web.Request) -> web.Response:
        guild = the_guild(request)
        channels = [core.world.channels[c] for c in guild.channel_ids]
        return json_response([core.channel_payload(c) for c in channels])

    async def active_threads(request: web.Request) -> web.Response:
        guild = the_guild(request)
        threads = [
            payloads.thread(t)
            for c in guild.channel_ids
            for t in core.world.threads_of(c)
            if not t.archived
        ]
        return json_response({"threads": threads, "members": []})

    g = f"{API}/guilds/{{guild}}"
    return [
        web.get(f"{API}/users/{{user}}", get_user),
        web.get(g, get_guild),
        web.get(f"{g}/members/{{user}}", get_member),
        web.get(f"{g}/roles", get_roles),
        web.get(f"{g}/channels", get_channels),
        web.get(f"{g}/threads/active", active_threads),
    ]
