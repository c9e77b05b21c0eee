"""M3: orders (Advance, Assault, Aimed Fire), given before each turn's first move.

The decision is pending from the start of the player's turn (after any M5 reserves) and is
answered by one ``GiveOrders``; units it does not name have Advance. Other rules ask this
module what a unit's order allows: ``may_move`` (no move of any kind under Aimed Fire, M6
fall back and M8 charge included), ``max_move``, ``weapon_problem`` and ``die_modifier``.
"""

from __future__ import annotations

from collections.abc import Iterable

from vahalite_bot.rules.actions import GiveOrders, UnitOrder
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import OrdersGiven, OrdersRequired
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.order import Order
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.sheets import Weapon, WeaponKind
from vahalite_bot.rules.state import GameState, PendingOrders, UnitState

ALTERNATIVES = (Order.ASSAULT, Order.AIMED_FIRE)

# Members named through an enum class cost a call of the metaclass's __getattr__ hook each
# on Python 3.11 (EnumType defines one), and every move, attack and die asks what the
# orders allow: the questions below compare with these module names.
_ADVANCE, _ASSAULT, _AIMED_FIRE = Order.ADVANCE, Order.ASSAULT, Order.AIMED_FIRE
_ORDERS, _MELEE = HouseRule.ORDERS, WeaponKind.MELEE


# -- questions ---------------------------------------------------------------------------
def order_of(state: GameState, unit: UnitState) -> Order:
    """The unit's order this turn (Advance whenever M3 is off)."""
    return unit.order if state.has(_ORDERS) else _ADVANCE


def move_problem(state: GameState, unit: UnitState) -> IllegalAction | None:
    """Why the unit's order forbids it any move now (Aimed Fire), or None."""
    if order_of(state, unit) is _AIMED_FIRE:
        return IllegalAction("M3", "aimed_fire_no_move", unit=unit.id)
    return None


def may_move(state: GameState, unit: UnitState) -> bool:
    return move_problem(state, unit) is None


def max_move(state: GameState, unit: UnitState) -> int:
    """The longest move the unit may make: 2 x M under Assault, else M (D1)."""
    m = unit.sheet.maneuverability
    return 2 * m if order_of(state, unit) is _ASSAULT else m


def melee_only(state: GameState, unit: UnitState) -> bool:
    """Assault allows only a melee attack."""
    return order_of(state, unit) is _ASSAULT


def weapon_problem(state: GameState, unit: UnitState, weapon: Weapon) -> IllegalAction | None:
    """Assault allows only a melee attack."""
    if weapon.kind is not _MELEE and melee_only(state, unit):
        return IllegalAction("M3", "assault_melee_only", unit=unit.id, weapon=weapon.name.en)
    return None


def die_modifier(state: GameState, unit: UnitState, kind: WeaponKind) -> int:
    """Aimed Fire: Shooting and Artillery dice +1, melee dice -1."""
    if order_of(state, unit) is not _AIMED_FIRE:
        return 0
    return -1 if kind is _MELEE else 1


def may_take(unit: UnitState, order: Order) -> bool:
    """Flyers always Advance."""
    return order is Order.ADVANCE or not unit.is_flyer


def choices(state: GameState, side: Side) -> list[GiveOrders]:
    """A small sensible set for automatic players: all Advance, then each single unit's
    alternative. Every combination would be exponential; ``GiveOrders`` takes any valid
    mapping, these are only the ones listed."""
    listed = [GiveOrders(side)]
    for unit in state.living(side):
        if state.position(unit) is None:
            continue
        for order in ALTERNATIVES:
            if may_take(unit, order):
                listed.append(GiveOrders(side, (UnitOrder(unit.id, order),)))
    return listed


def example_unit(state: GameState, side: Side) -> str:
    """A handle to show in "what to type": the side's first unit that may take orders
    (one on the board first: an M5 reserve may only Advance)."""
    takers = [u for u in state.living(side) if not u.is_flyer]
    placed = [u for u in takers if state.position(u) is not None]
    return next((u.id for u in placed or takers), "")


# -- the turn's start and the action -----------------------------------------------------
def ask(ctx: Context, side: Side) -> None:
    """At the start of ``side``'s turn: last turn's orders lapse, and with M3 the decision
    is due (not when only flyers are left: they always Advance)."""
    state = ctx.state
    for unit in state.units.values():
        if unit.side is side:
            unit.order = Order.ADVANCE
    if not state.has(HouseRule.ORDERS):
        return
    if not any(not unit.is_flyer for unit in state.living(side)):
        return
    state.pending = (*state.pending, PendingOrders(side))
    ctx.emit(OrdersRequired(side))


def give(ctx: Context, action: GiveOrders) -> None:
    """Answer the pending decision: the named orders, Advance for everyone else."""
    state = ctx.state
    chosen = check_orders(state, action.side, action.orders)
    for unit in state.units.values():
        if unit.side is action.side:
            unit.order = chosen.get(unit.id, Order.ADVANCE)
    given = tuple(
        UnitOrder(unit.id, unit.order)
        for unit in state.living(action.side)
        if unit.order is not Order.ADVANCE
    )
    ctx.emit(OrdersGiven(action.side, given))


def check_orders(state: GameState, side: Side, orders: Iterable[UnitOrder]) -> dict[str, Order]:
    """The orders by unit, or the first reason they cannot be given."""
    chosen: dict[str, Order] = {}
    for entry in orders:
        unit = state.unit(entry.unit)
        if unit.side is not side:
            raise IllegalAction("M3", "not_your_unit", unit=unit.id)  # orders for one's own
        if unit.id in chosen:
            raise IllegalAction("M3", "order_given_twice", unit=unit.id)
        if not may_take(unit, entry.order):
            raise IllegalAction("M3", "flyer_always_advances", unit=unit.id)
        if entry.order is not Order.ADVANCE and state.position(unit) is None:
            raise IllegalAction("M3", "order_off_board", unit=unit.id)
        chosen[unit.id] = entry.order
    return chosen
