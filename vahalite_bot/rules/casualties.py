"""What happens to a unit that loses HP: morale (G), destruction (F2), its passengers (H5)."""

from __future__ import annotations

from vahalite_bot.rules.context import Context
from vahalite_bot.rules.die_rule import DieRule
from vahalite_bot.rules.events import (
    MoraleTested,
    PassengerPlaced,
    PassengersHit,
    PlacementRequired,
    UnitDestroyed,
    UnitFalling,
)
from vahalite_bot.rules.geometry import Cell, orthogonal_neighbours
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.state import Fall, GameState, Halved, PendingPlacement, UnitState

# H5: passengers of a destroyed transport take hits at this strength.
TRANSPORT_WRECK_STRENGTH = 1


def takes_morale_tests(unit: UnitState) -> bool:
    """G2/G3: Fearless units, units with a damaged profile and flyers never test."""
    sheet = unit.sheet
    return not (sheet.is_fearless or sheet.has_damaged_profile or unit.is_flyer)


def morale_test(
    ctx: Context,
    unit: UnitState,
    reason: str,
    credited: str | None,
    move: tuple[Cell, ...] = (),
) -> None:
    """G2: a d6 per current model; each die below Morale removes the most damaged model.
    ``move``: D5, the move that set off the test, for the players to read."""
    if not takes_morale_tests(unit):
        return
    threshold = unit.sheet.morale
    assert threshold is not None
    dice = ctx.roll_many(unit.models, f"morale {unit.id}")
    failures = sum(1 for die in dice if die.value < threshold)
    for _ in range(failures):
        unit.hp = max(0, (unit.models - 1) * unit.sheet.wounds)
    # G1: models lost to a morale test never cause another test, so a test that first
    # brings the unit to half HP spends its once-per-game half test too; with M2 a half
    # test already owed by an attack still comes in the damage step.
    owed = any(h.unit == unit.id for h in ctx.state.halved)
    unit.morale_tested = unit.morale_tested or (unit.is_damaged and not owed)
    ctx.emit(MoraleTested(unit.id, reason, threshold, dice, failures, unit.hp, move))
    if unit.hp == 0:
        _at_zero(ctx, unit, credited, "morale")


def after_damage(ctx: Context, unit: UnitState, credited: str | None, cause: str) -> None:
    """F2 or G1: destroyed at 0 HP, else the once-per-game test at half HP or below."""
    if unit.hp <= 0:
        _at_zero(ctx, unit, credited, cause)
    elif unit.is_damaged and not unit.morale_tested and takes_morale_tests(unit):
        if ctx.state.has(HouseRule.DAMAGE_AT_ROUND_END):
            _defer_half_test(ctx, unit, credited)
        else:
            unit.morale_tested = True
            morale_test(ctx, unit, "half", credited)


def _at_zero(ctx: Context, unit: UnitState, credited: str | None, cause: str) -> None:
    """F2, or M2: outside the damage step a unit brought to 0 falls and stays."""
    state = ctx.state
    if not state.has(HouseRule.DAMAGE_AT_ROUND_END) or state.damage_stage:
        destroy(ctx, unit, credited, cause)
        return
    unit.hp = 0
    if any(fall.unit == unit.id for fall in state.falls):
        return  # M2: attacked again while falling, uselessly: it is credited to the first
    unit.destroyed_by = credited
    state.falls = (*state.falls, Fall(unit.id, credited, cause))
    ctx.emit(UnitFalling(unit.id, unit.side, credited, cause))


def _defer_half_test(ctx: Context, unit: UnitState, credited: str | None) -> None:
    """M2: the G1 test waits for step 4, in the order the units reached half HP."""
    state = ctx.state
    if all(h.unit != unit.id for h in state.halved):
        state.halved = (*state.halved, Halved(unit.id, credited))


def destroy(ctx: Context, unit: UnitState, credited: str | None, cause: str) -> None:
    """F2: the unit leaves the board; a transport's passenger suffers H5."""
    state = ctx.state
    wreck = state.position(unit)
    unit.hp = 0
    unit.destroyed = True
    unit.destroyed_by = credited
    unit.cell = None
    ctx.emit(UnitDestroyed(unit.id, unit.side, credited, cause))
    passenger = state.passenger_of(unit.id)
    if passenger is not None and wreck is not None:
        _wreck_passenger(ctx, passenger, unit.id, wreck, credited)


def _wreck_passenger(
    ctx: Context, passenger: UnitState, transport: str, wreck: Cell, credited: str | None
) -> None:
    """H5: a die per current HP at strength +1 (no cover), then the owner places it."""
    state = ctx.state
    passenger.embarked_in = None
    defense = passenger.sheet.defense
    rule = wreck_rule(ctx.state, passenger)
    dice = ctx.roll_many(passenger.hp, f"wreck {passenger.id}")
    damage = sum(1 for die in dice if rule.succeeds(die.value))
    passenger.hp = max(0, passenger.hp - damage)
    needed = rule.needed
    ctx.emit(
        PassengersHit(
            passenger.id,
            transport,
            TRANSPORT_WRECK_STRENGTH,
            defense,
            needed,
            dice,
            damage,
            passenger.hp,
        )
    )
    after_damage(ctx, passenger, credited, "transport")
    if passenger.destroyed:
        return
    cells = tuple(
        c
        for c in orthogonal_neighbours(wreck, state.scenario.width, state.scenario.height)
        if state.unit_at(c) is None and state.can_stand(passenger, c)
    )
    if not cells:
        destroy(ctx, passenger, credited, "no_room")
    elif len(cells) == 1:
        place_passenger(ctx, passenger, cells[0])
    else:
        state.pending = (PendingPlacement(passenger.side, passenger.id, cells), *state.pending)
        ctx.emit(PlacementRequired(passenger.id, passenger.side, cells))


def wreck_rule(state: GameState, passenger: UnitState) -> DieRule:
    """H5's dice: strength +1 against the passenger's Defense; M1's natural 1 fails too."""
    return DieRule(
        strength=TRANSPORT_WRECK_STRENGTH,
        defense=passenger.sheet.defense,
        natural_one_fails=state.has(HouseRule.NATURAL_ONE),
    )


def place_passenger(ctx: Context, passenger: UnitState, cell: Cell) -> None:
    passenger.cell = cell
    ctx.emit(PassengerPlaced(passenger.id, cell))
