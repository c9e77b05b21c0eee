"""M9: melee dice +1 or -1 by Weapon Skill (WS)."""

from __future__ import annotations

from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.sheets import UnitType
from vahalite_bot.rules.state import GameState, UnitState

FEARLESS_WS = 4
# As targets these have no WS to speak of: 40k hits them as if WS 1.
WS_ONE_TARGETS = frozenset({UnitType.VEHICLE, UnitType.SKIMMER})


def weapon_skill(unit: UnitState) -> int:
    """The sheet's ``ws``, else 7 - Morale (marine 4, guardsman 3, gretchin 2), Fearless 4."""
    sheet = unit.sheet
    if sheet.ws is not None:
        return sheet.ws
    if sheet.is_fearless or sheet.morale is None:
        return FEARLESS_WS
    return 7 - sheet.morale


def target_skill(unit: UnitState) -> int:
    """WS as a target: vehicles and skimmers count 1, whatever their sheet says."""
    return 1 if unit.type in WS_ONE_TARGETS else weapon_skill(unit)


def melee_modifier(state: GameState, attacker: UnitState, target: UnitState) -> int:
    """+1 if the attacker's WS exceeds the target's, -1 if twice it is below the target's."""
    if not state.has(HouseRule.WEAPON_SKILL):
        return 0
    mine, theirs = weapon_skill(attacker), target_skill(target)
    if mine > theirs:
        return 1
    if 2 * mine < theirs:
        return -1
    return 0
