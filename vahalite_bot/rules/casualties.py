"""What happens to a unit that loses HP: morale (G), destruction (F2), its passengers (H5)."""

from __future__ import annotations

from vahalite_bot.rules.context import Context
from vahalite_bot.rules.events import (
    MoraleTested,
    PassengerPlaced,
    PassengersHit,
    PlacementRequired,
    UnitDestroyed,
)
from vahalite_bot.rules.geometry import Cell, orthogonal_neighbours
from vahalite_bot.rules.state import PendingPlacement, UnitState

# H5: passengers of a destroyed transport take hits at this strength.
TRANSPORT_WRECK_STRENGTH = 1


def takes_morale_tests(unit: UnitState) -> bool:
    """G2/G3: Fearless units, units with a damaged profile and flyers never test."""
    sheet = unit.sheet
    return not (sheet.is_fearless or sheet.has_damaged_profile or unit.is_flyer)


def morale_test(ctx: Context, unit: UnitState, reason: str, credited: str | None) -> None:
    """G2: a d6 per current model; each die below Morale removes the most damaged model."""
    if not takes_morale_tests(unit):
        return
    threshold = unit.sheet.morale
    assert threshold is not None
    dice = ctx.roll_many(unit.models, f"morale {unit.id}")
    failures = sum(1 for die in dice if die.value < threshold)
    for _ in range(failures):
        unit.hp = max(0, (unit.models - 1) * unit.sheet.wounds)
    # G1: models lost to a morale test never cause another test, so a test that first
    # brings the unit to half HP spends its once-per-game half test too.
    unit.morale_tested = unit.morale_tested or unit.is_damaged
    ctx.emit(MoraleTested(unit.id, reason, threshold, dice, failures, unit.hp))
    if unit.hp == 0:
        destroy(ctx, unit, credited, "morale")


def after_damage(ctx: Context, unit: UnitState, credited: str | None, cause: str) -> None:
    """F2 or G1: destroyed at 0 HP, else the once-per-game test at half HP or below."""
    if unit.hp <= 0:
        destroy(ctx, unit, credited, cause)
    elif unit.is_damaged and not unit.morale_tested and takes_morale_tests(unit):
        unit.morale_tested = True
        morale_test(ctx, unit, "half", credited)


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
    dice = ctx.roll_many(passenger.hp, f"wreck {passenger.id}")
    damage = sum(1 for die in dice if die.value + TRANSPORT_WRECK_STRENGTH >= defense)
    passenger.hp = max(0, passenger.hp - damage)
    needed = max(1, defense - TRANSPORT_WRECK_STRENGTH)
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


def place_passenger(ctx: Context, passenger: UnitState, cell: Cell) -> None:
    passenger.cell = cell
    ctx.emit(PassengerPlaced(passenger.id, cell))
