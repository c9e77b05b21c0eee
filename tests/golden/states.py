"""The scenes the board-image tests draw: built directly (not by random play), so a change
to the engine's choices never changes a golden image, and each shows what it names."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from tests.builders import Place, playing, sheet
from vahalite_bot.rules.actions import Action, Attack, EndTurn, Move
from vahalite_bot.rules.dice import FixedDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Scenario, Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import Names
from vahalite_bot.rules.state import GameState, Phase

S, N = Side.SOUTH, Side.NORTH
NAMES = {S: "Алексей", N: "Bob"}


@dataclass(frozen=True)
class Scene:
    state: GameState
    events: Sequence[Event] = ()
    before: GameState | None = None
    names: Mapping[Side, str] = field(default_factory=lambda: dict(NAMES))
    lang: str = "ru"


def after(state: GameState, action: Action, dice: Sequence[int] = ()) -> Scene:
    """The scene right after ``action``, with its events to overlay."""
    new, events = apply(state, action, FixedDice(list(dice) + [6] * 60))
    return Scene(new, tuple(events), state)


ALL_TERRAIN: dict[str, TerrainKind | Terrain] = {
    "A2": TerrainKind.COVER,
    "C3": TerrainKind.HEIGHT,
    "E2": TerrainKind.WATER,
    "B1": TerrainKind.OBSTACLE,
    "D5": TerrainKind.HEIGHT,
    "B4": TerrainKind.WATER,
    "F4": TerrainKind.OBSTACLE,
    "A6": TerrainKind.COVER,
    "F6": Terrain(TerrainKind.FORTIFICATION, improvement=1),
}


def setup() -> Scene:
    """Deployment half done: terrain and SPs down, some units still to place."""
    units = [
        Place("cap1", "captain", S, "B2"),
        Place("rhi1", "rhino", S, "D1"),
        Place("tac1", "tactical", S, "rhi1"),
        Place("arc1", "archon", N, "C6"),
        Place("sla1", "slaves", N, "E5"),
        Place("rai1", "raider", N, "B5"),
        Place("war1", "warriors", N, "rai1"),
        Place("bik1", "bikers", S, "A1"),
        Place("whi1", "whirlwind", S, "F1"),
    ]
    terrain = {k: v for k, v in ALL_TERRAIN.items() if k != "F6"}
    state = playing(units, terrain=terrain, sps={"C2": S, "E3": S, "D2": S, "C5": N, "E4": N})
    state.phase = Phase.DEPLOYMENT
    state.round = 0
    state.active = None
    for handle in ("bik1", "whi1"):
        unit = state.units[handle]
        unit.deployed, unit.cell = False, None
    return Scene(state)


def mid_game() -> Scene:
    """Every terrain kind and unit type, damaged profiles, SPs of both holders, and the last
    action: the dreadnought shoots the grotesque dead."""
    units = [
        Place("cap1", "captain", S, "B2"),
        Place("tac1", "tactical", S, "C2", hp=3),
        Place("ass1", "assault", S, "A3"),
        Place("bik1", "bikers", S, "F2"),
        Place("dre1", "dreadnought", S, "E3", hp=3),
        Place("pre1", "predator", S, "A1"),
        Place("sco1", "scouts", S, "C3"),
        Place("arc1", "archon", N, "C5"),
        Place("gro1", "grotesque", N, "D4", hp=2),
        Place("rea1", "reavers", N, "E5"),
        Place("rav1", "ravager", N, "E6", hp=2),
        Place("raz1", "razorwing", N, "B5"),
        Place("sla1", "slaves", N, "F5"),
        Place("gro2", "grotesque", N, "C1"),
    ]
    state = playing(
        units,
        terrain=ALL_TERRAIN,
        sps={"B2": S, "D2": S, "E4": S, "C5": N, "D4": N, "B3": N},
        round=3,
    )
    state.sps[Cell.parse("B3")].holder = S  # taken by south earlier in the game
    return after(state, Attack(S, "dre1", "gro1"))


def transports() -> Scene:
    """Both kinds of transport loaded; the last action: a rhino drives its squad forward."""
    units = [
        Place("rhi1", "rhino", S, "B2"),
        Place("tac1", "tactical", S, "rhi1"),
        Place("cap1", "captain", S, "D2"),
        Place("rai1", "raider", N, "D5"),
        Place("war1", "warriors", N, "rai1"),
        Place("rai2", "raider", N, "F5", hp=2),
        Place("war2", "warriors", N, "rai2"),
        Place("arc1", "archon", N, "C6"),
    ]
    state = playing(units, terrain={"C3": TerrainKind.HEIGHT, "E2": TerrainKind.WATER})
    path = (Cell.parse("B3"), Cell.parse("B4"), Cell.parse("C4"))
    return after(state, Move(S, "rhi1", path))


def end_of_game() -> Scene:
    """North ends round 6, taking an SP: the game is over and scored."""
    units = [
        Place("cap1", "captain", S, "B2", hp=1),
        Place("tac1", "tactical", S, "C3", hp=2),
        Place("pre1", "predator", S, "A1"),
        Place("arc1", "archon", N, "D2"),
        Place("rea1", "reavers", N, "E3"),
        Place("rav1", "ravager", N, "F6"),
        Place("sla1", "slaves", N, "A6"),
    ]
    state = playing(
        units,
        terrain={"C4": TerrainKind.HEIGHT, "E5": TerrainKind.COVER, "A4": TerrainKind.WATER},
        sps={"B2": S, "D2": S, "E3": N, "C5": N},
        active=N,
        round=6,
    )
    for handle, killer in (("pre1", "arc1"), ("rav1", "tac1"), ("sla1", "cap1")):
        unit = state.units[handle]
        unit.hp, unit.cell, unit.destroyed, unit.destroyed_by = 0, None, True, killer
    return after(state, EndTurn(N))


def big_board() -> Scene:
    """A 12 x 12 scenario with a fortification and units in every corner."""
    scenario = Scenario(
        id="big",
        width=12,
        height=12,
        half_rows={S: (0, 5), N: (6, 11)},
        deploy_rows={S: (0, 2), N: (9, 11)},
        preplaced={Cell.parse("F6"): Terrain(TerrainKind.FORTIFICATION, improvement=3)},
    )
    units = [
        Place("cap1", "captain", S, "A1"),
        Place("tac1", "tactical", S, "L1", hp=4),
        Place("rhi1", "rhino", S, "F2"),
        Place("tac2", "tactical", S, "rhi1"),
        Place("arc1", "archon", N, "A12"),
        Place("gro1", "grotesque", N, "L12"),
        Place("raz1", "razorwing", N, "F7"),
        Place("rav1", "ravager", N, "G8", hp=2),
    ]
    state = playing(
        units,
        terrain={
            "F6": Terrain(TerrainKind.FORTIFICATION, improvement=3),
            "C4": TerrainKind.COVER,
            "H9": TerrainKind.OBSTACLE,
            "J3": TerrainKind.WATER,
            "D8": TerrainKind.HEIGHT,
        },
        sps={"B2": S, "K10": N, "F6": S},
        scenario=scenario,
    )
    return after(state, Move(S, "rhi1", (Cell.parse("G2"), Cell.parse("G3"), Cell.parse("G4"))))


def long_names() -> Scene:
    """Long Cyrillic names everywhere: players, and the units the caption names."""
    long_unit = sheet(
        "tactical",
        name=Names(
            ru="Сводное штурмовое отделение ветеранов Четырнадцатой роты Щитоносцев",
            en="Combined veteran assault squad of the Fourteenth Shieldbearer company",
        ),
    )
    units = [
        Place("tac1", long_unit, S, "C2"),
        Place("arc1", "archon", N, "C4", hp=1),
    ]
    state = playing(units)
    scene = after(state, Attack(S, "tac1", "arc1"))
    names = {
        S: "Александр Вячеславович Длинноимённый-Щербатов",
        N: "Фёдор Ёлкин из Чрезвычайно Отдалённой Области",
    }
    return replace(scene, names=names)


SCENES: dict[str, Callable[[], Scene]] = {
    "setup": setup,
    "mid_game": mid_game,
    "transports": transports,
    "end_of_game": end_of_game,
    "big_board": big_board,
}
