"""Questions the adapters and automatic players ask: what is legal here (python-chess style)."""

from __future__ import annotations

from vahalite_bot.rules import charge, combat, fallback, movement, reserve, setup, unit_orders
from vahalite_bot.rules.actions import (
    Action,
    Advance,
    Attack,
    Charge,
    ChooseDeployOrder,
    Deploy,
    EndTurn,
    Move,
    PlacePassenger,
    PlaceSP,
    PlaceTerrain,
    RollOff,
)
from vahalite_bot.rules.engine import acting_side, check
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.state import (
    GameState,
    PendingOrders,
    PendingPlacement,
    PendingReserve,
    Phase,
)


class _AnyDice:
    """Legality never depends on a die's value: every check runs before the first roll."""

    def roll(self, position: int, purpose: str) -> int:
        return 6


def is_legal(state: GameState, action: Action) -> bool:
    try:
        check(state, action, _AnyDice())
    except IllegalAction:
        return False
    return True


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action now but resigning (always legal); empty once the game is over."""
    side = acting_side(state)
    if state.phase is Phase.ENDED:
        return []
    if state.pending:
        pending = state.pending[0]
        if isinstance(pending, PendingOrders):
            return list(unit_orders.choices(state, pending.side))  # is_legal takes any mapping
        if isinstance(pending, PendingPlacement):
            return [PlacePassenger(pending.side, pending.unit, c) for c in pending.cells]
        if isinstance(pending, PendingReserve):
            return list(reserve.placement_choices(state, pending))  # M5
        return [
            Advance(pending.side, pending.unit, True),
            Advance(pending.side, pending.unit, False),
        ]
    if state.phase is Phase.ROLL_OFF:
        return [RollOff()]
    assert side is not None
    if state.phase is Phase.DEPLOY_ORDER:
        return [ChooseDeployOrder(side, True), ChooseDeployOrder(side, False)]
    if state.phase is Phase.PLAYING:
        return _turn_actions(state)
    # Cheap filters first; is_legal (the engine's checks on a copy) settles the rest.
    cells = [c for c in state.scenario.cells() if state.scenario.in_half(side, c)]
    candidates: list[Action]
    if state.phase is Phase.TERRAIN:
        kinds = sorted(setup.terrain_left(state, side))
        free = [c for c in cells if c not in state.terrain]
        candidates = [PlaceTerrain(side, k, c) for k in kinds for c in free]
    elif state.phase is Phase.SP:
        candidates = [
            PlaceSP(side, c) for c in cells if c not in state.sps and not state.scenario.is_edge(c)
        ]
    else:
        zone = [c for c in cells if state.scenario.in_deploy_zone(side, c)]
        candidates = [Deploy(side, u.id, c) for u in setup.undeployed(state, side) for c in zone]
        candidates += reserve.hold_candidates(state, side)  # M5
    return [a for a in candidates if is_legal(state, a)]


def _turn_actions(state: GameState) -> list[Action]:
    side = state.active
    assert side is not None
    actions: list[Action] = []
    units = list(state.living(side))
    if not state.attack_step:
        for unit in units:
            if unit.moved:
                continue
            destinations = movement.reachable(state, unit).values()
            for destination in destinations:
                actions.append(Move(side, unit.id, destination.path))
            if fallback.may_fall_back(state, unit):  # M6: the same move without the test
                actions += [
                    Move(side, unit.id, d.path, fall_back=True)
                    for d in destinations
                    if fallback.fall_back_problem(state, unit, d.cell) is None
                ]
    for unit in units:
        for option in combat.attack_options(state, unit):
            actions.append(Attack(side, unit.id, option.target, melee=option.melee))
        for charging in charge.charge_options(state, unit):  # M8
            actions.append(Charge(side, unit.id, charging.target, charging.cell))
    actions.append(EndTurn(side))
    return actions
