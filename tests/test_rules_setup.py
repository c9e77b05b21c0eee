"""Setup, in order (rulebook B1-B6): roll-off, deploy order, terrain, SP, deployment, round 1."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pytest

from tests.builders import SHEETS, act, c, of_type, refused
from vahalite_bot.rules.actions import (
    Action,
    ChooseDeployOrder,
    Deploy,
    EndTurn,
    Move,
    PlaceSP,
    PlaceTerrain,
    RollOff,
)
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.events import (
    DeployOrderChosen,
    Event,
    RolledOff,
    SetupStep,
    SPPlaced,
    TerrainPlaced,
    TurnStarted,
    UnitDeployed,
)
from vahalite_bot.rules.scenario import STANDARD, Side, Terrain, TerrainKind
from vahalite_bot.rules.state import GameState, Phase, SPState, new_game

S, N = Side.SOUTH, Side.NORTH
OB, W, H, CV = TerrainKind.OBSTACLE, TerrainKind.WATER, TerrainKind.HEIGHT, TerrainKind.COVER

Army = Sequence[tuple[str, str]]  # (handle, sheet id)

SOUTH_ARMY: Army = [("cap", "captain"), ("tac", "tactical"), ("rhi", "rhino"), ("bik", "bikers")]
NORTH_ARMY: Army = [
    ("arc", "archon"),
    ("war", "warriors"),
    ("rai", "raider"),
    ("wing", "razorwing"),
]


def fresh(south: Army = SOUTH_ARMY, north: Army = NORTH_ARMY) -> GameState:
    return new_game(
        STANDARD,
        {side: [(h, SHEETS[s]) for h, s in army] for side, army in ((S, south), (N, north))},
    )


def at_phase(
    phase: Phase,
    south: Army = SOUTH_ARMY,
    north: Army = NORTH_ARMY,
    first_player: Side = S,
    first_deployer: Side = S,
    terrain: Mapping[str, TerrainKind] | None = None,
    sps: Mapping[str, Side] | None = None,
) -> GameState:
    """A game at a setup step, with the earlier steps' results put straight in."""
    state = fresh(south, north)
    state.phase = phase
    state.first_player = first_player
    state.first_deployer = first_deployer
    for name, kind in (terrain or {}).items():
        state.with_terrain(c(name), Terrain(kind))
    for name, side in (sps or {}).items():
        state.sps[c(name)] = SPState(placed_by=side, holder=side)
    return state


def run(state: GameState, actions: Iterable[Action]) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for action in actions:
        state, new = act(state, action)
        events.extend(new)
    return state, events


# A full legal terrain set per half, and three SPs, for runs through the whole setup.
SOUTH_TERRAIN = [(OB, "A3"), (W, "F3"), (H, "C3"), (H, "D2"), (CV, "B2"), (CV, "E1")]
NORTH_TERRAIN = [(OB, "A4"), (W, "F4"), (H, "C4"), (H, "D5"), (CV, "B5"), (CV, "E6")]
SOUTH_SPS = ["B3", "C2", "E2"]
NORTH_SPS = ["B4", "C5", "E5"]


def terrain_of(side: Side) -> list[Action]:
    pieces = SOUTH_TERRAIN if side is S else NORTH_TERRAIN
    return [PlaceTerrain(side, kind, c(cell)) for kind, cell in pieces]


def sps_of(side: Side) -> list[Action]:
    return [PlaceSP(side, c(cell)) for cell in (SOUTH_SPS if side is S else NORTH_SPS)]


def deployment_of(side: Side) -> list[Action]:
    if side is S:
        spots = [("rhi", "C1"), ("tac", "C1"), ("cap", "B1"), ("bik", "F2")]
    else:
        spots = [("rai", "B6"), ("war", "B6"), ("arc", "C6"), ("wing", "D6")]
    return [Deploy(side, unit, c(cell)) for unit, cell in spots]


# -- B1 roll-off ------------------------------------------------------------------------------
@pytest.mark.parametrize(("die", "winner"), [(1, S), (2, S), (3, S), (4, N), (5, N), (6, N)])
def test_B1_roll_off_one_to_three_south_four_to_six_north(die: int, winner: Side) -> None:
    state, events = act(fresh(), RollOff(), [die])
    (rolled,) = of_type(events, RolledOff)
    assert rolled.winner is winner
    assert (rolled.die.position, rolled.die.value) == (0, die)
    assert rolled.die.purpose
    assert state.first_player is winner
    assert state.phase is Phase.DEPLOY_ORDER


def test_B1_roll_off_happens_once() -> None:
    state, _ = act(fresh(), RollOff(), [4])
    refused(state, RollOff(), "B1", "wrong_phase")


def test_B1_nothing_but_the_roll_off_comes_first() -> None:
    state = fresh()
    refused(state, ChooseDeployOrder(S, True), "B2", "wrong_phase")
    refused(state, PlaceTerrain(S, OB, c("A1")), "B3", "wrong_phase")
    refused(state, EndTurn(S), "C1", "not_playing")
    assert acting_side(state) is None  # the bot rolls, not a player


# -- B2 deploy order --------------------------------------------------------------------------
@pytest.mark.parametrize("first", [True, False])
def test_B2_loser_of_the_roll_off_chooses_deploy_order(first: bool) -> None:
    state, _ = act(fresh(), RollOff(), [5])  # north wins: south chooses
    assert acting_side(state) is S
    state, events = act(state, ChooseDeployOrder(S, deploy_first=first))
    expected = S if first else N
    assert of_type(events, DeployOrderChosen) == [DeployOrderChosen(S, expected)]
    assert state.first_deployer is expected
    assert state.first_player is N  # choosing the deploy order does not change who starts
    assert state.phase is Phase.TERRAIN
    assert of_type(events, SetupStep) == [SetupStep("terrain", expected)]


def test_B2_winner_of_the_roll_off_cannot_choose() -> None:
    state, _ = act(fresh(), RollOff(), [2])  # south wins
    refused(state, ChooseDeployOrder(S, deploy_first=False), "B2", "not_your_setup_step")


# -- B3 terrain -------------------------------------------------------------------------------
def test_B3_first_deployer_places_the_whole_set_then_the_other() -> None:
    state = at_phase(Phase.TERRAIN, first_deployer=N)
    refused(state, PlaceTerrain(S, OB, c("A1")), "B3", "not_your_setup_step")
    for action in terrain_of(N)[:-1]:
        state, events = act(state, action)
        assert of_type(events, SetupStep) == []  # still north's step
        refused(state, PlaceTerrain(S, OB, c("A1")), "B3", "not_your_setup_step")
    state, events = act(state, terrain_of(N)[-1])
    assert of_type(events, SetupStep) == [SetupStep("terrain", S)]
    refused(state, PlaceTerrain(N, OB, c("A5")), "B3", "not_your_setup_step")
    state, events = run(state, terrain_of(S))
    assert len(of_type(events, TerrainPlaced)) == 6
    assert of_type(events, SetupStep) == [SetupStep("sp", N)]
    assert state.phase is Phase.SP
    assert sorted(piece.kind for piece in state.terrain.values()) == sorted(
        [OB, OB, W, W, H, H, H, H, CV, CV, CV, CV]
    )


def test_B3_terrain_goes_on_the_own_half_only() -> None:
    state = at_phase(Phase.TERRAIN)
    refused(state, PlaceTerrain(S, H, c("C4")), "B3", "not_own_half")
    state, events = act(state, PlaceTerrain(S, H, c("C3")))  # row 3 is still south's half
    assert of_type(events, TerrainPlaced) == [TerrainPlaced(S, H, c("C3"))]
    assert state.terrain[c("C3")] == Terrain(H)


def test_B3_one_piece_per_cell() -> None:
    state, _ = act(at_phase(Phase.TERRAIN), PlaceTerrain(S, H, c("C3")))
    refused(state, PlaceTerrain(S, CV, c("C3")), "B3", "cell_has_terrain")


def test_B3_only_the_pieces_of_the_set() -> None:
    state, _ = act(at_phase(Phase.TERRAIN), PlaceTerrain(S, OB, c("A3")))
    refused(state, PlaceTerrain(S, OB, c("B3")), "B3", "no_terrain_left")
    refused(state, PlaceTerrain(S, TerrainKind.FORTIFICATION, c("B3")), "B3", "no_terrain_left")
    state, _ = act(state, PlaceTerrain(S, H, c("B3")))
    state, _ = act(state, PlaceTerrain(S, H, c("C3")))
    refused(state, PlaceTerrain(S, H, c("D3")), "B3", "no_terrain_left")


def test_B3_terrain_refused_if_deployment_impossible() -> None:
    captains = [(f"cap{i}", "captain") for i in range(11)]
    state = at_phase(Phase.TERRAIN, south=captains)
    state, _ = act(state, PlaceTerrain(S, OB, c("A1")))  # 11 cells left for 11 units
    refused(state, PlaceTerrain(S, W, c("B1")), "B3", "terrain_blocks_deployment")
    state, _ = act(state, PlaceTerrain(S, W, c("B3")))  # outside the zone: no harm
    state, _ = act(state, PlaceTerrain(S, CV, c("C1")))  # infantry may deploy in Cover
    state, _ = act(state, PlaceTerrain(S, H, c("D1")))  # and on a Height
    assert state.terrain[c("B3")] == Terrain(W)


def test_B3_transport_with_its_unit_counts_once() -> None:
    # 11 units, but five squads ride five Rhinos: six cells are enough.
    army = [("cap", "captain")] + [
        pair for i in range(5) for pair in ((f"tac{i}", "tactical"), (f"rhi{i}", "rhino"))
    ]
    state = at_phase(Phase.TERRAIN, south=army)
    state, _ = run(state, [PlaceTerrain(S, OB, c("A1")), PlaceTerrain(S, W, c("B1"))])
    assert state.terrain_kind(c("B1")) is W


def test_B3_vehicles_need_cells_without_cover() -> None:
    rhinos = [(f"rhi{i}", "rhino") for i in range(10)]
    state = at_phase(Phase.TERRAIN, south=rhinos)
    state, _ = run(state, [PlaceTerrain(S, OB, c("A1")), PlaceTerrain(S, W, c("B1"))])
    refused(state, PlaceTerrain(S, CV, c("C1")), "B3", "terrain_blocks_deployment")
    state, _ = act(state, PlaceTerrain(S, H, c("C1")))  # vehicles may stand on a Height
    state, _ = act(state, PlaceTerrain(S, CV, c("C3")))
    assert state.terrain_kind(c("C3")) is CV


# -- B4 strategic positions -------------------------------------------------------------------
def test_B4_sp_on_own_half_not_on_an_edge() -> None:
    state = at_phase(Phase.SP, terrain={"C3": H, "D2": CV})
    refused(state, PlaceSP(S, c("C4")), "B4", "not_own_half")
    for edge in ("A2", "F3", "C1"):
        refused(state, PlaceSP(S, c(edge)), "B4", "sp_on_edge")
    state, events = act(state, PlaceSP(S, c("C3")))  # a Height is fine
    assert of_type(events, SPPlaced) == [SPPlaced(S, c("C3"))]
    assert state.sps[c("C3")] == SPState(placed_by=S, holder=S)
    state, _ = act(state, PlaceSP(S, c("D2")))  # and so is Cover
    assert c("D2") in state.sps


@pytest.mark.parametrize("kind", [OB, W])
def test_B4_sp_not_on_obstacle_or_water(kind: TerrainKind) -> None:
    state = at_phase(Phase.SP, terrain={"C2": kind})
    error = refused(state, PlaceSP(S, c("C2")), "B4", "sp_not_enterable")
    assert error.params["terrain"] == kind.value


def test_B4_one_sp_per_cell() -> None:
    state, _ = act(at_phase(Phase.SP), PlaceSP(S, c("C2")))
    refused(state, PlaceSP(S, c("C2")), "B4", "sp_taken")


def test_B4_same_order_as_terrain_three_each() -> None:
    state = at_phase(Phase.SP, first_deployer=N)
    refused(state, PlaceSP(S, c("C2")), "B4", "not_your_setup_step")
    state, _ = run(state, sps_of(N)[:2])
    refused(state, PlaceSP(S, c("C2")), "B4", "not_your_setup_step")
    state, events = act(state, sps_of(N)[2])
    assert of_type(events, SetupStep) == [SetupStep("sp", S)]
    refused(state, PlaceSP(N, c("D5")), "B4", "not_your_setup_step")
    state, events = run(state, sps_of(S))
    assert state.phase is Phase.DEPLOYMENT
    assert of_type(events, SetupStep) == [SetupStep("deployment", N)]
    assert sorted(cell.name for cell, sp in state.sps.items() if sp.placed_by is S) == SOUTH_SPS


def test_B4_sp_comes_after_all_terrain() -> None:
    state, _ = act(at_phase(Phase.TERRAIN), PlaceTerrain(S, OB, c("A3")))
    refused(state, PlaceSP(S, c("C2")), "B4", "wrong_phase")


def test_B4_sp_refused_if_flyers_could_no_longer_deploy() -> None:
    # Ruling: flyers never deploy on an SP (as D4), so an SP takes a flyer's cell.
    flyers = [(f"wing{i}", "razorwing") for i in range(11)]
    state = at_phase(Phase.SP, south=flyers, terrain={"A1": OB})
    refused(state, PlaceSP(S, c("C2")), "B4", "sp_blocks_deployment")
    state, _ = act(state, PlaceSP(S, c("C3")))  # outside the zone
    assert c("C3") in state.sps


# -- B5 deployment ----------------------------------------------------------------------------
def test_B5_first_deployer_places_all_units_then_the_other() -> None:
    state = at_phase(Phase.DEPLOYMENT, first_deployer=N)
    refused(state, Deploy(S, "cap", c("B1")), "B5", "not_your_setup_step")
    state, events = run(state, deployment_of(N)[:-1])
    refused(state, Deploy(S, "cap", c("B1")), "B5", "not_your_setup_step")
    state, events = act(state, deployment_of(N)[-1])
    assert of_type(events, SetupStep) == [SetupStep("deployment", S)]
    refused(state, Deploy(N, "arc", c("D5")), "B5", "not_your_setup_step")


def test_B5_only_in_the_own_deployment_zone() -> None:
    state = at_phase(Phase.DEPLOYMENT)
    refused(state, Deploy(S, "cap", c("B3")), "B5", "outside_deploy_zone")  # own half, not zone
    refused(state, Deploy(S, "cap", c("B5")), "B5", "outside_deploy_zone")
    state, events = act(state, Deploy(S, "cap", c("B2")))
    assert of_type(events, UnitDeployed) == [UnitDeployed(S, "cap", c("B2"), None)]
    assert state.units["cap"].cell == c("B2")
    assert state.units["cap"].deployed


def test_B5_only_own_units_once_each() -> None:
    state = at_phase(Phase.DEPLOYMENT)
    refused(state, Deploy(S, "arc", c("B2")), "B5", "not_your_unit")
    state, _ = act(state, Deploy(S, "cap", c("B2")))
    refused(state, Deploy(S, "cap", c("C2")), "B5", "already_deployed")


def test_B5_one_unit_per_cell() -> None:
    state, _ = act(at_phase(Phase.DEPLOYMENT), Deploy(S, "cap", c("B2")))
    error = refused(state, Deploy(S, "bik", c("B2")), "B5", "cell_occupied")
    assert error.params == {"cell": "B2", "occupant": "cap"}
    refused(state, Deploy(S, "rhi", c("B2")), "B5", "cell_occupied")
    # Two transports never share a cell either: a transport rides nothing.
    two = at_phase(Phase.DEPLOYMENT, south=[("rhi1", "rhino"), ("rhi2", "rhino")])
    two, _ = act(two, Deploy(S, "rhi1", c("C2")))
    refused(two, Deploy(S, "rhi2", c("C2")), "B5", "cell_occupied")


def test_B5_unit_may_start_embarked_in_a_transport_it_can_ride() -> None:
    state, _ = act(at_phase(Phase.DEPLOYMENT), Deploy(S, "rhi", c("C1")))
    refused(state, Deploy(S, "bik", c("C1")), "H1", "cannot_embark")  # bikes don't ride
    state, events = act(state, Deploy(S, "tac", c("C1")))
    assert of_type(events, UnitDeployed) == [UnitDeployed(S, "tac", c("C1"), "rhi")]
    tactical = state.units["tac"]
    assert (tactical.embarked_in, tactical.cell, tactical.deployed) == ("rhi", None, True)
    assert state.unit_at(c("C1")) is state.units["rhi"]
    refused(state, Deploy(S, "cap", c("C1")), "H1", "cannot_embark")  # already carrying one


def test_B5_vehicles_not_in_cover_others_may_be() -> None:
    state = at_phase(Phase.DEPLOYMENT, terrain={"B2": CV, "C2": CV}, first_deployer=S)
    refused(state, Deploy(S, "rhi", c("B2")), "B5", "cannot_deploy_here")
    state, _ = act(state, Deploy(S, "cap", c("B2")))
    state, _ = act(state, Deploy(S, "bik", c("C2")))  # Ruling: bikes can enter Cover
    assert state.units["bik"].cell == c("C2")
    north = at_phase(Phase.DEPLOYMENT, terrain={"B5": CV}, first_deployer=N)
    north, _ = act(north, Deploy(N, "rai", c("B5")))  # a skimmer is no ground vehicle
    assert north.units["rai"].cell == c("B5")


@pytest.mark.parametrize("kind", [OB, W])
def test_B5_nothing_deploys_on_obstacle_or_water(kind: TerrainKind) -> None:
    state = at_phase(Phase.DEPLOYMENT, terrain={"B2": kind})
    refused(state, Deploy(S, "cap", c("B2")), "B5", "cannot_deploy_here")
    refused(state, Deploy(S, "bik", c("B2")), "B5", "cannot_deploy_here")


def test_B5_deployment_refused_if_the_rest_could_not_follow() -> None:
    army = [(f"pre{i}", "predator") for i in range(8)] + [("bik1", "bikers"), ("bik2", "bikers")]
    terrain = {"A1": OB, "B1": W, "C1": CV, "D1": CV}  # 8 open cells for 8 Predators
    state = at_phase(Phase.DEPLOYMENT, south=army, terrain=terrain)
    error = refused(state, Deploy(S, "bik1", c("E1")), "B5", "deploy_blocks_others")
    assert error.params == {"unit": "bik1", "cell": "E1"}
    state, _ = act(state, Deploy(S, "bik1", c("C1")))
    state, _ = act(state, Deploy(S, "bik2", c("D1")))
    state, _ = act(state, Deploy(S, "pre0", c("E1")))
    assert [u.id for u in state.living(S) if not u.deployed] == [f"pre{i}" for i in range(1, 8)]


# -- B6 and the whole sequence ----------------------------------------------------------------
@pytest.mark.parametrize(("die", "loser_first"), [(2, True), (2, False), (5, True), (5, False)])
def test_B6_round_one_starts_with_the_roll_off_winner(die: int, loser_first: bool) -> None:
    winner = S if die <= 3 else N
    loser = winner.other
    deployer = loser if loser_first else winner
    state, events = act(fresh(), RollOff(), [die])
    steps: list[Action] = [ChooseDeployOrder(loser, loser_first)]
    for phase_actions in (terrain_of, sps_of, deployment_of):
        steps += phase_actions(deployer) + phase_actions(deployer.other)
    for action in steps[:-1]:
        state, new = act(state, action)
        assert of_type(new, TurnStarted) == []
        events += new
    assert state.phase is Phase.DEPLOYMENT
    state, last = act(state, steps[-1])
    assert of_type(last, TurnStarted) == [TurnStarted(1, winner)]
    assert isinstance(last[-1], TurnStarted)  # after the last unit is deployed
    assert (state.phase, state.round, state.active) == (Phase.PLAYING, 1, winner)
    assert acting_side(state) is winner
    refused(state, EndTurn(loser), "C1", "not_your_turn")
    # The whole sequence, in order: roll-off, order, 12 pieces, 6 SPs, every unit.
    events += last
    kinds = [type(e) for e in events if not isinstance(e, SetupStep)]
    assert kinds == (
        [RolledOff, DeployOrderChosen]
        + [TerrainPlaced] * 12
        + [SPPlaced] * 6
        + [UnitDeployed] * 8
        + [TurnStarted]
    )
    assert [s.step for s in of_type(events, SetupStep)] == [
        "deploy_order",
        "terrain",
        "terrain",
        "sp",
        "sp",
        "deployment",
        "deployment",
    ]
    assert [s.side for s in of_type(events, SetupStep)][1:] == [deployer, deployer.other] * 3
    assert all(u.deployed for u in state.units.values())
    assert state.units["tac"].embarked_in == "rhi"
    assert state.units["war"].embarked_in == "rai"


def test_B6_no_moves_before_setup_ends() -> None:
    state = at_phase(Phase.DEPLOYMENT)
    state, _ = act(state, Deploy(S, "cap", c("B1")))
    refused(state, Move(S, "cap", (c("B2"),)), "C1", "not_playing")
