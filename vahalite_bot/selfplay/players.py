"""Automatic players: the protocol, and the random player (uniform over legal actions)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Protocol

from vahalite_bot.rules import reserve, setup
from vahalite_bot.rules.actions import Action, Deploy, PlaceSP, PlaceTerrain
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.queries import is_legal, legal_actions
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.sheets import UnitType
from vahalite_bot.rules.state import GameState, Phase, UnitState


class Player(Protocol):
    name: str

    def choose(self, state: GameState, rng: random.Random) -> Action:
        """A legal action for the side that must act now (``engine.acting_side``)."""
        ...


class NoLegalAction(RuntimeError):
    """The engine offered nothing although the game is not over: a bug somewhere."""


class RandomPlayer:
    """Uniform over ``legal_actions`` (resigning aside)."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random) -> Action:
        if state.phase in setup.SETUP_PHASES and not state.pending:
            # legal_actions tries every setup candidate with a full apply; drawing candidates
            # in random order and keeping the first legal one is the same uniform draw, at a
            # fraction of the cost.
            candidates = setup_candidates(state)
            rng.shuffle(candidates)
            return first_legal(state, candidates)
        actions = legal_actions(state)
        if not actions:
            raise NoLegalAction(f"no legal action in phase {state.phase.value}")
        return rng.choice(actions)


def setup_candidates(state: GameState) -> list[Action]:
    """Every B3-B5 action worth asking the engine about now: a superset of the legal ones."""
    side = setup.setup_actor(state)
    if side is None:
        return []
    half = setup.legal_setup_cells(state, side)
    if state.phase is Phase.TERRAIN:
        kinds = sorted(setup.terrain_left(state, side))
        return [PlaceTerrain(side, k, c) for k in kinds for c in half if c not in state.terrain]
    if state.phase is Phase.SP:
        return [PlaceSP(side, c) for c in half if c not in state.sps]
    deploys: list[Action] = [Deploy(side, u.id, c) for u, c in deploy_candidates(state, side)]
    return deploys + list(reserve.hold_candidates(state, side))  # M5


def deploy_candidates(
    state: GameState, side: Side, occupied: Mapping[Cell, UnitState] | None = None
) -> list[tuple[UnitState, Cell]]:
    """The (unit, cell) of every B5 deploy ``setup_candidates`` lists, in its order: for
    players that rank them before building actions. ``occupied``: ``state.occupied()``."""
    zone = state.scenario.zone_cells(side)
    if occupied is None:
        occupied = state.occupied()
    # can_stand asks only the unit's type (each type's cells are found once), and only
    # where there is terrain: any unit may stand on open ground.
    standing: dict[UnitType, set[Cell]] = {}
    found: list[tuple[UnitState, Cell]] = []
    terrain = state.terrain
    for u in setup.undeployed(state, side):
        if u.type not in standing:
            standing[u.type] = {c for c in zone if c not in terrain or state.can_stand(u, c)}
        stands = standing[u.type]
        found += [
            (u, c)
            for c in zone
            # B5: one unit per cell, unless it boards a transport there (H1); no Obstacle/Water.
            if (state.can_carry(occupied[c], u) if c in occupied else c in stands)
        ]
    return found


def first_legal(state: GameState, candidates: Iterable[Action]) -> Action:
    for action in candidates:
        if is_legal(state, action):
            return action
    raise NoLegalAction(f"no legal candidate in phase {state.phase.value}")
