"""The optional house rules of the rulebook's section M: switches fixed for a game from B1."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class HouseRule(StrEnum):
    NATURAL_ONE = "M1"  # a natural 1 always fails
    DAMAGE_AT_ROUND_END = "M2"  # HP lost at once, units removed in the damage step
    ORDERS = "M3"  # Advance / Assault / Aimed Fire
    INITIATIVE = "M4"  # roll for the first turn of every round from round 2
    RESERVE = "M5"  # tactical reserve
    FALL_BACK = "M6"  # leave melee without the D5 test, no attack
    OVERWATCH = "M7"  # snap fire at a unit that ends a move adjacent
    CHARGE = "M8"  # 2D6 charge with one extra melee die
    WEAPON_SKILL = "M9"  # melee dice +1/-1 by WS


def parse_house_rules(ids: Iterable[str]) -> frozenset[HouseRule]:
    """``M2``, ``m7`` ... as a set; raises ValueError naming the first unknown id."""
    chosen: set[HouseRule] = set()
    for raw in ids:
        text = raw.strip().upper()
        if text:
            chosen.add(HouseRule(text))
    return frozenset(chosen)


def house_rules_label(rules: Iterable[HouseRule]) -> str:
    """``M2, M7``: the ids in order, as the summary names them."""
    return ", ".join(sorted(r.value for r in rules))
