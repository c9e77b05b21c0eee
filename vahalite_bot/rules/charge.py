"""M8 Charge: as its attack, a unit rushes at an enemy ground unit and strikes in melee.

The player names an empty cell orthogonally next to the target; L is the shortest legal
path there (D1-D3, Maneuverability aside: the 2D6 is the charge's reach). 2D6 give reach 1
on 2-6, 2 on 7-10, 3 on 11-12 (no roll when L is 1). Made, the unit stands on the cell
(not a move under C2: the charge is its attack), M7 Overwatch fires, then the melee blow
with one extra die on one melee weapon (per current model if per-model), none if the
target is in Cover or Fortification. Failed, the unit stays and its attack is spent.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction

from vahalite_bot.rules import combat, movement, overwatch, unit_orders
from vahalite_bot.rules.actions import Attack, Charge
from vahalite_bot.rules.contact import enemies_touching
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import Charged
from vahalite_bot.rules.geometry import Cell, distance, orthogonal_neighbours
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.sheets import WeaponKind
from vahalite_bot.rules.state import GameState, UnitState

MAX_REACH = 3  # 11-12 on 2D6: no charge can go farther, so a longer one is refused
# P(reach >= L) for L = 1, 2, 3 from 2D6: 36/36, 21/36 (7+), 3/36 (11+).
REACH_CHANCE = {1: Fraction(1), 2: Fraction(21, 36), 3: Fraction(3, 36)}
# Asked for every unit at every decision: a module name, not an enum member named through
# its class, which costs a metaclass hook call on Python 3.11 (see rules/engine.py).
_CHARGE = HouseRule.CHARGE


@dataclass(frozen=True)
class ChargeOption:
    """A legal charge now: the target, the cell beside it, and the shortest path there."""

    target: str
    cell: Cell
    path: tuple[Cell, ...]


@dataclass(frozen=True)
class ChargeOdds:
    """Exact odds of a charge: P(reach >= L) and P(damage = k), k = 0..target HP
    (a failed charge deals 0). Overwatch before the blow is not counted."""

    length: int
    made: Fraction
    damage: tuple[Fraction, ...]

    @property
    def expected(self) -> Fraction:
        return sum((k * p for k, p in enumerate(self.damage)), Fraction(0))


def reach_of(total: int) -> int:
    """M8: the reach a 2D6 total gives."""
    if total <= 6:
        return 1
    return 2 if total <= 10 else 3


# -- questions ---------------------------------------------------------------------------
def charger_problem(state: GameState, unit: UnitState) -> IllegalAction | None:
    """Why ``unit`` may not charge at all now (None: it may, given a target and a cell)."""
    if not state.has(HouseRule.CHARGE):
        return IllegalAction("M8", "charge_not_in_game", unit=unit.id)
    if unit.attacked:
        return IllegalAction("E5", "already_attacked", unit=unit.id)
    if unit.fell_back:
        return IllegalAction("M6", "fell_back_cannot_attack", unit=unit.id)
    if unit.disembarked:
        return IllegalAction("H3", "disembarked_cannot_attack", unit=unit.id)
    if unit.embarked_in is not None:
        return IllegalAction("E13", "embarked_cannot_charge", unit=unit.id)
    if unit.cell is None:
        return IllegalAction("C2", "not_on_board", unit=unit.id)
    if unit.is_flyer or unit.is_ground_vehicle:
        return IllegalAction("M8", "cannot_charge_type", unit=unit.id)
    if not any(w.kind is WeaponKind.MELEE for w in unit.weapons):
        return IllegalAction("M8", "charge_without_melee", unit=unit.id)
    ordered = unit_orders.move_problem(state, unit)  # M3: Aimed Fire, no charge either
    if ordered is not None:
        return ordered
    enemies = enemies_touching(state, unit, unit.cell)
    if enemies:
        return IllegalAction("M8", "charge_from_contact", unit=unit.id, enemy=enemies[0].id)
    return None


def target_problem(state: GameState, unit: UnitState, target: UnitState) -> IllegalAction | None:
    """Why ``target`` cannot be charged by ``unit`` (None: it can)."""
    if target.side is unit.side:
        return IllegalAction("E5", "target_is_friendly", target=target.id)
    if target.in_reserve:
        return IllegalAction("M5", "target_in_reserve", target=target.id)
    if target.cell is None:
        return IllegalAction("H4", "target_embarked", target=target.id)
    if target.is_flyer:
        return IllegalAction("E12", "flyer_no_melee", unit=unit.id, target=target.id)
    return None


def check_charge(
    state: GameState, unit: UnitState, target: UnitState, cell: Cell
) -> tuple[Cell, ...]:
    """The charge's shortest legal path, or raise the first reason it is illegal."""
    problem = charger_problem(state, unit) or target_problem(state, unit, target)
    if problem is not None:
        raise problem
    assert target.cell is not None
    if not state.scenario.on_board(cell):
        raise IllegalAction("D1", "off_board", cell=cell.name)
    if distance(cell, target.cell) != 1:
        raise IllegalAction("M8", "charge_cell_not_beside", cell=cell.name, target=target.id)
    occupant = state.unit_at(cell)
    if occupant is not None:
        raise IllegalAction("D3", "end_not_empty", cell=cell.name, occupant=occupant.id)
    step = movement.step_problem(state, unit, cell)
    if step is not None:
        raise step
    path = charge_path(state, unit, cell)
    if path is None:
        raise IllegalAction("M8", "charge_no_path", unit=unit.id, cell=cell.name)
    if len(path) > MAX_REACH:
        raise IllegalAction("M8", "charge_too_far", unit=unit.id, cell=cell.name, length=len(path))
    return path


def charge_path(
    state: GameState, unit: UnitState, cell: Cell, limit: int | None = None
) -> tuple[Cell, ...] | None:
    """A shortest path of orthogonal steps (D1-D3) from the unit to ``cell``, or None."""
    return _paths(state, unit, limit).get(cell)


def charge_options(state: GameState, unit: UnitState) -> list[ChargeOption]:
    """Every legal charge of ``unit`` now: each target, each empty cell beside it in reach."""
    if not state.has(_CHARGE):
        return []  # charger_problem's first answer, without building the refusal
    if charger_problem(state, unit) is not None:
        return []
    paths = _paths(state, unit, MAX_REACH)
    options: list[ChargeOption] = []
    for target in state.living(unit.side.other):
        if target_problem(state, unit, target) is not None:
            continue
        assert target.cell is not None
        for cell in _beside(state, target.cell):
            path = paths.get(cell)
            if path and state.unit_at(cell) is None:
                options.append(ChargeOption(target.id, cell, path))
    return options


def reach_chance(length: int) -> Fraction:
    """P(the 2D6 reach >= ``length``)."""
    return REACH_CHANCE.get(length, Fraction(0))


def blow(
    state: GameState, unit: UnitState, target: UnitState
) -> tuple[tuple[int, ...], tuple[int, int] | None]:
    """The charge's melee weapons (all that reach) and its bonus: (weapon, extra dice), on
    the weapon where the extra die is worth most; None into Cover or Fortification."""
    weapons = combat.choose_weapons(state, unit, target, None, True)
    if _in_terrain(state, target):
        return weapons, None

    def worth(index: int) -> tuple[Fraction, int]:
        return (_extra_count(unit, index) * _die_chance(state, unit, target, index), -index)

    best = max(weapons, key=worth)
    return weapons, (best, _extra_count(unit, best))


def charge_odds(state: GameState, unit: UnitState, target: UnitState, cell: Cell) -> ChargeOdds:
    """The exact odds of ``unit`` charging ``target`` via ``cell`` (raises if illegal)."""
    path = check_charge(state, unit, target, cell)
    trial = state.copy()
    ghost, victim = trial.units[unit.id], trial.units[target.id]
    ghost.cell = cell
    weapons, bonus = blow(trial, ghost, victim)
    dice = list(combat.dice_odds(trial, ghost, victim, weapons))
    if bonus is not None:
        index, extra = bonus
        dice += combat.dice_odds(trial, ghost, victim, (index,))[:1] * extra
    made = reach_chance(len(path))
    damage = [made * p for p in combat.distribution_of(dice, victim.hp)]
    damage[0] += 1 - made
    return ChargeOdds(len(path), made, tuple(damage))


# -- the action --------------------------------------------------------------------------
def charge(ctx: Context, action: Charge) -> None:
    state = ctx.state
    unit = state.unit(action.unit)
    target = state.unit(action.target)
    path = check_charge(state, unit, target, action.cell)
    start = unit.cell
    assert start is not None
    dice = () if len(path) == 1 else ctx.roll_many(2, f"charge {unit.id}>{target.id}")
    reach = reach_of(sum(d.value for d in dice)) if dice else None
    made = reach is None or reach >= len(path)
    state.attack_step = True  # the charge is the attack: no unit moves after it (C2)
    ctx.emit(Charged(unit.id, target.id, start, action.cell, path, len(path), dice, reach, made))
    if not made:
        unit.attacked = True  # "otherwise it stays and its attack is spent"
        return
    unit.cell = action.cell
    overwatch.fire_overwatch(ctx, unit)  # M7 fires before the blow (when it is on)
    if unit.destroyed or target.destroyed:
        unit.attacked = True
        return
    weapons, bonus = blow(state, unit, target)
    combat.attack(ctx, Attack(unit.side, unit.id, target.id, weapons, True), charge_dice=bonus)


# -- helpers -----------------------------------------------------------------------------
def _paths(state: GameState, unit: UnitState, limit: int | None) -> dict[Cell, tuple[Cell, ...]]:
    """Shortest paths (D1-D3) from the unit's cell to every cell it could pass through."""
    start = unit.cell
    if start is None:
        return {}
    paths: dict[Cell, tuple[Cell, ...]] = {start: ()}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        path = paths[here]
        if limit is not None and len(path) >= limit:
            continue
        for step in _beside(state, here):
            if step not in paths and movement.step_problem(state, unit, step) is None:
                paths[step] = (*path, step)
                queue.append(step)
    return paths


def _beside(state: GameState, cell: Cell) -> tuple[Cell, ...]:
    return orthogonal_neighbours(cell, state.scenario.width, state.scenario.height)


def _in_terrain(state: GameState, target: UnitState) -> bool:
    """6th penalises charging into terrain: a target in Cover or Fortification, any type."""
    kind = None if target.cell is None else state.terrain_kind(target.cell)
    return kind is not None and kind.gives_cover


def _extra_count(unit: UnitState, index: int) -> int:
    """E7 for the extra die: one per current model on a per-model weapon, else one."""
    return unit.attack_models if unit.weapons[index].per_model else 1


def _die_chance(state: GameState, unit: UnitState, target: UnitState, index: int) -> Fraction:
    odds = combat.dice_odds(state, unit, target, (index,))
    return odds[0].probability if odds else Fraction(0)
