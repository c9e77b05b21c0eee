"""M2's damage step, after each round's second turn: steps (1)-(4) of the rulebook's M2.

Step (2) may stop for a decision (H5: the owner places a surviving passenger); the step
under way is kept in ``state.damage_stage`` and ``run`` picks up where it stopped. Step (5),
J3 and the next round, is ``victory``'s.
"""

from __future__ import annotations

from collections.abc import Callable

from vahalite_bot.rules import reserve
from vahalite_bot.rules.casualties import destroy, morale_test, takes_morale_tests
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.events import Advanced, DamageStep
from vahalite_bot.rules.state import Fall, GameState

LAST_STAGE = 4


def start(ctx: Context) -> bool:
    """Begin the damage step; True when steps 1-4 are done, False when paused."""
    ctx.state.damage_stage = 1
    ctx.emit(DamageStep(ctx.state.round))
    return run(ctx)


def run(ctx: Context) -> bool:
    """Go on with the step under way until done (True) or a decision is pending (False)."""
    state = ctx.state
    while state.damage_stage and not state.pending:
        if not _STAGES[state.damage_stage - 1](ctx):
            state.damage_stage = state.damage_stage + 1 if state.damage_stage < LAST_STAGE else 0
    if state.damage_stage:
        return False
    state.falls = ()
    return True


def _remove_falling(ctx: Context) -> bool:
    """(1) Remove the falling units but transports carrying a unit; M5's late reserves too."""
    state = ctx.state
    if reserve.expires_now(state):
        reserve.expire(ctx)
    # Falling passengers go first, so a transport whose passenger fell carries nobody.
    order = sorted(_falling(state), key=lambda f: state.units[f.unit].embarked_in is None)
    for fall in order:
        unit = state.units[fall.unit]
        if unit.destroyed or _carries(state, fall.unit):
            continue
        unit.embarked_in = None
        destroy(ctx, unit, fall.by, fall.cause)
    return False


def _wreck_next(ctx: Context) -> bool:
    """(2) The next falling transport, in the order they fell: H5, then it goes."""
    falls = _falling(ctx.state)
    if not falls:
        return False
    fall = falls[0]
    destroy(ctx, ctx.state.units[fall.unit], fall.by, fall.cause)
    return True


def _advance_next(ctx: Context) -> bool:
    """(3) The next chosen E10 advance, if the attacker remains and the cell is free."""
    state = ctx.state
    if not state.advances:
        return False
    chosen, state.advances = state.advances[0], state.advances[1:]
    unit = state.units[chosen.unit]
    start = unit.cell
    if unit.destroyed or start is None:
        return True
    if state.unit_at(chosen.cell) is None and state.can_stand(unit, chosen.cell):
        unit.cell = chosen.cell
        ctx.emit(Advanced(unit.id, start, chosen.cell))
    else:
        ctx.emit(Advanced(unit.id, start, None))
    return True


def _test_next(ctx: Context) -> bool:
    """(4) The next G1 test, in the order the units reached half HP."""
    state = ctx.state
    if not state.halved:
        return False
    due, state.halved = state.halved[0], state.halved[1:]
    unit = state.units[due.unit]
    if not unit.destroyed and not unit.morale_tested and takes_morale_tests(unit):
        unit.morale_tested = True
        morale_test(ctx, unit, "half", due.by)
    return True


def _falling(state: GameState) -> list[Fall]:
    return [f for f in state.falls if not state.units[f.unit].destroyed]


def _carries(state: GameState, unit_id: str) -> bool:
    return state.passenger_of(unit_id) is not None


_STAGES: tuple[Callable[[Context], bool], ...] = (
    _remove_falling,
    _wreck_next,
    _advance_next,
    _test_next,
)
