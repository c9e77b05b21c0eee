"""M7: Overwatch. When an enemy ground unit ends a move orthogonally adjacent to a unit, that
unit fires at it at once with its Shooting weapons: minimum range ignored, a die succeeds
only on a natural 6 that also meets E6, cover applies, orders (M3) don't.

Movement calls ``fire_overwatch`` at the end of a move or a disembark step; M8 calls it after
a charge move. An E10 advance and an M5 placement are not moves and never call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from vahalite_bot.rules import combat
from vahalite_bot.rules.casualties import after_damage
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.events import AttackResolved
from vahalite_bot.rules.geometry import distance
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.sheets import WeaponKind
from vahalite_bot.rules.state import GameState, UnitState


def fire_overwatch(ctx: Context, mover: UnitState) -> None:
    """Every watcher of ``mover``, in roster order, fires while the mover still stands."""
    state = ctx.state
    if not state.has(HouseRule.OVERWATCH) or mover.is_flyer:
        return
    for watcher in list(state.living(mover.side.other)):
        if not _standing(mover):
            return  # shooting a destroyed (or, with M2, falling) unit would only waste fire
        weapons = overwatch_weapons(state, watcher, mover)
        if weapons:
            _fire(ctx, watcher, mover, weapons)


def overwatch_weapons(state: GameState, watcher: UnitState, mover: UnitState) -> tuple[int, ...]:
    """The Shooting weapons ``watcher`` would fire at ``mover`` now; empty: it would not."""
    if not _may_watch(state, watcher, mover):
        return ()
    return tuple(
        index
        for index, weapon in enumerate(watcher.weapons)
        if weapon.kind is WeaponKind.SHOOTING
        and combat.weapon_problem(state, watcher, weapon, mover, overwatch=True) is None
    )


def overwatch_odds(state: GameState, watcher: UnitState, mover: UnitState) -> list[combat.DieOdds]:
    """One entry per die ``watcher``'s Overwatch at ``mover`` would roll (empty: none)."""
    weapons = overwatch_weapons(state, watcher, mover)
    return combat.dice_odds(state, watcher, mover, weapons, overwatch=True)


def overwatch_distribution(
    state: GameState, watcher: UnitState, mover: UnitState
) -> list[Fraction]:
    """Exact P(damage = k) of ``watcher``'s Overwatch at ``mover``, k = 0..mover's HP."""
    weapons = overwatch_weapons(state, watcher, mover)
    return combat.damage_distribution(state, watcher, mover, weapons, overwatch=True)


def new_turn(state: GameState) -> None:
    """Once per watcher per turn: a new turn lets every unit watch again."""
    for unit in state.units.values():
        unit.overwatch_fired = False


# -- helpers -----------------------------------------------------------------------------
def _standing(mover: UnitState) -> bool:
    return mover.cell is not None and not mover.destroyed and mover.hp > 0


def _may_watch(state: GameState, watcher: UnitState, mover: UnitState) -> bool:
    """Not a flyer, not fired this turn, an enemy of a ground unit orthogonally adjacent;
    a passenger only from an open-topped transport."""
    if not state.has(HouseRule.OVERWATCH) or watcher.destroyed:
        return False
    if watcher.is_flyer or mover.is_flyer or watcher.overwatch_fired:
        return False
    if watcher.side is mover.side:
        return False
    here, there = state.position(watcher), mover.cell
    if here is None or there is None or distance(here, there) != 1:
        return False
    if watcher.embarked_in is not None:
        return state.units[watcher.embarked_in].sheet.open_topped
    return True


def _fire(ctx: Context, watcher: UnitState, mover: UnitState, weapons: Sequence[int]) -> None:
    """E5-E9 with M7's dice, then G1, F2 and H5 as after any attack (credited: J2, G4)."""
    watcher.overwatch_fired = True
    rolled = tuple(combat.roll_weapon(ctx, watcher, mover, i, overwatch=True) for i in weapons)
    hp_before = mover.hp
    mover.hp = max(0, hp_before - sum(r.damage for r in rolled))
    damaged = (
        watcher.sheet.damaged_weapons is not None
        and watcher.weapons is watcher.sheet.damaged_weapons
    )
    ctx.emit(
        AttackResolved(
            watcher.id,
            mover.id,
            WeaponKind.SHOOTING,
            rolled,
            damaged,
            hp_before - mover.hp,
            hp_before,
            mover.hp,
            overwatch=True,
        )
    )
    after_damage(ctx, mover, watcher.id, "attack")
