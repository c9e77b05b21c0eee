"""A child process for the crash test (test code: it lives beside the test, not in the
product): plays commands for ever, printing each reply.

It plays one game after another in one channel (resuming whatever game is there when it
starts): random legal actions, and now and then an undo, an undo by consent, a referee
override or a passed deadline. After each command commits it writes
``<game> <version> <state digest> <events digest>`` on its own line: the parent knows what
must have been kept when it kills this process, and what exactly the reply said.

    python -m tests.crashplay --db sqlite+aiosqlite:///crash.db --seed 7
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from vahalite_bot.app import autoplay
from vahalite_bot.app.errors import NotFound, ServiceError
from vahalite_bot.app.replay import encode_event
from vahalite_bot.app.results import Actor, Outcome
from vahalite_bot.app.service import GameService
from vahalite_bot.codex.loader import all_sheets, demo_factions
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.rules.state import GameState
from vahalite_bot.selfplay.game import dice_in
from vahalite_bot.store.database import Database, open_database
from vahalite_bot.store.snapshot import encode_state

CHANNEL = "crash-channel"
GUILD = "crash-guild"
REFEREE = Actor("crash-referee", roles=frozenset({"crash-gm"}), guild=GUILD)
ADMIN = Actor("crash-admin", admin=True, guild=GUILD)
READY = b"ready\n"  # written once the database is open, before anything else


_SHEETS: dict[str, UnitSheet] = {}


def service_for(db: Database) -> GameService:
    if not _SHEETS:  # read once: a forked child inherits them
        _SHEETS.update(all_sheets(demo_factions()))
    return GameService(
        db, sheets=_SHEETS, scenarios={"standard": STANDARD, "skirmish": autoplay.SKIRMISH}
    )


async def run(
    url: str, seed: int, out: int, commands: int | None = None, go: int | None = None
) -> None:
    """Play until killed (or ``commands`` replies): each reply is written to fd ``out``.

    With ``go``, wait after opening the database until a byte arrives there: the test
    starts the next child while it checks what the last one left.
    """
    db = await open_database(url)
    os.write(out, READY)
    if go is not None:
        os.read(go, 1)
    service = service_for(db)
    rng = random.Random(seed)
    written = 0

    def reply(outcome: Outcome) -> None:
        nonlocal written
        state, events = state_digest(outcome.state), events_digest(outcome.events)
        os.write(out, f"{outcome.game_id} {outcome.version} {state} {events}\n".encode())
        written += 1

    try:
        if (await service.server_config(GUILD)).referee_role is None:
            await service.configure_server(ADMIN, GUILD, referee_role="crash-gm")
        game = await _current(service, reply)
        while commands is None or written < commands:
            if game.status == "ended":
                game = await _new_game(service, reply)
                continue
            game = await _step(service, game, rng, reply)
    finally:
        await db.close()


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def state_digest(state: GameState | None) -> str:
    """What a reply said the game now is (the lobby has no state yet)."""
    return "-" if state is None else digest(encode_state(state))


def events_digest(events: Any) -> str:
    """What a reply said happened: the events, as the log stores them, and every die
    they show (position, purpose, value), as the log's dice column stores them."""
    dice = [[d.position, d.purpose, d.value] for d in dice_in(tuple(events))]
    return logged_digest([encode_event(e) for e in events], dice)


def logged_digest(events: list[Any], dice: list[list[Any]]) -> str:
    return digest({"events": events, "dice": dice})


async def _current(service: GameService, reply: Callable[[Outcome], None]) -> Outcome:
    try:
        game_id = await service.game_in_channel(CHANNEL)
    except NotFound:
        return await _new_game(service, reply)
    status = await service.status(game_id)
    if status.status == "lobby":
        reply(await service.resign(game_id, autoplay.SOUTH))  # a half-made lobby: start afresh
        return await _new_game(service, reply)
    if status.paused:  # killed between a pause and its resume
        resumed = await service.ref_resume(game_id, REFEREE)
        reply(resumed)
        return resumed
    return Outcome(
        game_id,
        status.version,
        status.status,
        (),
        status.acting_side,
        status.acting_user,
        status.turn_side,
        False,
        status.state,
        status.commitment,
    )


async def _new_game(service: GameService, reply: Callable[[Outcome], None]) -> Outcome:
    created = await service.create_game(
        autoplay.on_server(autoplay.SOUTH, GUILD), CHANNEL, guild=GUILD, scenario="skirmish"
    )
    reply(created)
    steps: list[Callable[[], Awaitable[Outcome]]] = [
        lambda: service.join(created.game_id, autoplay.on_server(autoplay.NORTH, GUILD)),
        lambda: service.submit_army(
            created.game_id, autoplay.SOUTH, autoplay.SKIRMISH_ARMIES[Side.SOUTH]
        ),
        lambda: service.submit_army(
            created.game_id, autoplay.NORTH, autoplay.SKIRMISH_ARMIES[Side.NORTH]
        ),
    ]
    outcome = created
    for step in steps:
        outcome = await step()
        reply(outcome)
    return outcome


async def _step(
    service: GameService, game: Outcome, rng: random.Random, reply: Callable[[Outcome], None]
) -> Outcome:
    """One command (or two, for an undo by consent); a refusal changes nothing."""
    state, game_id = game.state, game.game_id
    assert state is not None
    acting = game.acting_side
    player = autoplay.PLAYERS[acting] if acting is not None else autoplay.SOUTH
    roll = rng.random()
    outcomes: list[Outcome] = []
    try:
        if roll < 0.05:
            outcomes.append(await service.undo(game_id, player, rng.randint(1, 2)))
        elif roll < 0.08:
            outcomes.append(await service.request_undo(game_id, player))
            other = autoplay.PLAYERS[acting.other] if acting is not None else autoplay.NORTH
            outcomes.append(await service.answer_undo(game_id, other, rng.random() < 0.7))
        elif roll < 0.10:
            unit = rng.choice([u for u in state.living()])
            hp = rng.randint(1, unit.sheet.max_hp)
            outcomes.append(await service.ref_set_hp(game_id, REFEREE, unit.id, hp))
        elif roll < 0.12:
            outcomes.append(await service.ref_undo(game_id, REFEREE, rng.randint(1, 3)))
        elif roll < 0.13:
            outcomes.append(await service.ref_pause(game_id, REFEREE))
            outcomes.append(await service.ref_resume(game_id, REFEREE))
        elif roll < 0.15:
            later = datetime.now(UTC) + timedelta(days=rng.randint(3, 30))
            outcomes.extend((await service.fire_due(later)).expired)
        else:
            outcomes.append(await autoplay.play(service, game, rng, max_commands=1))
    except (ServiceError, IllegalAction):
        pass
    for outcome in outcomes:
        reply(outcome)
    if outcomes:
        return outcomes[-1]
    return await _current(service, reply)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="database URL (a file: it gets killed)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--commands", type=int, default=None, help="stop after this many")
    args = parser.parse_args(argv)
    asyncio.run(run(args.db, args.seed, sys.stdout.fileno(), args.commands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
