"""Interactions: what a test dispatched, what the bot answered, and the command lookup that
turns ``"vl move", {"unit": "tac1"}`` into the option tree Discord would send."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .world import EPHEMERAL, Message

# Interaction types.
APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5

# Interaction callback types.
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
ANSWERS = (MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL)

# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5
USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 6, 7, 8, 9, 10, 11
SNOWFLAKE_TYPES = (USER, CHANNEL, ROLE, MENTIONABLE)


@dataclass
class Interaction:
    """One dispatched interaction and what the bot answered."""

    id: int
    token: str
    dispatched_at: float = 0.0  # time.perf_counter() when written to the gateway socket
    responded_at: float = 0.0  # time.perf_counter() when the initial response came
    responses: list[dict[str, Any]] = field(default_factory=list)
    followups: list[Message] = field(default_factory=list)
    # Beyond the brief: what the REST side needs.
    type: int = 2
    channel_id: int = 0
    guild_id: int | None = None
    user_id: int = 0
    message_id: int | None = None  # the message a component sat on
    original: Message | None = None  # the message the callback made (or @original edits)
    _changed: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)

    def touch(self) -> None:
        self._changed.set()

    async def _until(self, ready: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"interaction {self.id}: no {what} in {timeout} s: {self!r}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except TimeoutError:
                continue

    async def wait_response(self, timeout: float = 10) -> dict[str, Any]:
        await self._until(lambda: bool(self.responses), timeout, "callback")
        return self.responses[0]

    async def wait_followup(self, count: int = 1, timeout: float = 10) -> list[Message]:
        await self._until(lambda: len(self.followups) >= count, timeout, f"{count} followup(s)")
        return list(self.followups)

    def answered(self) -> list[Message] | None:
        """The messages that make the answer, or None while the bot has only deferred."""
        if not self.responses:
            return None
        kind = self.responses[0].get("type")
        if kind in ANSWERS:
            return [self.original] if self.original is not None else []
        # Deferred: the first followup, or an edit of the deferred original, answers it.
        if self.followups:
            return [self.followups[0]]
        if self.original is not None and self.original.edited_at is not None:
            return [self.original]
        return None

    async def wait_done(self, timeout: float = 10) -> list[Message]:
        """Until a non-deferred answer (see ``answered``); returns its messages."""
        await self._until(lambda: self.answered() is not None, timeout, "answer")
        answer = self.answered()
        assert answer is not None
        return answer

    @property
    def ephemeral(self) -> bool:
        if not self.responses:
            return False
        data = self.responses[0].get("data") or {}
        return bool(int(data.get("flags") or 0) & EPHEMERAL)


# -- commands -------------------------------------------------------------------------------
def find_command(commands: Sequence[dict[str, Any]], name: str) -> dict[str, Any]:
    """The synced slash command called ``name`` (or that name in one of its localizations:
    a test may type what a Russian user sees; the interaction carries the real name)."""
    for command in commands:
        if _called(command, name) and command.get("type", 1) == 1:
            return command
    known = sorted(c["name"] for c in commands)
    raise AssertionError(f"the bot registered no slash command {name!r} (it has {known})")


def build_options(
    command: dict[str, Any],
    path: Sequence[str],
    options: Mapping[str, Any],
    *,
    focused: str | None = None,
) -> tuple[list[dict[str, Any]], list[tuple[int, int]]]:
    """The interaction's ``options`` for ``path`` (subcommand names after the command) and
    the (type, id) pairs the ``resolved`` map needs. Raises AssertionError where the synced
    command has no such subcommand, option or choice, or lacks a required option."""
    node = command
    trail = [command["name"]]
    chain: list[dict[str, Any]] = []  # the subcommand (group) specs along the path
    for name in path:
        sub = _option(node, name)
        if sub is None or sub.get("type") not in (SUB_COMMAND, SUB_COMMAND_GROUP):
            raise AssertionError(f"/{' '.join(trail)} has no subcommand {name!r}")
        trail.append(sub["name"])
        chain.append(sub)
        node = sub
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node.get("options", [])):
        raise AssertionError(f"/{' '.join(trail)} is a group: name a subcommand")
    leaf: list[dict[str, Any]] = []
    resolved: list[tuple[int, int]] = []
    given: set[str] = set()
    focused_spec: dict[str, Any] | None = None
    for name, value in options.items():
        spec = _option(node, name)
        if spec is None:
            raise AssertionError(f"/{' '.join(trail)} has no option {name!r}")
        given.add(spec["name"])
        kind = int(spec["type"])
        entry: dict[str, Any] = {"name": spec["name"], "type": kind}
        if name == focused:
            focused_spec = spec
            entry["focused"] = True
            entry["value"] = str(value)  # the user's partial text
        else:
            _check_value(trail, spec, value)
            entry["value"] = str(value) if kind in SNOWFLAKE_TYPES else value
            if kind in SNOWFLAKE_TYPES:
                resolved.append((kind, int(value)))
        leaf.append(entry)
    if focused is None:
        for spec in node.get("options", []):
            if spec.get("required") and spec["name"] not in given:
                raise AssertionError(f"/{' '.join(trail)}: required option {spec['name']!r}")
    elif focused_spec is None:
        raise AssertionError(f"the focused option {focused!r} needs a value in options")
    elif not focused_spec.get("autocomplete"):
        raise AssertionError(f"/{' '.join(trail)} option {focused!r} has no autocomplete")
    tree: list[dict[str, Any]] = leaf
    for sub in reversed(chain):
        tree = [{"name": sub["name"], "type": sub["type"], "options": tree}]
    return tree, resolved


def _called(spec: dict[str, Any], name: str) -> bool:
    return spec["name"] == name or name in (spec.get("name_localizations") or {}).values()


def _option(node: dict[str, Any], name: str) -> dict[str, Any] | None:
    for option in node.get("options", []):
        if _called(option, name):
            return dict(option)
    return None


def _check_value(trail: list[str], spec: dict[str, Any], value: Any) -> None:
    where = f"/{' '.join(trail)} option {spec['name']!r}"
    kind = int(spec["type"])
    expected: tuple[type, ...] = {
        STRING: (str,),
        INTEGER: (int,),
        BOOLEAN: (bool,),
        NUMBER: (int, float),
    }.get(kind, (int, str))
    if not isinstance(value, expected) or (kind in (INTEGER, NUMBER) and isinstance(value, bool)):
        raise AssertionError(f"{where} takes {expected}, not {value!r}")
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise AssertionError(f"{where}: {value!r} is not one of its choices")
    if kind in (INTEGER, NUMBER):
        low, high = spec.get("min_value"), spec.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise AssertionError(f"{where}: {value!r} is out of range")
    if kind == STRING:
        low, high = spec.get("min_length"), spec.get("max_length")
        if (low is not None and len(str(value)) < low) or (
            high is not None and len(str(value)) > high
        ):
            raise AssertionError(f"{where}: {value!r} has the wrong length")
