"""Automatic players: the protocol, and the random player (uniform over legal actions)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from vahalite_bot.rules import reserve, setup
from vahalite_bot.rules.actions import Action, Deploy, PlaceSP, PlaceTerrain
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.queries import is_legal, legal_actions
from vahalite_bot.rules.sheets import UnitType
from vahalite_bot.rules.state import GameState, Phase


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
    zone = [c for c in half if state.scenario.in_deploy_zone(side, c)]
    occupied = state.occupied()
    # can_stand asks only the unit's type: each type's cells are found once.
    standing: dict[UnitType, set[Cell]] = {}
    deploys: list[Action] = []
    for u in setup.undeployed(state, side):
        if u.type not in standing:
            standing[u.type] = {c for c in zone if state.can_stand(u, c)}
        stands = standing[u.type]
        deploys += [
            Deploy(side, u.id, c)
            for c in zone
            # B5: one unit per cell, unless it boards a transport there (H1); no Obstacle/Water.
            if (state.can_carry(occupied[c], u) if c in occupied else c in stands)
        ]
    return deploys + list(reserve.hold_candidates(state, side))  # M5


def first_legal(state: GameState, candidates: Iterable[Action]) -> Action:
    for action in candidates:
        if is_legal(state, action):
            return action
    raise NoLegalAction(f"no legal candidate in phase {state.phase.value}")
