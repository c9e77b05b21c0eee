"""House-rule decisions on Discord (rulebook M3 orders, M5 reserves, M6 fall back, M8
charge): the buttons, the asking line and the autocomplete (pure), then the real bot against
the stand-in: a game with ``house: M3, M5`` where reserves are held with ``/vl setup
reserve``, the orders are answered by the **All advance** button, by a Russian text order
and by ``/vl setup orders``, and reserves by **No reserves now** and ``/vl setup deploy``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.builders import Place, c, playing, sheet
from tests.discord_moves import slash_of
from tests.discord_world import World, make_world, play_until, reply_text
from tests.standin import Message
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.discord import decisions, housechoices
from vahalite_bot.discord.buttons import VERBS
from vahalite_bot.orders import FallBackOrder, OrderProblem, read_ref, resolve
from vahalite_bot.rules import charge, fallback
from vahalite_bot.rules.actions import (
    Action,
    Charge,
    FinishReserves,
    GiveOrders,
    HoldInReserve,
    Move,
    PlaceReserve,
    UnitOrder,
)
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.events import Charged
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.order import Order
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, PendingOrders, PendingReserve, Phase
from vahalite_bot.selfplay.greedy import GreedyPlayer

S, N = Side.SOUTH, Side.NORTH
BOYZ = all_sheets(codex_factions())["boyz"]


def with_house(state: GameState, *rules: HouseRule) -> GameState:
    state.house = frozenset(rules)
    return state


def orders_due() -> GameState:
    units = [Place("tac", "tactical", S, "C2"), Place("boyz", BOYZ, N, "C6")]
    state = with_house(playing(units), HouseRule.ORDERS)
    state.pending = (PendingOrders(S),)
    return state


# -- pure: the buttons and the asking line ------------------------------------------------------
def test_M3_orders_due_show_all_advance_and_say_what_to_type() -> None:
    state = orders_due()
    assert decisions.decision_verbs(state) == [decisions.ALL_ADVANCE, "board"]
    assert decisions.button_action(state, decisions.ALL_ADVANCE) == GiveOrders(S)
    assert decisions.button_action(state, decisions.NO_RESERVES) is None  # not this decision
    line = decisions.asking_line(state, "ru", "@alice", typing=True)
    assert line is not None and "`приказ tac штурм`" in line and "Все в Продвижение" in line
    slash = decisions.asking_line(state, "en", "@alice", typing=False)
    assert slash is not None and "/vl setup orders orders: tac assault" in slash
    assert all(verb in VERBS for verb in decisions.VERBS)


def test_M5_reserves_due_show_no_reserves_now_with_an_open_cell() -> None:
    units = [Place("tac", "tactical", S, "C2"), Place("boyz", BOYZ, N, "C6")]
    state = with_house(playing(units), HouseRule.RESERVE)
    state.units["tac"].cell, state.units["tac"].in_reserve = None, True
    state.pending = (PendingReserve(S, ("tac",)),)
    assert decisions.decision_verbs(state) == [decisions.NO_RESERVES, "undo", "board"]
    assert decisions.button_action(state, decisions.NO_RESERVES) == FinishReserves(S)
    assert decisions.button_action(state, decisions.ALL_ADVANCE) is None
    cells = housechoices.arrival_cells(state, "tac", "")
    assert cells and all(state.scenario.in_deploy_zone(S, c(v)) for _, v in cells)
    line = decisions.asking_line(state, "en", "@alice", typing=True)
    assert line is not None and f"`arrive tac {cells[0][1]}`" in line
    assert housechoices.arrival_cells(state, "boyz", "") == []  # not a reserve


def test_M3_M5_the_example_is_a_unit_on_the_board_not_a_reserve() -> None:
    """An M5 reserve may only Advance (M3): "orders <reserve> assault" would be refused."""
    units = [
        Place("cap", "captain", S, "B1"),
        Place("tac", "tactical", S, "C2"),
        Place("boyz", BOYZ, N, "C6"),
    ]
    state = with_house(playing(units), HouseRule.ORDERS, HouseRule.RESERVE)
    state.units["cap"].cell, state.units["cap"].in_reserve = None, True
    state.pending = (PendingOrders(S),)
    line = decisions.asking_line(state, "en", "@alice", typing=True)
    assert line is not None and "`orders tac assault`" in line


def test_no_decision_keeps_the_turn_buttons() -> None:
    state = orders_due()
    state.pending = ()
    assert decisions.decision_verbs(state) is None
    assert decisions.asking_line(state, "en", "@a", typing=True) is None
    assert decisions.button_action(state, decisions.ALL_ADVANCE) is None


# -- pure: the slash commands' actions and autocomplete -----------------------------------------
def test_M3_typed_orders_read_either_language() -> None:
    state = orders_due()

    def typed(text: str | None) -> object:
        return resolve(decisions.orders_order(text), state, S)

    assert typed("tac штурм") == GiveOrders(S, (UnitOrder("tac", Order.ASSAULT),))
    assert typed(" tac aimed ") == GiveOrders(S, (UnitOrder("tac", Order.AIMED_FIRE),))
    assert typed(None) == GiveOrders(S)
    with pytest.raises(OrderProblem):
        decisions.orders_order("tac")


def test_M3_order_suggestions_complete_the_last_entry() -> None:
    units = [
        Place("tac", "tactical", S, "C2"),
        Place("asl", "assault", S, "D2"),
        Place("boyz", BOYZ, N, "C6"),
    ]
    state = with_house(playing(units), HouseRule.ORDERS)
    state.pending = (PendingOrders(S),)
    found = housechoices.orders(state, S, "tac штурм, asl ш", "ru")
    assert [v for _, v in found] == ["tac штурм, asl штурм"]  # tac is named already
    assert found[0][0] == "tac штурм, asl штурм — Нападение"
    assert [v for _, v in housechoices.orders(state, S, "", "en")] == [
        "tac assault",
        "tac aimed",
        "asl assault",
        "asl aimed",
    ]
    state.pending = ()
    assert housechoices.orders(state, S, "", "en") == []


def test_M6_fall_back_cells_end_out_of_contact() -> None:
    units = [Place("tac", "tactical", S, "C3"), Place("boyz", BOYZ, N, "C4")]
    state = with_house(playing(units), HouseRule.FALL_BACK)
    cells = [v for _, v in housechoices.fall_back_cells(state, "tac", "")]
    assert "B3" in cells and "D4" not in cells and "B4" not in cells
    move = resolve(FallBackOrder(read_ref("tac"), (c("B2"),)), state, S)  # as /vl move makes it
    assert isinstance(move, Move) and move.fall_back
    assert move.path[-1] == c("B2") and len(move.path) == 2
    state.house = frozenset()
    assert housechoices.fall_back_cells(state, "tac", "") == []


def test_M8_charge_cells_carry_the_exact_odds() -> None:
    """rulebook M8: L = 2 reaches on 7+ (21/36, 58%)."""
    units = [
        Place("asl", "assault", S, "C2"),
        Place("foe", sheet("warriors", models=10), N, "C5"),
        Place("far", "slaves", N, "F6"),
    ]
    state = with_house(playing(units), HouseRule.CHARGE)
    found = housechoices.charge_cells(state, "asl", "foe", "", "en")
    assert found[0][1] == "C4"
    assert found[0][0].startswith("C4 → foe: 2 steps, 58% to reach")
    assert housechoices.charge_cells(state, "asl", "far", "", "en") == []  # out of reach
    assert housechoices.charge_targets(state, "asl", "ru") == [
        ("foe (рывок: укажите рывок-на)", "foe")
    ]
    state.house = frozenset()
    assert housechoices.charge_cells(state, "asl", None, "", "en") == []


# -- end to end -----------------------------------------------------------------------------------
def command_of(action: Action, state: GameState) -> tuple[str, dict[str, Any]]:
    """The slash command for ``action``, the house-rule ones included."""
    match action:
        case GiveOrders(_, orders):
            words = {Order.ASSAULT: "assault", Order.AIMED_FIRE: "aimed", Order.ADVANCE: "advance"}
            typed = ", ".join(f"{o.unit} {words[o.order]}" for o in orders)
            return "vl setup orders", {"orders": typed} if typed else {}
        case HoldInReserve(_, unit, transport):
            return "vl setup reserve", {"unit": unit} | (
                {"transport": transport} if transport else {}
            )
        case PlaceReserve(_, unit, cell):
            return "vl setup deploy", {"unit": unit, "cell": cell.name}
        case FinishReserves():
            return "vl end", {}
        case Charge(_, unit, target, cell):
            return "vl attack", {"unit": unit, "target": target, "charge-to": cell.name}
        case Move(_, unit, path, True):
            return "vl move", {"unit": unit, "cell": path[-1].name, "fall-back": True}
    return slash_of(action, state)


class Table:
    """The game of one test: its thread, its players, and what has been tried."""

    def __init__(self, world: World, thread: int) -> None:
        self.world, self.thread, self.game = world, thread, 1
        self.users = {S: world.alice, N: world.bob}
        self.done: set[str] = set()

    async def state(self) -> GameState:
        state = (await self.world.status(self.game)).state
        assert state is not None
        return state

    def last_post_with(self, verb: str) -> tuple[Message, str]:
        """The latest bot post carrying the ``verb`` button, and that button's id."""
        for message in reversed(self.world.public(self.thread)):
            found = [i for i in message.custom_ids() if i.startswith(f"vl:{verb}:")]
            if found:
                return message, found[0]
        raise AssertionError(f"no post with a {verb} button")

    async def greedy(self, state: GameState) -> None:
        side = acting_side(state)
        assert side is not None
        action = GreedyPlayer().choose(state, random.Random(5))
        command, options = command_of(action, state)
        version = (await self.world.status(self.game)).version
        answered = await self.world.slash(self.users[side], self.thread, command, options)
        after = (await self.world.status(self.game)).version
        assert after > version, (action, reply_text(answered))


async def test_M3_M5_M6_M8_decisions_by_button_text_and_slash(tmp_path: Path) -> None:
    world = await make_world(tmp_path)
    try:
        new = {"points": 500, "house": "M3, M5, M6, M8"}
        await world.slash(world.alice, world.forum, "vl new", new)
        thread = int(world.standin.threads_of(world.forum)[0]["id"])
        table = Table(world, thread)
        await world.slash(world.bob, thread, "vl join")
        await world.slash(world.alice, thread, "vl army", {"faction": "space_marines"})
        await world.slash(world.bob, thread, "vl army", {"faction": "orks"})
        await play_until(world, thread, table.game, Phase.DEPLOYMENT)
        await _deploy_holding_back(table)
        await _play_decisions(table)
    finally:
        await world.close()


async def _deploy_holding_back(table: Table) -> None:
    """M5 at B5: Alice holds her first offered unit back with ``/vl setup reserve``."""
    world = table.world
    while (state := await table.state()).phase is Phase.DEPLOYMENT:
        if acting_side(state) is S and "held" not in table.done:
            offered = await world.standin.autocomplete(
                world.alice, table.thread, "vl setup reserve", {"unit": ""}, "unit"
            )
            unit = offered[0]["value"]
            await world.slash(world.alice, table.thread, "vl setup reserve", {"unit": unit})
            assert (await table.state()).units[unit].in_reserve
            table.done.add("held")
            continue
        await table.greedy(state)
    assert "held" in table.done


async def _play_decisions(table: Table) -> None:
    for _ in range(300):
        state = await table.state()
        if state.phase is Phase.ENDED or table.done == EVERY_STEP:
            break
        pending = state.pending[0] if state.pending else None
        if isinstance(pending, PendingReserve):
            await _reserves(table, state, pending)
        elif isinstance(pending, PendingOrders):
            await _orders(table, state, pending)
        elif not await _charge(table, state) and not await _fall_back(table, state):
            await table.greedy(state)
    assert table.done == EVERY_STEP
    state = await table.state()  # and the game goes on: the turn's buttons are back
    assert state.phase is Phase.PLAYING
    await table.greedy(state)


EVERY_STEP = {
    "held",
    "no reserves",
    "arrived",
    "all advance",
    "text",
    "slash",
    "charge",
    "fall back",
}


async def _charge(table: Table, state: GameState) -> bool:
    """M8 by ``/vl attack charge-to:``, the cell taken from its autocomplete."""
    side = state.active
    if "charge" in table.done or side is None:
        return False
    options = [(u, charge.charge_options(state, u)) for u in state.living(side)]
    unit, found = next(((u, o) for u, o in options if o), (None, []))
    if unit is None:
        return False
    user, target = table.users[side], found[0].target
    asked = {"unit": unit.id, "target": target, "charge-to": ""}
    offered = await table.world.standin.autocomplete(
        user, table.thread, "vl attack", asked, "charge-to"
    )
    cell = offered[0]["value"]
    assert cell in {o.cell.name for o in found if o.target == target}
    await table.world.slash(user, table.thread, "vl attack", asked | {"charge-to": cell})
    log = await (await table.world.oracle()).game_log(table.game)
    assert any(isinstance(e, Charged) and e.unit == unit.id for e in log[-1].events)
    table.done.add("charge")
    return True


async def _fall_back(table: Table, state: GameState) -> bool:
    """M6 by ``/vl move fall-back: True``, the cell taken from its autocomplete."""
    side = state.active
    if "fall back" in table.done or side is None or state.attack_step:
        return False
    units = [u for u in state.living(side) if fallback.may_fall_back(state, u)]
    user = table.users[side]
    for unit in units:
        asked = {"unit": unit.id, "cell": "", "fall-back": True}
        offered = await table.world.standin.autocomplete(
            user, table.thread, "vl move", asked, "cell"
        )
        if not offered:
            continue
        await table.world.slash(
            user, table.thread, "vl move", asked | {"cell": offered[0]["value"]}
        )
        assert (await table.state()).units[unit.id].fell_back
        table.done.add("fall back")
        return True
    return False


async def _reserves(table: Table, state: GameState, pending: PendingReserve) -> None:
    world, user = table.world, table.users[pending.side]
    if pending.side is S and "no reserves" not in table.done:
        post, button = table.last_post_with(decisions.NO_RESERVES)
        assert "**No reserves now**" in post.content and "`arrive " in post.content
        pressed = await world.standin.click(user, post, button)
        await pressed.wait_done(timeout=30)
        after = await table.state()
        assert not any(isinstance(p, PendingReserve) for p in after.pending)
        assert any(after.units[u].in_reserve for u in pending.units)
        table.done.add("no reserves")
        return
    if pending.side is S and "arrived" not in table.done:
        unit = pending.units[0]
        cells = await world.standin.autocomplete(
            user, table.thread, "vl setup deploy", {"unit": unit, "cell": ""}, "cell"
        )
        cell = cells[0]["value"]
        await world.slash(user, table.thread, "vl setup deploy", {"unit": unit, "cell": cell})
        placed = (await table.state()).units[unit]
        assert not placed.in_reserve and placed.cell == c(cell)
        table.done.add("arrived")
        return
    await table.greedy(state)


async def _orders(table: Table, state: GameState, pending: PendingOrders) -> None:
    world, user = table.world, table.users[pending.side]
    other = table.users[pending.side.other]
    if "all advance" not in table.done:
        post, button = table.last_post_with(decisions.ALL_ADVANCE)
        assert "**All advance**" in post.content and "`orders " in post.content
        assert f"<@{user}>" in post.content
        wrong = await world.standin.click(other, post, button)
        assert "not" in (await wrong.wait_done(timeout=30))[0].content  # not their side
        version = (await world.status(table.game)).version
        pressed = await world.standin.click(user, post, button)
        await pressed.wait_done(timeout=30)
        after = await world.status(table.game)
        assert after.version > version and after.state is not None
        assert not any(isinstance(p, PendingOrders) for p in after.state.pending)
        assert all(u.order is Order.ADVANCE for u in after.state.living(pending.side))
        again = await world.standin.click(user, post, button)
        assert "moved on" in (await again.wait_done(timeout=30))[0].content
        assert (await world.status(table.game)).version == after.version
        table.done.add("all advance")
        return
    unit = next(u.id for u in state.living(pending.side) if u.cell is not None)
    if "text" not in table.done:
        before = len(world.public(table.thread))
        await world.standin.post(user, table.thread, f"приказ {unit} штурм")
        await world.next_public(table.thread, before, lambda m: m.author_id != user)
        assert (await table.state()).units[unit].order is Order.ASSAULT
        table.done.add("text")
        return
    if "slash" not in table.done:
        offered = await world.standin.autocomplete(
            user, table.thread, "vl setup orders", {"orders": unit}, "orders"
        )
        value = next(o["value"] for o in offered if o["value"] == f"{unit} aimed")
        await world.slash(user, table.thread, "vl setup orders", {"orders": value})
        assert (await table.state()).units[unit].order is Order.AIMED_FIRE
        table.done.add("slash")
        return
    await table.greedy(state)
