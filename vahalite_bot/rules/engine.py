"""The one reducer: ``apply(state, action, dice) -> (state, events)``.

It checks, in order: is the game over, is a decision pending, is it this player's turn or
setup step, is the action allowed (boardgame.io's order), and only then changes a copy.
"""

from __future__ import annotations

from collections.abc import Sequence

from vahalite_bot.rules import charge, combat, movement, reserve, setup, unit_orders, victory
from vahalite_bot.rules.actions import (
    Action,
    Advance,
    Attack,
    Charge,
    ChooseDeployOrder,
    Deploy,
    EndTurn,
    FinishReserves,
    GiveOrders,
    HoldInReserve,
    Move,
    PlacePassenger,
    PlaceReserve,
    PlaceSP,
    PlaceTerrain,
    Resign,
    RollOff,
)
from vahalite_bot.rules.casualties import place_passenger
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.dice import DiceStream
from vahalite_bot.rules.errors import NO_RULE, IllegalAction
from vahalite_bot.rules.events import AdvanceChosen, Advanced, Event, SetupStep
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import (
    GameState,
    PendingAdvance,
    PendingOrders,
    PendingPlacement,
    PendingReserve,
    Phase,
)

# A member named through an enum class costs a call of the metaclass's __getattr__ hook on
# Python 3.11 (EnumType defines one): what is asked at every action compares with these.
_PLAYING, _ENDED = Phase.PLAYING, Phase.ENDED


def apply(state: GameState, action: Action, dice: DiceStream) -> tuple[GameState, list[Event]]:
    """Apply ``action``; the given state is never changed, even when this raises."""
    ctx = Context(_copy_to_change(state), dice)
    before = (ctx.state.phase, setup.setup_actor(ctx.state))
    _dispatch(ctx, action)
    victory.check_annihilation(ctx)
    after = (ctx.state.phase, setup.setup_actor(ctx.state))
    if after != before and after[1] is not None:
        ctx.emit(SetupStep(after[0].value, after[1]))
    return ctx.state, ctx.events


def check(state: GameState, action: Action, dice: DiceStream) -> None:
    """Raise the ``IllegalAction`` that ``apply`` would raise for ``action`` (if any).

    ``apply`` up to its dispatch: every refusal is made there, and what follows it (J3's
    check, the setup step's report) cannot refuse. Players try many setup candidates: the
    steps' own checks answer for them, changing nothing, so no copy is made.
    """
    if not state.pending and state.phase is not _ENDED:
        match action:
            case PlaceTerrain():
                setup.check_place_terrain(state, action)
                return
            case PlaceSP():
                setup.check_place_sp(state, action)
                return
            case Deploy():
                setup.check_deploy(state, action)
                return
    _dispatch(Context(_copy_to_change(state), dice), action)


def _copy_to_change(state: GameState) -> GameState:
    if state.phase is _ENDED:
        raise IllegalAction("J4", "game_over")
    return state.copy()


def acting_side(state: GameState) -> Side | None:
    """Who must act now: the pending decision's owner, the setup actor or the player on turn."""
    if state.pending:
        return state.pending[0].side
    if state.phase is _PLAYING:
        return state.active
    return setup.setup_actor(state)


def _dispatch(ctx: Context, action: Action) -> None:
    state = ctx.state
    if isinstance(action, Resign):
        victory.resign(ctx, action.side)
        return
    if state.pending:
        _resolve_pending(ctx, action)
        if state.damage_stage and not state.pending:
            victory.resume_damage_step(ctx)  # M2: the decision asked in the damage step
        return
    match action:
        case RollOff():
            setup.roll_off(ctx, action)
        case ChooseDeployOrder():
            setup.choose_deploy_order(ctx, action)
        case PlaceTerrain():
            setup.place_terrain(ctx, action)
        case PlaceSP():
            setup.place_sp(ctx, action)
        case Deploy():
            setup.deploy(ctx, action)
        case Move():
            _require_turn(state, action.side, action.unit)
            if state.attack_step:
                raise IllegalAction("C2", "move_after_attack", unit=action.unit)
            movement.move(ctx, action)
        case Attack():
            _require_turn(state, action.side, action.unit)
            combat.attack(ctx, action)
        case Charge():
            _require_turn(state, action.side, action.unit)
            charge.charge(ctx, action)
        case EndTurn():
            _require_turn(state, action.side, None)
            victory.end_turn(ctx)
        case HoldInReserve():
            setup.hold_in_reserve(ctx, action)
        case PlacePassenger() | Advance() | PlaceReserve() | FinishReserves() | GiveOrders():
            raise IllegalAction("C2", "nothing_pending")


def _require_turn(state: GameState, side: Side, unit_id: str | None) -> None:
    if state.phase is not _PLAYING:
        raise IllegalAction("C1", "not_playing", phase=state.phase.value)
    if state.active is not side:
        raise IllegalAction("C1", "not_your_turn", side=side.value)
    if unit_id is not None and state.unit(unit_id).side is not side:
        # No rule gives a player the other side's units: nothing to cite (issue 19).
        raise IllegalAction(NO_RULE, "not_your_unit", unit=unit_id)


def _resolve_pending(ctx: Context, action: Action) -> None:
    state = ctx.state
    pending = state.pending[0]
    if isinstance(pending, PendingReserve):
        _resolve_reserve(ctx, pending, action)
        return
    if isinstance(pending, PendingOrders):
        _resolve_orders(ctx, pending, action)
        return
    if not isinstance(action, PlacePassenger | Advance) or action.side is not pending.side:
        rule = "H5" if isinstance(pending, PendingPlacement) else "E10"
        raise IllegalAction(rule, "decision_pending", unit=pending.unit, side=pending.side.value)
    if action.unit != pending.unit:
        raise IllegalAction("C2", "decision_pending", unit=pending.unit, side=pending.side.value)
    unit = state.unit(action.unit)
    if isinstance(pending, PendingPlacement):
        if not isinstance(action, PlacePassenger):
            raise IllegalAction(
                "H5", "decision_pending", unit=pending.unit, side=pending.side.value
            )
        if action.cell not in pending.cells:
            cells = " ".join(c.name for c in pending.cells)
            raise IllegalAction("H5", "placement_not_allowed", cell=action.cell.name, cells=cells)
        place_passenger(ctx, unit, action.cell)
    else:
        if not isinstance(action, Advance):
            raise IllegalAction(
                "E10", "decision_pending", unit=pending.unit, side=pending.side.value
            )
        _advance(ctx, pending, action.accept)
    state.pending = state.pending[1:]


def _resolve_reserve(ctx: Context, pending: PendingReserve, action: Action) -> None:
    """M5: place a reserve unit, or finish placing them for this turn."""
    if not isinstance(action, PlaceReserve | FinishReserves) or action.side is not pending.side:
        raise IllegalAction("M5", "reserves_pending", side=pending.side.value)
    if isinstance(action, FinishReserves):
        reserve.finish(ctx, action)
        ctx.state.pending = ctx.state.pending[1:]
    else:
        reserve.place(ctx, pending, action)


def _resolve_orders(ctx: Context, pending: PendingOrders, action: Action) -> None:
    """M3: the turn's orders, given in one action before anything else."""
    if not isinstance(action, GiveOrders) or action.side is not pending.side:
        example = unit_orders.example_unit(ctx.state, pending.side)
        raise IllegalAction("M3", "orders_pending", side=pending.side.value, unit=example)
    unit_orders.give(ctx, action)
    ctx.state.pending = ctx.state.pending[1:]


def _advance(ctx: Context, pending: PendingAdvance, accept: bool) -> None:
    """E10: move into the destroyed target's cell; this is not a move."""
    unit = ctx.state.unit(pending.unit)
    start = unit.cell
    assert start is not None
    if accept and ctx.state.has(HouseRule.DAMAGE_AT_ROUND_END):
        # M2: chosen now, made in the damage step's step 3.
        ctx.state.advances = (*ctx.state.advances, pending)
        ctx.emit(AdvanceChosen(unit.id, pending.cell))
        return
    if accept and ctx.state.unit_at(pending.cell) is None:
        unit.cell = pending.cell
        ctx.emit(Advanced(unit.id, start, pending.cell))
    else:
        ctx.emit(Advanced(unit.id, start, None))


def replay(
    initial: GameState, actions: Sequence[Action], dice: DiceStream
) -> tuple[GameState, list[Event]]:
    """Same setup + same actions + same dice = same state and events, always."""
    state, events = initial, []
    for action in actions:
        state, new = apply(state, action, dice)
        events.extend(new)
    return state, events
