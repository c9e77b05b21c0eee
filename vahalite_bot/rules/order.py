"""M3's orders as a value: kept apart so the state, the actions and the events share it."""

from __future__ import annotations

from enum import StrEnum


class Order(StrEnum):
    ADVANCE = "advance"  # the normal turn
    ASSAULT = "assault"  # a move of up to 2 x M, then only a melee attack
    AIMED_FIRE = "aimed_fire"  # no move; Shooting and Artillery dice +1, melee dice -1
