"""House-rule decisions on Discord (rulebook M3 orders, M5 reserves, M6 fall back, M8
charge): the buttons of a pending decision, the line that asks for it, and the order the
M3 slash command's text makes. Pure functions of the state: the service and the engine
still judge every action.
"""

from __future__ import annotations

from vahalite_bot.discord.tree import Refusal
from vahalite_bot.discord.words import say
from vahalite_bot.orders import GiveOrdersOrder, OrderProblem, parse_line
from vahalite_bot.rules import reserve, unit_orders
from vahalite_bot.rules.actions import Action, FinishReserves, GiveOrders
from vahalite_bot.rules.state import GameState, PendingOrders, PendingReserve

# Button verbs (``vl:<verb>:<game>:<version>``): the common answer of each decision.
ALL_ADVANCE = "advall"  # M3: every unit Advances (GiveOrders naming nobody)
NO_RESERVES = "resdone"  # M5: bring no more reserves this turn
VERBS = (ALL_ADVANCE, NO_RESERVES)


def decision_verbs(state: GameState) -> list[str] | None:
    """The buttons under a post while an M3 or M5 decision waits (None: no such decision).
    End turn and Odds are left out: neither is possible before the decision is answered."""
    pending = state.pending[0] if state.pending else None
    if isinstance(pending, PendingOrders):
        return [ALL_ADVANCE, "board"]
    if isinstance(pending, PendingReserve):
        return [NO_RESERVES, "undo", "board"]
    return None


def button_action(state: GameState | None, verb: str) -> Action | None:
    """What a decision button answers, made for the side the decision waits on (the service
    refuses anyone else); None when that decision is not the one waiting."""
    pending = state.pending[0] if state is not None and state.pending else None
    if verb == ALL_ADVANCE and isinstance(pending, PendingOrders):
        return GiveOrders(pending.side)
    if verb == NO_RESERVES and isinstance(pending, PendingReserve):
        return FinishReserves(pending.side)
    return None


def asking_line(state: GameState, lang: str, who: str, *, typing: bool) -> str | None:
    """The post's last line for an M3 or M5 decision: whom it waits on, what to type (with
    their own unit) and the button (``typing``: text orders are read in the thread)."""
    pending = state.pending[0] if state.pending else None
    how = "text" if typing else "slash"
    if isinstance(pending, PendingOrders):
        unit = unit_orders.example_unit(state, pending.side)
        return say(lang, "ask-orders", who=who, unit=unit or "-", how=how)
    if isinstance(pending, PendingReserve):
        first = state.units[pending.units[0]]
        cells = reserve.arrival_cells(state, first)
        cell = cells[0].name if cells else "-"
        return say(lang, "ask-reserves", who=who, unit=first.id, cell=cell, how=how)
    return None


def orders_order(typed: str | None) -> GiveOrdersOrder:
    """M3: ``tac1 assault, asl1 aimed`` (either language) as the order language reads
    ``orders ...``; nothing typed gives every unit Advance."""
    words = (typed or "").strip()
    order = parse_line(f"orders {words}" if words else "orders")
    if isinstance(order, OrderProblem):
        raise order
    if not isinstance(order, GiveOrdersOrder):
        raise Refusal("bad-orders", text=words[:60])
    return order
