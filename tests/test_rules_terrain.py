"""rulebook I1-I5: each terrain piece's entry, line of sight and effect, through the engine."""

from __future__ import annotations

import pytest

from tests.builders import Place, act, c, of_type, playing, refused
from vahalite_bot.rules.actions import Attack, Move
from vahalite_bot.rules.dice import FixedDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import AttackResolved
from vahalite_bot.rules.scenario import Side, Terrain, TerrainKind

S, N = Side.SOUTH, Side.NORTH
OBSTACLE, WATER, HEIGHT = TerrainKind.OBSTACLE, TerrainKind.WATER, TerrainKind.HEIGHT
COVER, FORT = TerrainKind.COVER, TerrainKind.FORTIFICATION
MISSILE = 1  # the Tactical Squad's Missile launcher: +3, one fixed die


def enters(unit: str, kind: TerrainKind) -> bool:
    """Can ``unit`` (a sheet id) step from C2 onto C3 holding ``kind``?"""
    state = playing(
        [Place("u", unit, S, "C2"), Place("far", "slaves", N, "F6")], terrain={"C3": kind}
    )
    try:
        after, _ = act(state, Move(S, "u", (c("C3"),)))
    except IllegalAction as error:
        assert (error.rule, error.code) == ("D2", "blocked_by_terrain")
        return False
    assert after.units["u"].cell == c("C3")
    return True


def sees_across(kind: TerrainKind) -> bool:
    """Can a Tactical Squad on C2 shoot at C4 over C3 holding ``kind``?"""
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")],
        terrain={"C3": kind},
    )
    try:
        act(state, Attack(S, "tac", "foe", (MISSILE,)), dice=[1])
    except IllegalAction as error:
        assert (error.rule, error.code) == ("E4", "no_line_of_sight")
        return False
    return True


def cover_against_shooting(piece: Terrain) -> int | None:
    """The cover value a Warriors squad standing on ``piece`` gets against the missile."""
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")],
        terrain={"C4": piece},
    )
    stream = FixedDice([6, 6])  # the hit, and its re-roll if cover applies
    _, events = apply(state, Attack(S, "tac", "foe", (MISSILE,)), stream)
    resolved: AttackResolved = of_type(events, AttackResolved)[0]
    value = resolved.weapons[0].cover_value
    rerolls = 0 if value is None else 1
    assert (len(resolved.weapons[0].rerolls), stream.remaining) == (rerolls, 1 - rerolls)
    return value


# (entered by infantry, entered by vehicles, sight across, cover value) per the rulebook's I table.
TABLE = {
    OBSTACLE: (False, False, False, None),
    WATER: (False, False, True, None),
    HEIGHT: (True, True, False, None),
    COVER: (True, False, True, 3),
    FORT: (True, False, True, 3),
}


def row(kind: TerrainKind) -> tuple[bool, bool, bool, int | None]:
    """What the engine does with ``kind``: the four columns of TABLE."""
    cover = None if not enters("tactical", kind) else cover_against_shooting(Terrain(kind))
    return enters("tactical", kind), enters("predator", kind), sees_across(kind), cover


def test_I1_obstacle() -> None:
    assert row(OBSTACLE) == TABLE[OBSTACLE]
    assert not OBSTACLE.enterable and OBSTACLE.blocks_sight and not OBSTACLE.gives_cover


def test_I1_even_flyers_cannot_stop_on_an_obstacle() -> None:
    state = playing(
        [Place("jet", "razorwing", S, "C2"), Place("far", "slaves", N, "F6")],
        terrain={"C3": OBSTACLE},
    )
    refused(state, Move(S, "jet", (c("C3"),)), "D4", "flyer_cannot_end")


def test_I2_water() -> None:
    assert row(WATER) == TABLE[WATER]
    assert not WATER.enterable and not WATER.blocks_sight and not WATER.gives_cover


def test_I2_water_refusal_names_the_piece() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("far", "slaves", N, "F6")],
        terrain={"C3": WATER},
    )
    error = refused(state, Move(S, "tac", (c("C3"),)), "D2", "blocked_by_terrain")
    assert error.params == {"cell": "C3", "terrain": "water"}


def test_I3_height() -> None:
    assert row(HEIGHT) == TABLE[HEIGHT]
    assert HEIGHT.enterable and HEIGHT.blocks_sight and not HEIGHT.gives_cover


def test_I3_height_does_not_block_the_unit_on_it() -> None:
    for attacker_on, target_on in (("C2", "C4"), ("C4", "C2")):
        state = playing(
            [Place("tac", "tactical", S, attacker_on), Place("foe", "warriors", N, target_on)],
            terrain={"C4": HEIGHT},
        )
        after, _ = act(state, Attack(S, "tac", "foe", (MISSILE,)), dice=[1])
        assert after.units["foe"].hp == 5


def test_I3_height_gives_plus_one_range() -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C5")],
        terrain={"C2": HEIGHT},
    )
    after, _ = act(state, Attack(S, "tac", "foe", (MISSILE,)), dice=[1])
    assert after.units["foe"].hp == 5
    flat = playing([Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C5")])
    refused(flat, Attack(S, "tac", "foe", (MISSILE,)), "E2", "out_of_range")


def test_I4_cover() -> None:
    assert row(COVER) == TABLE[COVER]
    assert COVER.enterable and not COVER.blocks_sight and COVER.gives_cover


def test_I4_cover_improvement_is_for_scenarios_too() -> None:
    assert cover_against_shooting(Terrain(COVER, improvement=1)) == 4


def test_I5_fortification() -> None:
    assert row(FORT) == TABLE[FORT]
    assert FORT.enterable and not FORT.blocks_sight and FORT.gives_cover


@pytest.mark.parametrize(("improvement", "value"), [(0, 3), (1, 4), (2, 5), (3, 6), (4, 6)])
def test_I5_fortification_improved_up_to_six(improvement: int, value: int) -> None:
    piece = Terrain(FORT, improvement=improvement)
    assert piece.cover_value == value
    assert cover_against_shooting(piece) == value
