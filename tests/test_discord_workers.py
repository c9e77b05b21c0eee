"""The worker pool: what the bot sends its processes arrives whole, and smaller.

Units' sheets from the bundled factions go to the workers by name (half of a pickled
state), fielded with their options too, and a shipped scenario by its id; a sheet or board
the bundle does not have as it is (homebrew, changed) goes whole. States, their units and
cells, and events go as their fields' values, without field names or the state's caches.
"""

from __future__ import annotations

import asyncio
import gc
import pickle
from dataclasses import replace
from multiprocessing.reduction import ForkingPickler
from typing import get_args

from tests.golden.states import mid_game
from vahalite_bot.codex.loader import codex_factions, demo_factions
from vahalite_bot.discord import work
from vahalite_bot.discord.workers import Workers, register_pickling
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.dice import FairDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import STANDARD, Side, TerrainKind
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.rules.state import GameState, Pending, Phase, new_game
from vahalite_bot.scenarios.loader import shipped
from vahalite_bot.selfplay.game import game_seed, play_game
from vahalite_bot.selfplay.players import RandomPlayer

NAMES = {Side.SOUTH: "Алексей", Side.NORTH: "Bob"}


def test_a_board_drawn_in_the_pool_is_the_board_drawn_here() -> None:
    scene = mid_game()

    async def drawn() -> bytes:
        workers = Workers(1)
        try:
            return await workers.run(
                work.board_png, scene.state, list(scene.events), scene.before, NAMES, "ru"
            )
        finally:
            await workers.close()

    here = work.board_png(scene.state, list(scene.events), scene.before, NAMES, "ru")
    assert asyncio.run(drawn()) == here


def test_codex_sheets_travel_by_id_and_others_whole() -> None:
    register_pickling()  # as the pool does
    state = mid_game().state
    whole = len(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    sent = bytes(ForkingPickler.dumps(state))
    assert len(sent) < whole * 0.7
    arrived = pickle.loads(sent)
    assert {h: u.sheet for h, u in arrived.units.items()} == {
        h: u.sheet for h, u in state.units.items()
    }
    unit = next(iter(state.units.values()))
    changed: UnitSheet = replace(unit.sheet, defense=unit.sheet.defense + 1)
    back = pickle.loads(bytes(ForkingPickler.dumps(changed)))
    assert back == changed and back != work.codex_sheet(changed.faction, changed.id)


def test_fielded_codex_sheets_and_a_shipped_board_travel_by_name() -> None:
    """What a game on Discord sends: the eight codexes' sheets as fielded (the options
    chosen applied, none left to choose) on a shipped board; a changed board goes whole."""
    register_pickling()
    codex = codex_factions()
    tactical = codex["space_marines"].sheets["tactical"]
    boyz = codex["orks"].sheets["boyz"]
    forces = {
        Side.SOUTH: [("tac1", tactical.with_options(("plasma_gun", "lascannon"))),
                     ("tac2", tactical.with_options(()))],
        Side.NORTH: [("boy1", boyz.with_options(("rokkit",))), ("boy2", boyz)],
    }  # fmt: skip
    state = new_game(shipped("fortress"), forces)
    whole = len(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    sent = bytes(ForkingPickler.dumps(state))
    assert len(sent) < whole * 0.35
    assert pickle.loads(sent) == state
    for unit in state.units.values():
        assert work.reduce_sheet(unit.sheet)[0] is work.codex_sheet
    assert pickle.loads(bytes(ForkingPickler.dumps(STANDARD))) is STANDARD
    changed = replace(state.scenario, rounds=state.scenario.rounds + 1)
    assert pickle.loads(bytes(ForkingPickler.dumps(changed))) == changed
    assert work.reduce_scenario(changed)[0] is not work.shipped_scenario


Step = tuple[GameState, Action, GameState, list[Event]]  # before, action, after, events


def played(index: int) -> tuple[bytes, list[Step]]:
    """Game ``index`` of random play, its dice seed and every step: the demo factions or the
    codexes (fielded with options), with every house rule or none, on a shipped board or
    the rules' STANDARD. Game 5 holds a pending H5 placement."""
    seed = game_seed(7, index)
    moves: list[tuple[Action, GameState, list[Event]]] = []
    record = play_game(
        {side: RandomPlayer() for side in Side},
        seed,
        index,
        factions=codex_factions() if index % 2 else None,
        observe=lambda state, action, events: moves.append((action, state, list(events))),
        house=frozenset(HouseRule) if index % 3 else frozenset(),
        scenario=[shipped("standard"), shipped("fortress"), STANDARD][index % 3],
    )
    befores = [record.initial, *(after for _, after, _ in moves)]
    return seed, [(before, *move) for before, move in zip(befores, moves, strict=False)]


def test_states_from_real_games_arrive_equal_and_draw_the_same() -> None:
    """Every position of six games, through the pool's pickler: each state, its step's
    events and the state before arrive equal, without field names or the state's caches;
    the engine plays on from them as from the originals (the caches refilled), and the
    board drawn from them is the same PNG, byte for byte (every pending decision's and every
    tenth of the rest)."""
    register_pickling()
    seen: set[object] = set()
    drawn = 0
    for index in range(6):
        seed, steps = played(index)
        for number, (before, action, after, events) in enumerate(steps):
            sent = bytes(ForkingPickler.dumps((after, events, before)))
            assert b"overwatch_fired" not in sent and b"_blocking" not in sent
            arrived = pickle.loads(sent)
            assert arrived == (after, events, before)
            assert all(s._blocking is None and s._pieces is None for s in arrived[::2])
            there, there_events = apply(arrived[2], action, FairDice(seed))
            assert (there, there_events) == (after, events)
            state = arrived[0]
            assert state.blocking_cells() == after.blocking_cells()
            assert [state.pieces_left(s) for s in Side] == [after.pieces_left(s) for s in Side]
            if after.pending or number % 10 == 0:
                here = work.board_png(after, events, before, NAMES, "ru")
                assert work.board_png(*arrived, NAMES, "ru") == here
                drawn += 1
            seen |= {before.phase, after.phase, *(type(p) for p in after.pending)}
    assert seen >= {*Phase, *get_args(Pending)}
    assert drawn > 100


def test_a_worker_warms_up_on_a_board_with_every_sheet_and_terrain_kind() -> None:
    """What the first players' images would pay for otherwise: each unit's token, each
    terrain tile (and, drawn in both languages, the palette, frames and fonts)."""
    state = work.sample_board()
    placed = [u for u in state.units.values() if u.cell is not None]
    codex = {sid for f in demo_factions().values() for sid in f.sheets}
    assert {u.sheet.id for u in placed} == codex
    assert len({u.cell for u in placed}) == len(placed)
    assert {piece.kind for piece in state.terrain.values()} == set(TerrainKind)
    assert all(unit.cell not in state.terrain for unit in placed)
    work.warm()


def test_every_worker_of_a_warmed_pool_starts_warm_and_frozen_before_its_first_job() -> None:
    """A full pass of the collector walked a warmed worker's codexes, fonts and the rest,
    some 0.1 s of CPU every few seconds of a busy worker: they are frozen once warmed. The
    warm-up is each worker's own start, so no worker can miss it, whichever jobs it takes
    (one job per worker could all land on the first one up)."""

    async def frozen(warm: bool) -> list[int]:
        workers = Workers(2, warm=warm)
        try:
            await workers.warm()
            return list(await asyncio.gather(*(workers.run(gc.get_freeze_count) for _ in range(6))))
        finally:
            await workers.close()

    assert asyncio.run(frozen(warm=False)) == [0] * 6
    assert all(count > 10_000 for count in asyncio.run(frozen(warm=True)))
