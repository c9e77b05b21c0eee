"""Chance nodes for the search player: the states an action can lead to, with their odds.

An attack's outcomes come from the engine's own exact distribution
(``combat.damage_distribution``, the ``distribution_of`` convolution that the odds shown to
players use): each possible damage is produced by the engine itself, fed dice scripted to
give that damage, and weighted by its exact probability. Dice the distribution does not
cover (morale tests after the damage, Overwatch, a charge's reach, a wreck) are drawn from a
seeded generator: those outcomes are determinized samples, the same for a given seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from vahalite_bot.rules import combat
from vahalite_bot.rules.actions import Action, Attack
from vahalite_bot.rules.combat import DieOdds
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.events import AttackResolved, Event
from vahalite_bot.rules.state import GameState

ATTACK_PURPOSE = "attack "
COVER_PURPOSE = "cover "
NEGLIGIBLE = 0.01  # outcomes rarer than this are left out (the others share their weight)


@dataclass(frozen=True)
class Outcome:
    probability: float
    state: GameState
    events: tuple[Event, ...]


class SampledDice:
    """Fair faces from a seeded generator: a determinized draw of every die."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self, position: int, purpose: str) -> int:
        return self._rng.randint(1, 6)


class ScriptedAttackDice(SampledDice):
    """The attack's first ``hits`` dice succeed, the rest fail, every cover re-roll saves
    nothing; other dice are sampled. Success and failure use the faces 6 and 1, which every
    die rule orders that way (die_rule: the succeeding faces are upward closed)."""

    def __init__(self, hits: int, seed: int) -> None:
        super().__init__(seed)
        self._hits = hits

    def roll(self, position: int, purpose: str) -> int:
        if purpose.startswith(ATTACK_PURPOSE):
            self._hits -= 1
            return 6 if self._hits >= 0 else 1
        if purpose.startswith(COVER_PURPOSE):
            return 6
        return super().roll(position, purpose)


def outcomes(state: GameState, action: Action, seed: int, samples: int = 1) -> list[Outcome]:
    """Where ``action`` leads: an attack's every damage with its exact probability, any
    other action ``samples`` determinized draws of equal weight."""
    if isinstance(action, Attack):
        exact = _attack_outcomes(state, action, seed)
        if exact:
            return exact
    drawn = []
    for i in range(samples):
        after, events = apply(state, action, SampledDice(seed + i))
        drawn.append(Outcome(1 / samples, after, tuple(events)))
    return drawn


@cache
def distribution(odds: tuple[DieOdds, ...], hp: int) -> tuple[float, ...]:
    """``combat.distribution_of`` in floats, once per distinct case (it is exact and slow)."""
    return tuple(float(p) for p in combat.distribution_of(odds, hp))


def _attack_outcomes(state: GameState, action: Attack, seed: int) -> list[Outcome]:
    unit, target = state.units[action.unit], state.units[action.target]
    weapons = combat.choose_weapons(state, unit, target, action.weapons, action.melee)
    dist = distribution(tuple(combat.dice_odds(state, unit, target, weapons)), target.hp)
    kept = [(damage, p) for damage, p in enumerate(dist) if p >= NEGLIGIBLE]
    total = sum(p for _, p in kept)
    result = []
    for damage, p in kept:
        # Every die succeeding scores one damage, so ``damage`` successes give ``damage``.
        after, events = apply(state, action, ScriptedAttackDice(damage, seed))
        dealt = next((e.damage for e in events if isinstance(e, AttackResolved)), -1)
        if dealt != damage:
            return []  # a rule the script cannot reproduce: sample instead
        result.append(Outcome(p / total, after, tuple(events)))
    return result
