"""Attacks (rulebook E1-E14): who may attack whom with what, the odds, and the dice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from vahalite_bot.rules import unit_orders
from vahalite_bot.rules.actions import Attack
from vahalite_bot.rules.casualties import after_damage
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.die_rule import DieRule
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import AdvanceOffered, AttackResolved, WeaponRolled
from vahalite_bot.rules.geometry import Cell, distance, has_line_of_sight, sight_blockers
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import TerrainKind
from vahalite_bot.rules.sheets import COVER_PROTECTS, Weapon, WeaponKind
from vahalite_bot.rules.state import GameState, PendingAdvance, UnitState
from vahalite_bot.rules.weapon_skill import melee_modifier

RANGED = (WeaponKind.SHOOTING, WeaponKind.ARTILLERY)
# Members named through an enum class cost a call of the metaclass's __getattr__ hook each
# on Python 3.11 (EnumType defines one): the questions automatic players ask for every
# unit and spot, and every die's rule, compare with these module names.
_MELEE, _SHOOTING, _ARTILLERY = WeaponKind.MELEE, WeaponKind.SHOOTING, WeaponKind.ARTILLERY
_HEIGHT, _NATURAL_ONE = TerrainKind.HEIGHT, HouseRule.NATURAL_ONE


@dataclass(frozen=True)
class AttackOption:
    """A legal attack: the target, melee or not, and the weapons (indexes) that reach."""

    target: str
    melee: bool
    weapons: tuple[int, ...]

    def __init__(self, target: str, melee: bool, weapons: tuple[int, ...]) -> None:
        # Written out: the generated frozen __init__ sets each field through
        # object.__setattr__, twice as slow, and players ask for options thousands of times.
        self.__dict__.update(target=target, melee=melee, weapons=weapons)


@dataclass(frozen=True)
class DieOdds:
    """One die of an attack: the d6 it needs, and the cover re-roll's need (E6, E8)."""

    needed: int
    cover_value: int | None

    @property
    def probability(self) -> Fraction:
        p = _at_least(self.needed)
        if self.cover_value is not None:
            p *= _at_least(self.cover_value)
        return p


# -- questions ---------------------------------------------------------------------------
def weapon_problem(
    state: GameState,
    unit: UnitState,
    weapon: Weapon,
    target: UnitState,
    *,
    overwatch: bool = False,
) -> IllegalAction | None:
    """Why ``weapon`` of ``unit`` cannot fire at ``target`` now (None: it can).

    ``overwatch`` (M7): orders don't apply and the minimum range is ignored.
    """
    here, there = state.position(unit), target.cell
    assert here is not None
    if there is None:
        return IllegalAction("H4", "target_embarked", target=target.id)
    if not overwatch:
        ordered = unit_orders.weapon_problem(state, unit, weapon)
        if ordered is not None:
            return ordered
    if unit.embarked_in is not None and weapon.kind is not WeaponKind.SHOOTING:
        return IllegalAction("E13", "embarked_shooting_only", unit=unit.id)
    flyer_involved = unit.is_flyer or target.is_flyer
    span = distance(here, there)
    if weapon.kind is WeaponKind.MELEE:
        if flyer_involved:
            return IllegalAction("E12", "flyer_no_melee", unit=unit.id, target=target.id)
        if span > weapon.max_range:
            return IllegalAction("E10", "melee_out_of_reach", target=target.id, distance=span)
        if unit.is_ground_vehicle and _gives_cover(state, there):
            return IllegalAction("E11", "vehicle_melee_into_cover", target=target.id)
        return None
    reach = weapon.max_range + height_bonus(state, unit)
    if span > reach:
        return IllegalAction("E2", "out_of_range", weapon=weapon.name, distance=span, range=reach)
    if span < weapon.minimum_range and not flyer_involved and not overwatch:
        return IllegalAction(
            "E2", "too_close", weapon=weapon.name, distance=span, minimum=weapon.minimum_range
        )
    if weapon.kind is WeaponKind.ARTILLERY:
        if unit.moved:
            return IllegalAction("E2", "artillery_after_move", weapon=weapon.name)
        return None
    blocking = state.blocking_cells()
    if not has_line_of_sight(here, there, blocking):
        cells = ", ".join(c.name for c in sight_blockers(here, there, blocking))
        return IllegalAction("E4", "no_line_of_sight", target=target.id, cells=cells)
    return None


def height_bonus(state: GameState, unit: UnitState) -> int:
    """E3: +1 maximum range on a Height (passengers of a transport on one too), not flyers."""
    if unit.is_flyer:
        return 0
    here = state.position(unit)
    return 1 if here is not None and state.terrain_kind(here) is TerrainKind.HEIGHT else 0


def attack_options(state: GameState, unit: UnitState) -> list[AttackOption]:
    """Every target ``unit`` may attack now, split into melee and ranged options.

    The same answers as asking ``weapon_problem`` for every weapon and target, which is
    what automatic players ask most: the checks that do not depend on the target (orders,
    E13, artillery after a move) are made once per weapon, the sight line once per target.
    """
    # Players ask most about units that already attacked: _attacker_problem's first
    # answers, without building the refusal.
    if unit.attacked or unit.fell_back or unit.disembarked or unit.in_reserve:
        return []
    if _attacker_problem(state, unit) is not None:
        return []
    here = state.position(unit)
    assert here is not None
    flyer = unit.is_flyer
    # E3, as height_bonus has it (the position is known already).
    bonus = 0 if flyer or state.terrain_kind(here) is not _HEIGHT else 1
    # (index, melee, reach, minimum range, needs a sight line) of each weapon that no
    # target-independent rule rules out, and the longest reach among them.
    usable: list[tuple[int, bool, int, int, bool]] = []
    longest = -1
    melee_only = unit_orders.melee_only(state, unit)  # unit_orders.weapon_problem
    embarked = unit.embarked_in is not None
    for index, weapon in enumerate(unit.weapons):
        kind = weapon.kind
        if kind is _MELEE:
            if embarked:
                continue  # E13
            reach = weapon.max_range
            usable.append((index, True, reach, 0, False))
        else:
            if melee_only:
                continue  # M3
            if embarked and kind is not _SHOOTING:
                continue  # E13
            if kind is _ARTILLERY and unit.moved:
                continue  # E2
            reach = weapon.max_range + bonus
            usable.append((index, False, reach, weapon.minimum_range, kind is _SHOOTING))
        longest = max(longest, reach)
    if not usable:
        return []
    vehicle = unit.is_ground_vehicle
    blocking: frozenset[Cell] | None = None
    other = unit.side.other
    options: list[AttackOption] = []
    col, row = here
    for target in state.units.values():
        there = target.cell
        if there is None or target.destroyed or target.side is not other:
            continue
        span = abs(col - there[0]) + abs(row - there[1])  # E1
        if span > longest:
            continue  # out of every weapon's reach: most targets, most of the time
        flyer_involved = flyer or target.is_flyer
        sight: bool | None = None
        melee: list[int] = []
        ranged: list[int] = []
        for index, is_melee, reach, minimum, needs_sight in usable:
            if span > reach:
                continue
            if is_melee:
                # E12, E11
                if flyer_involved or (vehicle and _gives_cover(state, there)):
                    continue
                melee.append(index)
                continue
            if span < minimum and not flyer_involved:
                continue
            if needs_sight:
                if sight is None:
                    if blocking is None:
                        blocking = state.blocking_cells()
                    sight = has_line_of_sight(here, there, blocking)  # E4
                if not sight:
                    continue
            ranged.append(index)
        if melee:
            options.append(AttackOption(target.id, True, tuple(melee)))
        if ranged:
            options.append(AttackOption(target.id, False, tuple(ranged)))
    return options


def dice_odds(
    state: GameState,
    unit: UnitState,
    target: UnitState,
    weapons: Sequence[int],
    *,
    overwatch: bool = False,
) -> list[DieOdds]:
    """One entry per die the attack rolls, in order (``overwatch``: as M7 fires them)."""
    odds: list[DieOdds] = []
    for die, count in dice_groups(state, unit, target, weapons, overwatch=overwatch):
        odds.extend([die] * count)
    return odds


def dice_groups(
    state: GameState,
    unit: UnitState,
    target: UnitState,
    weapons: Sequence[int],
    *,
    overwatch: bool = False,
) -> list[tuple[DieOdds, int]]:
    """``dice_odds`` by weapon: each weapon's odds per die and its number of dice. The same
    dice in a few entries, for callers that key caches on them."""
    groups: list[tuple[DieOdds, int]] = []
    for index in weapons:
        weapon = unit.weapons[index]
        needed = die_rule(state, unit, target, weapon, overwatch=overwatch).needed
        cover = cover_value(state, weapon, target)
        groups.append((DieOdds(needed, cover), dice_count(unit, weapon)))
    return groups


def die_rule(
    state: GameState,
    unit: UnitState,
    target: UnitState,
    weapon: Weapon,
    *,
    overwatch: bool = False,
) -> DieRule:
    """How each die of ``weapon`` against ``target`` is judged: E6, with M1, M3, M7, M9."""
    modifier = 0
    if not overwatch:  # M7: orders don't apply to Overwatch
        modifier += unit_orders.die_modifier(state, unit, weapon.kind)
    if weapon.kind is _MELEE:
        modifier += melee_modifier(state, unit, target)
    return DieRule(
        strength=weapon.strength,
        defense=target.sheet.defense,
        modifier=modifier,
        natural_one_fails=state.has(_NATURAL_ONE),
        natural_six_only=overwatch,
    )


def damage_distribution(
    state: GameState,
    unit: UnitState,
    target: UnitState,
    weapons: Sequence[int],
    *,
    overwatch: bool = False,
) -> list[Fraction]:
    """Exact P(damage = k) for k = 0..target HP (damage beyond the HP is capped)."""
    return distribution_of(dice_odds(state, unit, target, weapons, overwatch=overwatch), target.hp)


def distribution_of(dice: Sequence[DieOdds], cap: int) -> list[Fraction]:
    """P(k successes), k = 0..cap, the last entry holding every result of cap or more."""
    return list(_distribution(tuple(dice), cap))


@lru_cache(maxsize=4096)
def _distribution(dice: tuple[DieOdds, ...], cap: int) -> tuple[Fraction, ...]:
    # The same few attacks are asked about again and again (players weighing options,
    # Overwatch, charges): a pure function, so kept by its inputs. Worked in integers over
    # one common denominator: the same exact values, where a Fraction at every step reduced
    # ever larger numbers (a 30-die attack took tens of milliseconds, a search's longest step).
    weights = [1]  # P(k successes) * denominator
    denominator = 1
    for die in dice:
        p = die.probability
        hit, miss = p.numerator, p.denominator - p.numerator
        weights = [
            (weights[k] * miss if k < len(weights) else 0) + (weights[k - 1] * hit if k else 0)
            for k in range(len(weights) + 1)
        ]
        denominator *= p.denominator
    capped = [*weights[:cap], sum(weights[cap:])]
    capped += [0] * (cap + 1 - len(capped))
    return tuple(Fraction(w, denominator) for w in capped)


def expected_damage(
    state: GameState, unit: UnitState, target: UnitState, weapons: Sequence[int]
) -> Fraction:
    return sum(
        (k * p for k, p in enumerate(damage_distribution(state, unit, target, weapons))),
        Fraction(0),
    )


def dice_count(unit: UnitState, weapon: Weapon) -> int:
    """E7: per current model unless the weapon is fixed."""
    return weapon.dice * unit.attack_models if weapon.per_model else weapon.dice


def cover_value(state: GameState, weapon: Weapon, target: UnitState) -> int | None:
    """E8: the re-roll's need, if cover protects this target against this weapon."""
    if weapon.kind not in RANGED or target.type not in COVER_PROTECTS or target.cell is None:
        return None
    piece = state.terrain.get(target.cell)
    if piece is None or not piece.kind.gives_cover:
        return None
    return piece.cover_value


# -- the action --------------------------------------------------------------------------
def attack(ctx: Context, action: Attack, charge_dice: tuple[int, int] | None = None) -> None:
    """``charge_dice``: M8's (weapon index, extra dice) for the blow that ends a charge."""
    state = ctx.state
    unit = state.unit(action.unit)
    problem = _attacker_problem(state, unit)
    if problem is not None:
        raise problem
    target = state.unit(action.target)
    if target.side is unit.side:
        raise IllegalAction("E5", "target_is_friendly", target=target.id)
    if target.in_reserve:
        raise IllegalAction("M5", "target_in_reserve", target=target.id)
    if target.cell is None:
        raise IllegalAction("H4", "target_embarked", target=target.id)
    weapons = choose_weapons(state, unit, target, action.weapons, action.melee)
    melee = unit.weapons[weapons[0]].kind is WeaponKind.MELEE
    damaged = unit.sheet.damaged_weapons is not None and unit.weapons is unit.sheet.damaged_weapons
    rolled = tuple(
        _roll_weapon(ctx, unit, target, index, _extra_dice(charge_dice, index)) for index in weapons
    )
    hp_before = target.hp
    was_falling = target.falling  # M2: only the attack that makes it fall is credited
    target.hp = max(0, hp_before - sum(r.damage for r in rolled))
    unit.attacked = True
    state.attack_step = True
    kind = WeaponKind.MELEE if melee else unit.weapons[weapons[0]].kind
    lost = hp_before - target.hp
    ctx.emit(AttackResolved(unit.id, target.id, kind, rolled, damaged, lost, hp_before, target.hp))
    target_cell = target.cell
    assert target_cell is not None
    after_damage(ctx, target, unit.id, "attack")
    # M2: the attack that makes its target fall offers E10 now (made in the damage step).
    removed = target.destroyed or (target.falling and not was_falling)
    if melee and removed and state.can_stand(unit, target_cell):
        state.pending = (*state.pending, PendingAdvance(unit.side, unit.id, target_cell))
        ctx.emit(AdvanceOffered(unit.id, target_cell))


def choose_weapons(
    state: GameState,
    unit: UnitState,
    target: UnitState,
    chosen: tuple[int, ...] | None,
    melee: bool | None,
) -> tuple[int, ...]:
    """E5: the weapons that fire; all that reach by default, never melee mixed with ranged."""
    weapons = unit.weapons
    if chosen is not None:
        for index in chosen:
            if not 0 <= index < len(weapons):
                raise IllegalAction("E5", "no_such_weapon", unit=unit.id, weapon=index + 1)
        kinds = {weapons[i].kind is WeaponKind.MELEE for i in chosen}
        if len(kinds) > 1:
            raise IllegalAction("E5", "melee_and_ranged_mixed", unit=unit.id)
        for index in chosen:
            problem = weapon_problem(state, unit, weapons[index], target)
            if problem is not None:
                raise problem
        if not chosen:
            raise IllegalAction("E5", "no_weapon_chosen", unit=unit.id)
        return tuple(dict.fromkeys(chosen))
    problems: dict[bool, list[IllegalAction]] = {True: [], False: []}
    for want_melee in (True, False) if melee is None else (melee,):
        reaching: list[int] = []
        for index, weapon in enumerate(weapons):
            if (weapon.kind is WeaponKind.MELEE) != want_melee:
                continue
            problem = weapon_problem(state, unit, weapon, target)
            if problem is None:
                reaching.append(index)
            else:
                problems[want_melee].append(problem)
        if reaching:
            return tuple(reaching)
    # Explain with the kind the player most likely meant: melee next to the target, else
    # ranged ("out of range" says more than "melee reaches 1" about a distant target).
    here, there = state.position(unit), target.cell
    adjacent = here is not None and there is not None and distance(here, there) <= 1
    preferred = problems[adjacent] or problems[not adjacent]
    if preferred:
        raise preferred[0]
    raise IllegalAction("E5", "no_weapon_of_kind", unit=unit.id)


# -- helpers -----------------------------------------------------------------------------
def _attacker_problem(state: GameState, unit: UnitState) -> IllegalAction | None:
    if unit.attacked:
        return IllegalAction("E5", "already_attacked", unit=unit.id)
    if unit.fell_back:
        return IllegalAction("M6", "fell_back_cannot_attack", unit=unit.id)
    if unit.disembarked:
        return IllegalAction("H3", "disembarked_cannot_attack", unit=unit.id)
    if unit.in_reserve:
        return IllegalAction("M5", "reserve_off_board", unit=unit.id)
    if unit.embarked_in is not None:
        transport = state.units[unit.embarked_in]
        if not transport.sheet.open_topped:
            return IllegalAction("E13", "embarked_cannot_attack", unit=unit.id)
    if state.position(unit) is None:
        return IllegalAction("C2", "not_on_board", unit=unit.id)
    return None


def _extra_dice(charge_dice: tuple[int, int] | None, index: int) -> int:
    return charge_dice[1] if charge_dice is not None and charge_dice[0] == index else 0


def roll_weapon(
    ctx: Context, unit: UnitState, target: UnitState, index: int, *, overwatch: bool = False
) -> WeaponRolled:
    """One weapon's dice against ``target`` (E6-E8), for fire outside ``attack`` (M7)."""
    return _roll_weapon(ctx, unit, target, index, overwatch=overwatch)


def _roll_weapon(
    ctx: Context,
    unit: UnitState,
    target: UnitState,
    index: int,
    extra: int = 0,
    *,
    overwatch: bool = False,
) -> WeaponRolled:
    state = ctx.state
    weapon = unit.weapons[index]
    count = dice_count(unit, weapon) + extra
    defense = target.sheet.defense
    rule = die_rule(state, unit, target, weapon, overwatch=overwatch)
    purpose = f"{'overwatch' if overwatch else 'attack'} {unit.id}>{target.id} {weapon.name.en}"
    dice = ctx.roll_many(count, purpose)
    successes = sum(1 for die in dice if rule.succeeds(die.value))
    cover = cover_value(state, weapon, target)
    rerolls = () if cover is None else ctx.roll_many(successes, f"cover {target.id}")
    damage = successes if cover is None else sum(1 for die in rerolls if die.value >= cover)
    return WeaponRolled(
        weapon=weapon.name,
        kind=weapon.kind,
        strength=weapon.strength,
        dice_count=count,
        models=unit.attack_models if weapon.per_model else None,
        defense=defense,
        needed=rule.needed,
        dice=dice,
        successes=successes,
        cover_value=cover,
        rerolls=rerolls,
        damage=damage,
        charge_dice=extra,
        modifier=rule.modifier,
        natural_one_fails=rule.natural_one_fails,
        natural_six_only=rule.natural_six_only,
    )


def _at_least(needed: int) -> Fraction:
    return Fraction(max(0, min(6, 7 - needed)), 6)


def _gives_cover(state: GameState, cell: Cell) -> bool:
    kind = state.terrain_kind(cell)
    return kind is not None and kind.gives_cover
