"""REST faults a test asks for: rate limits (429 with Discord's headers and body, per-route
and global buckets), server errors (500/502/503) and slow answers.

Routes are named as in Discord's documentation, after ``/api/v10``:
``faults.rate_limit("POST", "/channels/{channel}/messages", retry_after=0.4)``. A fault
answers the next ``times`` matching requests (``lost``: serves them, then answers a server
error, as when Discord's answer is lost on its way); a rate limit also closes its bucket (the
route, or every route but interactions for a global one) until ``retry_after`` has passed,
as Discord's buckets do. ``limit`` puts a real bucket on a route: ``per`` requests per
``seconds``, with ``X-RateLimit-*`` headers on every answer and 429 past the limit.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from dataclasses import dataclass, field

from aiohttp import web

API = "/api/v10"
# Interaction endpoints are not bound to the global rate limit (Discord: Rate Limits).
NOT_GLOBAL = (f"{API}/interactions/", f"{API}/webhooks/")
REASONS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}


def _pattern(method: str, route: str) -> tuple[str, re.Pattern[str]]:
    regex = re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(route))
    return method.upper(), re.compile(f"^{re.escape(API)}{regex}$")


@dataclass
class Fault:
    method: str
    path: re.Pattern[str]
    status: int  # 429, 500, 502, 503; 200 for a slow answer
    times: int | None  # None: every matching request
    retry_after: float = 0.0
    scope: str = "user"  # user, shared or global (429 only)
    delay: float = 0.0  # seconds before the request is served (slow)
    lost: bool = False  # served, then answered with ``status`` all the same
    hits: int = 0
    passed: int = 0  # below 0: matching requests still to let through before it begins

    def matches(self, method: str, path: str) -> bool:
        live = self.times is None or self.hits < self.times
        return live and self.method in ("*", method) and bool(self.path.match(path))


@dataclass
class Bucket:
    method: str
    path: re.Pattern[str]
    per: int
    seconds: float
    name: str = field(default_factory=lambda: secrets.token_hex(8))
    used: int = 0
    reset_at: float = 0.0

    def take(self) -> tuple[bool, dict[str, str]]:
        """Count a request: whether it is allowed, and the headers Discord sends."""
        now = time.time()
        if now >= self.reset_at:
            self.used, self.reset_at = 0, now + self.seconds
        allowed = self.used < self.per
        if allowed:
            self.used += 1
        left = self.reset_at - now
        return allowed, {
            "X-RateLimit-Limit": str(self.per),
            "X-RateLimit-Remaining": str(self.per - self.used),
            "X-RateLimit-Reset": f"{self.reset_at:.3f}",
            "X-RateLimit-Reset-After": f"{left:.3f}",
            "X-RateLimit-Bucket": self.name,
        }


class Faults:
    def __init__(self) -> None:
        self.rules: list[Fault] = []
        self.buckets: list[Bucket] = []
        self.closed: dict[str, float] = {}  # bucket name ("global" too) -> reopens at
        self.answered: list[tuple[str, str, int]] = []  # (method, path, status) faults gave

    # -- what a test asks for ---------------------------------------------------------------
    def rate_limit(
        self,
        method: str,
        route: str,
        *,
        retry_after: float = 0.5,
        times: int | None = 1,
        scope: str = "user",
    ) -> None:
        assert scope in ("user", "shared", "global")
        verb, path = _pattern(method, route)
        self.rules.append(Fault(verb, path, 429, times, retry_after=retry_after, scope=scope))

    def server_error(
        self, method: str, route: str, *, status: int = 502, times: int | None = 1
    ) -> None:
        assert status in REASONS
        verb, path = _pattern(method, route)
        self.rules.append(Fault(verb, path, status, times))

    def lost(self, method: str, route: str, *, status: int = 500, times: int | None = 1) -> None:
        """The request is served (the message made, the interaction answered), and its
        answer is a server error: the client cannot tell it from one that failed."""
        assert status in REASONS
        verb, path = _pattern(method, route)
        self.rules.append(Fault(verb, path, status, times, lost=True))

    def slow(
        self, method: str, route: str, seconds: float, *, times: int | None = 1, after: int = 0
    ) -> None:
        """The next ``times`` matching requests wait ``seconds`` before they are served,
        once ``after`` of them have gone through at their own pace (a retry's, say)."""
        verb, path = _pattern(method, route)
        self.rules.append(Fault(verb, path, 200, times, delay=seconds, passed=-after))

    def limit(self, method: str, route: str, *, per: int, seconds: float) -> None:
        verb, path = _pattern(method, route)
        self.buckets.append(Bucket(verb, path, per, seconds))

    def clear(self) -> None:
        self.rules.clear()
        self.buckets.clear()
        self.closed.clear()

    def count(self, status: int) -> int:
        return sum(1 for _, _, s in self.answered if s == status)

    # -- the middleware's side --------------------------------------------------------------
    async def before(self, request: web.Request) -> tuple[web.Response | None, dict[str, str]]:
        """A fault's answer to this request, or None to serve it (after any delay); and the
        rate-limit headers its answer carries."""
        method, path = request.method, request.path
        headers: dict[str, str] = {}
        now = time.time()
        if not path.startswith(NOT_GLOBAL) and self.closed.get("global", 0) > now:
            return self._refuse(method, path, 429, self.closed["global"] - now, "global", ""), {}
        for bucket in self.buckets:
            if bucket.method in ("*", method) and bucket.path.match(path):
                allowed, headers = bucket.take()
                if not allowed:
                    left = bucket.reset_at - now
                    return self._refuse(method, path, 429, left, "user", bucket.name, headers), {}
        for index, fault in enumerate(self.rules):
            name = f"route-{index}"
            if fault.status == 429 and self.closed.get(name, 0) > now and fault.path.match(path):
                # The route's bucket is still closed: a client that did not wait is refused.
                left = self.closed[name] - now
                return self._refuse(method, path, 429, left, fault.scope, name), {}
            if fault.lost or not fault.matches(method, path):
                continue
            if fault.passed < 0:
                fault.passed += 1
                continue
            fault.hits += 1
            if fault.status == 429:
                self.closed["global" if fault.scope == "global" else name] = now + fault.retry_after
                return self._refuse(method, path, 429, fault.retry_after, fault.scope, name), {}
            if fault.status in REASONS:
                return self._server_error(method, path, fault.status), {}
            self.answered.append((method, path, 200))
            await asyncio.sleep(fault.delay)
            return None, headers
        return None, headers

    def after(self, request: web.Request) -> web.Response | None:
        """A lost answer: the request was served, and this is what the client gets."""
        method, path = request.method, request.path
        for fault in self.rules:
            if fault.lost and fault.matches(method, path):
                fault.hits += 1
                return self._server_error(method, path, fault.status)
        return None

    def _server_error(self, method: str, path: str, status: int) -> web.Response:
        self.answered.append((method, path, status))
        body = {"message": f"{status}: {REASONS[status]}", "code": 0}
        return web.Response(
            status=status,
            body=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )

    def _refuse(
        self,
        method: str,
        path: str,
        status: int,
        retry_after: float,
        scope: str,
        bucket: str,
        headers: dict[str, str] | None = None,
    ) -> web.Response:
        """A 429 as Discord sends it: the body (message, retry_after, global) and headers."""
        self.answered.append((method, path, status))
        is_global = scope == "global"
        out = dict(headers or {})
        # Discord's API answers through Google's front end; a 429 without "Via" is a
        # Cloudflare ban, which discord.py does not retry.
        out["Via"] = "1.1 google"
        out["Retry-After"] = str(max(1, round(retry_after)))
        out["X-RateLimit-Scope"] = scope
        if is_global:
            out["X-RateLimit-Global"] = "true"
        else:
            reset = time.time() + retry_after
            out.setdefault("X-RateLimit-Limit", "1")
            out["X-RateLimit-Remaining"] = "0"
            out["X-RateLimit-Reset"] = f"{reset:.3f}"
            out["X-RateLimit-Reset-After"] = f"{retry_after:.3f}"
            out.setdefault("X-RateLimit-Bucket", bucket)
        message = (
            "The resource is being rate limited."
            if scope == "shared"
            else "You are being rate limited."
        )
        body = {"message": message, "retry_after": round(retry_after, 3), "global": is_global}
        out["Content-Type"] = "application/json"  # exactly: discord.py compares it
        return web.Response(status=429, body=json.dumps(body).encode(), headers=out)
