"""How the greedy player answers M3's orders decision: Aimed Fire for units that can already
shoot someone and have no one to strike, Assault for melee units 2-4 cells from an enemy
ground unit, Advance for everyone else."""

from __future__ import annotations

from vahalite_bot.rules import combat, unit_orders
from vahalite_bot.rules.actions import GiveOrders, UnitOrder
from vahalite_bot.rules.geometry import distance
from vahalite_bot.rules.order import Order
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.sheets import WeaponKind
from vahalite_bot.rules.state import GameState, UnitState

ASSAULT_SPAN = range(2, 5)  # adjacent units strike anyway; farther ones would not arrive


def greedy_orders(state: GameState, side: Side) -> GiveOrders:
    orders = []
    for unit in state.living(side):
        order = _order_for(state, unit)
        if order is not Order.ADVANCE and unit_orders.may_take(unit, order):
            orders.append(UnitOrder(unit.id, order))
    return GiveOrders(side, tuple(orders))


def _order_for(state: GameState, unit: UnitState) -> Order:
    if unit.is_flyer or state.position(unit) is None:
        return Order.ADVANCE
    options = combat.attack_options(state, unit)
    if options and not any(o.melee for o in options):
        return Order.AIMED_FIRE
    if (
        unit.embarked_in is None
        and _has_melee(unit)
        and _nearest_enemy(state, unit) in ASSAULT_SPAN
    ):
        return Order.ASSAULT
    return Order.ADVANCE


def _has_melee(unit: UnitState) -> bool:
    return any(w.kind is WeaponKind.MELEE for w in unit.weapons)


def _nearest_enemy(state: GameState, unit: UnitState) -> int:
    here = state.position(unit)
    assert here is not None
    spans = [
        distance(here, enemy.cell)
        for enemy in state.living(unit.side.other)
        if enemy.cell is not None and not enemy.is_flyer
    ]
    return min(spans, default=0)
