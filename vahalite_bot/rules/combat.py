"""Attacks (RULES.md E1-E14): who may attack whom with what, the odds, and the dice."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from vahalite_bot.rules.actions import Attack
from vahalite_bot.rules.casualties import after_damage
from vahalite_bot.rules.context import Context
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import AdvanceOffered, AttackResolved, WeaponRolled
from vahalite_bot.rules.geometry import Cell, distance, has_line_of_sight, sight_blockers
from vahalite_bot.rules.scenario import TerrainKind
from vahalite_bot.rules.sheets import COVER_PROTECTS, Weapon, WeaponKind
from vahalite_bot.rules.state import GameState, PendingAdvance, UnitState

RANGED = (WeaponKind.SHOOTING, WeaponKind.ARTILLERY)


@dataclass(frozen=True)
class AttackOption:
    """A legal attack: the target, melee or not, and the weapons (indexes) that reach."""

    target: str
    melee: bool
    weapons: tuple[int, ...]


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
    state: GameState, unit: UnitState, weapon: Weapon, target: UnitState
) -> IllegalAction | None:
    """Why ``weapon`` of ``unit`` cannot fire at ``target`` now (None: it can)."""
    here, there = state.position(unit), target.cell
    assert here is not None
    if there is None:
        return IllegalAction("H4", "target_embarked", target=target.id)
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
    if span < weapon.minimum_range and not flyer_involved:
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
    """Every target ``unit`` may attack now, split into melee and ranged options."""
    if _attacker_problem(state, unit) is not None:
        return []
    options: list[AttackOption] = []
    for target in state.living(unit.side.other):
        if target.cell is None:
            continue
        for melee in (True, False):
            reaching = tuple(
                i
                for i, w in enumerate(unit.weapons)
                if (w.kind is WeaponKind.MELEE) == melee
                and weapon_problem(state, unit, w, target) is None
            )
            if reaching:
                options.append(AttackOption(target.id, melee, reaching))
    return options


def dice_odds(
    state: GameState, unit: UnitState, target: UnitState, weapons: Sequence[int]
) -> list[DieOdds]:
    """One entry per die the attack rolls, in order."""
    odds: list[DieOdds] = []
    for index in weapons:
        weapon = unit.weapons[index]
        needed = _needed(weapon.strength, target.sheet.defense)
        cover = cover_value(state, weapon, target)
        odds.extend([DieOdds(needed, cover)] * dice_count(unit, weapon))
    return odds


def damage_distribution(
    state: GameState, unit: UnitState, target: UnitState, weapons: Sequence[int]
) -> list[Fraction]:
    """Exact P(damage = k) for k = 0..target HP (damage beyond the HP is capped)."""
    dist = [Fraction(1)]
    for die in dice_odds(state, unit, target, weapons):
        p = die.probability
        dist = [
            (dist[k] if k < len(dist) else 0) * (1 - p) + (dist[k - 1] * p if k > 0 else 0)
            for k in range(len(dist) + 1)
        ]
    cap = target.hp
    capped = [*dist[:cap], sum(dist[cap:], Fraction(0))]
    return capped + [Fraction(0)] * (cap + 1 - len(capped))


def expected_damage(
    state: GameState, unit: UnitState, target: UnitState, weapons: Sequence[int]
) -> Fraction:
    return sum(
        (k * p for k, p in enumerate(damage_distribution(state, unit, target, weapons))),
        Fraction(0),
    )


def dice_count(unit: UnitState, weapon: Weapon) -> int:
    """E7: per current model unless the weapon is fixed."""
    return weapon.dice * unit.models if weapon.per_model else weapon.dice


def cover_value(state: GameState, weapon: Weapon, target: UnitState) -> int | None:
    """E8: the re-roll's need, if cover protects this target against this weapon."""
    if weapon.kind not in RANGED or target.type not in COVER_PROTECTS or target.cell is None:
        return None
    piece = state.terrain.get(target.cell)
    if piece is None or not piece.kind.gives_cover:
        return None
    return piece.cover_value


# -- the action --------------------------------------------------------------------------
def attack(ctx: Context, action: Attack) -> None:
    state = ctx.state
    unit = state.unit(action.unit)
    problem = _attacker_problem(state, unit)
    if problem is not None:
        raise problem
    target = state.unit(action.target)
    if target.side is unit.side:
        raise IllegalAction("E5", "target_is_friendly", target=target.id)
    if target.cell is None:
        raise IllegalAction("H4", "target_embarked", target=target.id)
    weapons = choose_weapons(state, unit, target, action.weapons, action.melee)
    melee = unit.weapons[weapons[0]].kind is WeaponKind.MELEE
    damaged = unit.sheet.has_damaged_profile and unit.is_damaged
    rolled = tuple(_roll_weapon(ctx, unit, target, index) for index in weapons)
    hp_before = target.hp
    target.hp = max(0, hp_before - sum(r.damage for r in rolled))
    unit.attacked = True
    state.attack_step = True
    kind = WeaponKind.MELEE if melee else unit.weapons[weapons[0]].kind
    lost = hp_before - target.hp
    ctx.emit(AttackResolved(unit.id, target.id, kind, rolled, damaged, lost, hp_before, target.hp))
    target_cell = target.cell
    assert target_cell is not None
    after_damage(ctx, target, unit.id, "attack")
    if melee and target.destroyed and state.can_stand(unit, target_cell):
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
    if unit.disembarked:
        return IllegalAction("H3", "disembarked_cannot_attack", unit=unit.id)
    if unit.embarked_in is not None:
        transport = state.units[unit.embarked_in]
        if not transport.sheet.open_topped:
            return IllegalAction("E13", "embarked_cannot_attack", unit=unit.id)
    if state.position(unit) is None:
        return IllegalAction("C2", "not_on_board", unit=unit.id)
    return None


def _roll_weapon(ctx: Context, unit: UnitState, target: UnitState, index: int) -> WeaponRolled:
    state = ctx.state
    weapon = unit.weapons[index]
    count = dice_count(unit, weapon)
    defense = target.sheet.defense
    purpose = f"attack {unit.id}>{target.id} {weapon.name.en}"
    dice = ctx.roll_many(count, purpose)
    successes = sum(1 for die in dice if die.value + weapon.strength >= defense)
    cover = cover_value(state, weapon, target)
    rerolls = () if cover is None else ctx.roll_many(successes, f"cover {target.id}")
    damage = successes if cover is None else sum(1 for die in rerolls if die.value >= cover)
    return WeaponRolled(
        weapon=weapon.name,
        kind=weapon.kind,
        strength=weapon.strength,
        dice_count=count,
        models=unit.models if weapon.per_model else None,
        defense=defense,
        needed=_needed(weapon.strength, defense),
        dice=dice,
        successes=successes,
        cover_value=cover,
        rerolls=rerolls,
        damage=damage,
    )


def _needed(strength: int, defense: int) -> int:
    """E6: the lowest d6 that succeeds (7 or more: none does)."""
    return max(1, defense - strength)


def _at_least(needed: int) -> Fraction:
    return Fraction(max(0, min(6, 7 - needed)), 6)


def _gives_cover(state: GameState, cell: Cell) -> bool:
    kind = state.terrain_kind(cell)
    return kind is not None and kind.gives_cover
