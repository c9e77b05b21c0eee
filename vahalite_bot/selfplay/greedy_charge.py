"""The greedy player's M8 charges: each legal charge valued by its exact odds, like an attack.

A charge's value is its expected damage plus the chance to destroy the target times the
player's kill bonus; a failed charge is worth nothing and still spends the attack, which
``charge_odds`` already counts (P(reach >= L) scales everything).
"""

from __future__ import annotations

from collections.abc import Callable

from vahalite_bot.rules.actions import Charge
from vahalite_bot.rules.charge import charge_odds, charge_options
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, UnitState

# The bonus for destroying ``target`` with ``unit``'s attack, as the greedy player counts it.
KillBonus = Callable[[UnitState, UnitState], float]


def best_charge(state: GameState, side: Side, kill_bonus: KillBonus) -> tuple[float, Charge] | None:
    """The most valuable legal charge of ``side`` now, with its value; None: no charge."""
    best: tuple[float, Charge] | None = None
    for unit in state.living(side):
        for option in charge_options(state, unit):
            target = state.units[option.target]
            if target.falling:
                continue  # M2: already credited; hitting it does nothing
            odds = charge_odds(state, unit, target, option.cell)
            value = float(odds.expected) + float(odds.damage[-1]) * kill_bonus(unit, target)
            if value > 0 and (best is None or value > best[0]):
                best = (value, Charge(side, unit.id, option.target, option.cell))
    return best
