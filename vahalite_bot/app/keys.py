"""Commands applied once: the command envelope and its idempotency key.

A retried or duplicated command (a double click, a gateway replay, a network retry) carries
the key of the first delivery: the service finds that key in the database, inside the same
transaction that would otherwise apply the command, and answers what it answered the first
time, changing nothing. The key lives in the database, so this holds across processes and
restarts. Only the little the log cannot tell is stored with it (the version before and
after, who was to act); the events and the state are rebuilt from the log, which is the
truth and never changes. A refusal is not remembered: it changed nothing, so a retry is
judged afresh (and may pass, if the game has moved on so that it is now allowed).

The key also keeps a digest of the command's arguments, as payment APIs do: the same key with
other arguments is not a retry but a client's mistake, refused (``key_mismatch``) rather than
answered with the first command's reply while the second is silently dropped.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession

from vahalite_bot.app.book import Book, GameCache, setup_of
from vahalite_bot.app.errors import InvalidRequest, NotFound
from vahalite_bot.app.replay import decode_event, entry_of, fold
from vahalite_bot.app.results import Actor, Outcome
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState
from vahalite_bot.store import repository as repo
from vahalite_bot.store import valuecodec
from vahalite_bot.store.repository import StoredKey
from vahalite_bot.store.snapshot import decode_state


@dataclass(frozen=True)
class Command:
    """One command on one game, as an adapter sends it: the envelope every method fills.

    ``action`` names the method (a key used for another command is refused, not replayed);
    ``expected_version`` is the version the caller's view was drawn at (a stale view is
    refused); ``key`` makes a second delivery return the first answer, if ``digest`` (of
    its arguments, ``digest_of``) is the first delivery's.
    """

    game_id: int
    actor: Actor
    action: str
    expected_version: int | None = None
    key: str | None = None
    digest: str | None = None

    @property
    def scope(self) -> str:
        return game_scope(self.game_id)


def game_scope(game_id: int) -> str:
    return f"game:{game_id}"


def channel_scope(channel: str) -> str:
    return f"channel:{channel}"


def guild_scope(guild: str) -> str:
    return f"guild:{guild}"


# What a retry must repeat: what the command was asked to do. Not the caller (checked on its
# own: another caller's key is ``key_reused``), not the key itself, and not the expected
# version: a client that lost the first reply may look again before it retries, and its
# command is still the same one.
_NOT_ARGUMENTS = frozenset({"actor", "key", "expected_version"})


def digest_of(call: BaseModel, **values: Any) -> str | None:
    """A digest of a checked call's arguments (``values`` replace or add some, as the command
    understands them: a set of house rules in any order is one set); None without a key.

    Canonical JSON (sorted keys, sets sorted) hashed with SHA-256: a few microseconds."""
    if getattr(call, "key", None) is None:
        return None
    arguments = {name: getattr(call, name) for name in _arguments_of(type(call))}
    arguments.update(values)
    text = json.dumps(arguments, sort_keys=True, separators=(",", ":"), default=valuecodec.encode)
    return hashlib.sha256(text.encode()).hexdigest()


@cache
def _arguments_of(schema: type[BaseModel]) -> tuple[str, ...]:
    return tuple(name for name in schema.model_fields if name not in _NOT_ARGUMENTS)


async def find(
    session: AsyncSession, scope: str, key: str, action: str, user: str, digest: str | None
) -> StoredKey | None:
    """The first answer under ``key``, if any. A key already used by another command, or by
    another caller, is refused: that is a client's bug (or a guess), not a retry; so is the
    same command with other arguments. A key stored before digests were (None) is taken
    for a retry, as it was then."""
    row = await repo.get_command_key(session, scope, key)
    if row is None:
        return None
    if row.command != action or row.answer.get("user") != user:
        raise InvalidRequest("key_reused", command=row.command)
    if row.digest is not None and digest is not None and row.digest != digest:
        raise InvalidRequest("key_mismatch", command=action)
    return row


async def remember(session: AsyncSession, row: dict[str, Any]) -> None:
    """Store a command's key with its first answer (``key_row``)."""
    await repo.add_command_key(session, row)


def key_row(
    scope: str,
    key: str,
    action: str,
    digest: str | None,
    game_id: int | None,
    answer: dict[str, Any],
    now: datetime,
) -> dict[str, Any]:
    """The row of ``command_keys`` that remembers a command's first answer."""
    return {
        "scope": scope,
        "key": key,
        "command": action,
        "digest": digest,
        "game_id": game_id,
        "answer": answer,
        "created_at": now,
    }


def answer_of(outcome: Outcome, since: int, user: str) -> dict[str, Any]:
    """What to keep of an outcome: the rest is in the log between ``since`` and its version."""
    return {
        "user": user,
        "since": since,
        "version": outcome.version,
        "status": outcome.status,
        "acting_side": _side(outcome.acting_side),
        "acting_user": outcome.acting_user,
        "turn_side": _side(outcome.turn_side),
        "board_changed": outcome.board_changed,
    }


def answer_of_book(book: Book, user: str) -> dict[str, Any]:
    """``answer_of`` the outcome ``book`` will give, before it is written (the key's row
    goes in the same trip as the game's update): the same fields, in the same order."""
    acting = book.acting_side()
    return {
        "user": user,
        "since": book.loaded.version,
        "version": book.version,
        "status": book.status,
        "acting_side": _side(acting),
        "acting_user": book.user_of(acting),
        "turn_side": _side(book.turn_side()),
        "board_changed": book.board_changed(),
    }


async def first_outcome(session: AsyncSession, row: StoredKey, cache: GameCache) -> Outcome:
    """The outcome the command under ``row`` returned, rebuilt from the game's log."""
    if row.game_id is None:
        raise NotFound("no_game", game=0)
    game = await repo.get_game(session, row.game_id)
    if game is None:
        raise NotFound("no_game", game=row.game_id)
    answer = row.answer
    since, version = int(answer["since"]), int(answer["version"])
    entries = [
        entry_of(r) for r in await repo.entries_after(session, game.id, since) if r.seq <= version
    ]
    events = tuple(decode_event(data) for entry in entries for data in entry.events)
    return Outcome(
        game_id=game.id,
        version=version,
        status=answer["status"],
        events=events,
        acting_side=_unside(answer["acting_side"]),
        acting_user=answer["acting_user"],
        turn_side=_unside(answer["turn_side"]),
        board_changed=bool(answer["board_changed"]),
        state=await _state_at(session, game.id, version, cache),
        commitment=game.commitment,
    )


async def _state_at(
    session: AsyncSession, game_id: int, version: int, cache: GameCache
) -> GameState | None:
    """The state after entry ``version``: the newest snapshot at or before it, and the
    entries up to it folded on (the same replay loading does, stopped earlier)."""
    setup = await setup_of(session, game_id, cache)
    if setup is None:
        return None  # never started
    snapshot = await repo.latest_snapshot(session, game_id, before=version + 1)
    if snapshot is None:
        return None  # the command was made in the lobby
    rows = await repo.entries_after(session, game_id, snapshot.seq)
    entries = [entry_of(r) for r in rows if r.seq <= version]
    return fold(decode_state(snapshot.state, setup), entries)


def _side(side: Side | None) -> str | None:
    return None if side is None else side.value


def _unside(value: str | None) -> Side | None:
    return None if value is None else Side(value)
