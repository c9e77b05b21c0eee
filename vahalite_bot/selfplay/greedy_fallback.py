"""The greedy player's M6 fall backs: leaving melee, it falls back instead of testing
morale when it would have nothing to attack at its destination anyway."""

from __future__ import annotations

from dataclasses import replace

from vahalite_bot.rules import combat, fallback
from vahalite_bot.rules.actions import Move
from vahalite_bot.rules.state import GameState


def as_fall_back(state: GameState, move: Move) -> Move:
    """``move`` as a fall back when M6 allows it and costs nothing; else ``move`` as it is."""
    unit = state.units[move.unit]
    if not move.path or not fallback.may_fall_back(state, unit):
        return move
    if fallback.fall_back_problem(state, unit, move.path[-1]) is not None:
        return move
    trial = state.copy()
    ghost = trial.units[unit.id]
    if trial.unit_at(move.path[-1]) is not None:
        return replace(move, fall_back=True)  # embarking: no attack from inside anyway
    ghost.disembarked = ghost.embarked_in is not None  # H3: no attack after disembarking
    ghost.cell, ghost.embarked_in, ghost.moved = move.path[-1], None, True
    if combat.attack_options(trial, ghost):
        return move  # it would rather keep its attack and risk the test
    return replace(move, fall_back=True)
