"""House rule M2 (damage at the end of the round), with fixed dice."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import cast

from tests.builders import FACTIONS, SHEETS, Place, act, c, of_type, playing
from vahalite_bot.app import deadlines
from vahalite_bot.app.book import Book
from vahalite_bot.rules.actions import Action, Advance, Attack, EndTurn, Move, PlacePassenger
from vahalite_bot.rules.codec import decode, encode
from vahalite_bot.rules.dice import FairDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.events import (
    AdvanceChosen,
    Advanced,
    AttackResolved,
    DamageStep,
    Event,
    GameEnded,
    MoraleTested,
    PassengerPlaced,
    PassengersHit,
    PlacementRequired,
    Score,
    SPCaptured,
    TurnStarted,
    UnitDestroyed,
    UnitFalling,
)
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.roster import field_units
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.state import (
    GameState,
    PendingPlacement,
    PendingReserve,
    Phase,
    new_game,
)
from vahalite_bot.selfplay.invariants import state_problems
from vahalite_bot.store.snapshot import Setup, decode_state, encode_state

S, N = Side.SOUTH, Side.NORTH
M2 = HouseRule.DAMAGE_AT_ROUND_END
FAR_S = Place("farS", "slaves", S, "A1")  # keep each army on the board (J3)
FAR_N = Place("farN", "slaves", N, "F6")


def m2_game(
    units: Iterable[Place], *, first: Side = S, active: Side = S, sps: dict[str, Side] | None = None
) -> GameState:
    """Round 1 under way with M2 on; every unit's round-start HP taken as its HP now."""
    state = playing(units, first=first, active=active, sps=sps)
    state.house = frozenset({M2})
    state.round_first = first
    for unit in state.units.values():
        unit.round_hp = unit.hp
    return state


def run(
    state: GameState, steps: Iterable[tuple[Action, list[int]]]
) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for action, dice in steps:
        state, new = act(state, action, dice)
        events.extend(new)
    return state, events


def test_M2_two_hqs_bring_each_other_to_zero_both_go_in_step_1_three_vp_each() -> None:
    """rulebook M2's test: both HQs go in step 1; each side scores 1 kill + 2 HQ-by-HQ."""
    state = m2_game([Place("cap", "captain", S, "C3", hp=3), Place("arc", "archon", N, "C4", hp=3)])
    state, events = run(
        state,
        [
            (Attack(S, "cap", "arc", melee=True), [6, 6, 6]),
            (Advance(S, "cap", False), []),
            (EndTurn(S), []),
            (Attack(N, "arc", "cap", melee=True), [6, 6, 6]),  # the falling archon strikes back
            (Advance(N, "arc", False), []),
            (EndTurn(N), []),
        ],
    )
    assert of_type(events, UnitFalling) == [
        UnitFalling("arc", N, "cap", "attack"),
        UnitFalling("cap", S, "arc", "attack"),
    ]
    step = events.index(of_type(events, DamageStep)[0])
    assert [type(e) for e in events[step:]] == [DamageStep, UnitDestroyed, UnitDestroyed, GameEnded]
    assert of_type(events, UnitDestroyed) == [
        UnitDestroyed("arc", N, "cap", "attack"),
        UnitDestroyed("cap", S, "arc", "attack"),
    ]
    end = of_type(events, GameEnded)[0]
    assert (end.south, end.north, end.winner) == (Score(0, 1, 1), Score(0, 1, 1), None)
    assert end.south.vp == end.north.vp == 3
    assert state.phase is Phase.ENDED


def test_M2_falling_unit_keeps_its_cell_and_is_not_destroyed() -> None:
    """M2: HP is lost at once, never below 0; the unit stays on its cell, not destroyed (F2)."""
    state = m2_game([Place("cap", "captain", S, "C3"), Place("tac", "tactical", N, "C4", hp=2)])
    after, events = act(state, Attack(S, "cap", "tac", melee=True), dice=[6, 6, 6])
    tac = after.units["tac"]
    assert (tac.hp, tac.destroyed, tac.cell, tac.falling) == (0, False, c("C4"), True)
    assert of_type(events, UnitDestroyed) == []
    assert of_type(events, AttackResolved)[0].hp_after == 0
    assert state_problems(after) == []


def test_M2_E7_dice_from_round_start_hp_a_falling_squad_fires_all_its_bolters() -> None:
    """M2: a unit's dice come from its HP at the start of the round: 4 models, 4 bolter dice."""
    state = m2_game(
        [Place("tac", "tactical", S, "C3", hp=4), Place("dread", "dreadnought", N, "C5"), FAR_N],
        first=N,
        active=N,
    )
    state, _ = act(state, Attack(N, "dread", "tac", melee=False), dice=[6, 6, 6, 6])
    assert state.units["tac"].falling
    state, _ = act(state, EndTurn(N))
    _, events = act(state, Attack(S, "tac", "dread", weapons=(0,)), dice=[1, 1, 1, 1])
    rolled = of_type(events, AttackResolved)[0].weapons[0]
    assert (rolled.dice_count, rolled.models) == (4, 4)


def test_M2_E7_damaged_profile_waits_for_the_next_round() -> None:
    """M2: brought to half HP, the dreadnought fires its full profile until the round ends."""
    state = m2_game(
        [Place("dread", "dreadnought", S, "C3", hp=4), Place("pred", "predator", N, "C5")],
        first=N,
        active=N,
    )
    state, _ = act(state, Attack(N, "pred", "dread"), dice=[6, 6])  # lascannons: 2 HP, now 2/6
    state, _ = act(state, EndTurn(N))
    state, events = act(state, Attack(S, "dread", "pred", melee=False), dice=[1] * 4)
    assert of_type(events, AttackResolved)[0].damaged_profile is False
    state, _ = run(state, [(EndTurn(S), []), (EndTurn(N), [])])  # damage step, round 2
    assert state.round == 2
    _, events = act(state, Attack(S, "dread", "pred", melee=False), dice=[1] * 2)
    resolved = of_type(events, AttackResolved)[0]
    assert (resolved.damaged_profile, resolved.weapons[0].dice_count) == (True, 2)


def test_M2_G1_tests_wait_for_step_4_in_the_order_units_reached_half() -> None:
    """M2: no G1 test at the attack; step 4 tests the units in the order they reached half."""
    state = m2_game(
        [
            Place("cap", "captain", S, "C3"),
            Place("tac", "tactical", S, "E2"),
            Place("war", "warriors", N, "C4"),
            Place("kab", "warriors", N, "E4"),
        ],
        first=N,
    )
    state, shot = act(state, Attack(S, "tac", "kab", weapons=(0,)), dice=[6, 6, 6, 1, 1])
    state, blow = act(state, Attack(S, "cap", "war", melee=True), dice=[6, 6, 6])
    assert of_type(shot + blow, MoraleTested) == []
    assert (state.units["kab"].hp, state.units["war"].hp) == (3, 3)
    state, events = act(state, EndTurn(S), dice=[6, 6, 6, 1, 6, 6])
    tests = of_type(events, MoraleTested)
    assert [(t.unit, t.reason, t.models_lost) for t in tests] == [
        ("kab", "half", 0),
        ("war", "half", 1),
    ]
    assert events.index(tests[-1]) < events.index(of_type(events, TurnStarted)[0])
    assert state.units["war"].hp == 2


def test_M2_D5_leaving_melee_is_tested_when_due() -> None:
    """M2: G1 waits, but a D5 test is rolled at once, before the move."""
    state = m2_game([Place("tac", "tactical", S, "C3"), Place("war", "warriors", N, "C4")])
    after, events = act(state, Move(S, "tac", (c("B3"),)), dice=[6, 6, 6, 6, 1])
    assert [(t.unit, t.reason, t.models_lost) for t in of_type(events, MoraleTested)] == [
        ("tac", "leaving_melee", 1)
    ]
    assert after.units["tac"].hp == 4


def test_M2_E10_advance_chosen_after_the_attack_made_in_step_3() -> None:
    """M2: the advance is chosen when the target falls, and made after step 1 removed it."""
    state = m2_game(
        [Place("cap", "captain", S, "C3"), Place("war", "warriors", N, "C4", hp=2), FAR_N],
        first=N,
    )
    state, events = act(state, Attack(S, "cap", "war", melee=True), dice=[6, 6, 6])
    assert [type(p).__name__ for p in state.pending] == ["PendingAdvance"]
    state, events = act(state, Advance(S, "cap", True))
    assert of_type(events, AdvanceChosen) == [AdvanceChosen("cap", c("C4"))]
    assert state.units["cap"].cell == c("C3")
    state, events = act(state, EndTurn(S))
    removed = events.index(UnitDestroyed("war", N, "cap", "attack"))
    advanced = events.index(Advanced("cap", c("C3"), c("C4")))
    assert removed < advanced
    assert state.units["cap"].cell == c("C4")


def test_M2_E10_no_advance_if_the_attacker_fell_too() -> None:
    """M2 step 3: the attacker must remain; a captain that fell meanwhile makes no advance."""
    state = m2_game(
        [
            Place("cap", "captain", S, "C3", hp=1),
            Place("war", "warriors", N, "C4", hp=2),
            Place("arc", "archon", N, "B3"),
        ],
    )
    state, _ = run(
        state,
        [
            (Attack(S, "cap", "war", melee=True), [6, 6, 6]),
            (Advance(S, "cap", True), []),
            (EndTurn(S), []),
            (Attack(N, "arc", "cap", melee=True), [6, 1, 1]),
            (Advance(N, "arc", False), []),
        ],
    )
    assert state.units["cap"].falling
    state, events = act(state, EndTurn(N))
    assert of_type(events, Advanced) == []
    assert state.units["cap"].destroyed and state.unit_at(c("C4")) is None


def test_M2_falling_unit_attacked_again_uselessly() -> None:
    """M2: a falling unit may be attacked: the dice roll, nothing happens, no new credit."""
    state = m2_game(
        [
            Place("cap", "captain", S, "C3"),
            Place("tac", "tactical", S, "C2"),
            Place("war", "warriors", N, "C4", hp=1),
            FAR_N,
        ],
    )
    state, _ = run(
        state, [(Attack(S, "cap", "war", melee=True), [6, 6, 6]), (Advance(S, "cap", False), [])]
    )
    state, events = act(state, Attack(S, "tac", "war", weapons=(1,)), dice=[6])
    assert of_type(events, AttackResolved)[0].damage == 0
    assert of_type(events, UnitFalling) == [] and state.pending == ()
    assert state.units["war"].destroyed_by == "cap"


def test_M2_falling_unit_still_captures_an_sp() -> None:
    """M2: a falling unit holds its cell, so ending the turn on an SP still takes it (J1)."""
    state = m2_game(
        [Place("cap", "captain", S, "C3"), Place("war", "warriors", N, "C4", hp=2), FAR_N],
        first=N,
        sps={"C4": S},
    )
    state, _ = run(
        state, [(Attack(S, "cap", "war", melee=True), [6, 6, 6]), (Advance(S, "cap", False), [])]
    )
    state, events = act(state, EndTurn(S))
    assert of_type(events, SPCaptured) == [SPCaptured(c("C4"), N, "war")]
    assert events.index(of_type(events, SPCaptured)[0]) < events.index(
        of_type(events, DamageStep)[0]
    )
    assert state.units["war"].destroyed and state.sps[c("C4")].holder is N


def test_M2_falling_transport_moves_its_passenger_out_and_goes_in_step_1() -> None:
    """M2: a falling transport may move and carry; once empty it goes in step 1, no H5."""
    state = m2_game(
        [
            Place("rhi", "rhino", S, "C3", hp=1),
            Place("tac", "tactical", S, "rhi"),
            Place("dread", "dreadnought", N, "C5"),
        ],
        first=N,
        active=N,
    )
    state, _ = act(state, Attack(N, "dread", "rhi", melee=False), dice=[6, 1, 1, 1])
    state, _ = act(state, EndTurn(N))
    state, _ = act(state, Move(S, "rhi", (c("B3"), c("B2"))))
    state, _ = act(state, Move(S, "tac", (c("A2"),)))
    state, events = act(state, EndTurn(S))
    assert of_type(events, PassengersHit) == []
    assert of_type(events, UnitDestroyed) == [UnitDestroyed("rhi", S, "dread", "attack")]
    assert state.units["tac"].cell == c("A2")


def test_M2_step_2_falling_transport_h5_then_owner_places_passenger() -> None:
    """M2 step 2: H5 for the passenger, the owner places it, and the damage step goes on."""
    state = m2_game(
        [
            Place("rhi", "rhino", S, "C3", hp=1),
            Place("tac", "tactical", S, "rhi"),
            Place("dread", "dreadnought", N, "C5"),
        ],
        active=N,
    )
    state, events = act(state, Attack(N, "dread", "rhi", melee=False), dice=[6, 1, 1, 1])
    assert state.units["rhi"].falling and state.passenger_of("rhi") is not None
    assert of_type(events, PassengersHit) == []
    state, events = act(state, EndTurn(N), dice=[6, 1, 1, 1, 1])
    assert [type(e) for e in events[-4:]] == [
        DamageStep,
        UnitDestroyed,
        PassengersHit,
        PlacementRequired,
    ]
    assert isinstance(state.pending[0], PendingPlacement) and state.round == 1
    assert legal_actions(state)[0] == PlacePassenger(S, "tac", state.pending[0].cells[0])
    state, events = act(state, PlacePassenger(S, "tac", c("B3")))
    assert of_type(events, PassengerPlaced) == [PassengerPlaced("tac", c("B3"))]
    assert of_type(events, TurnStarted) == [TurnStarted(2, S)]
    assert state.units["tac"].hp == 4 and state.damage_stage == 0


def test_M2_step_2_passenger_brought_to_zero_goes_at_once_credited_to_the_attacker() -> None:
    """M2 step 2: H5 bringing a passenger to 0 destroys it at once (G4, J2: the attacker)."""
    state = m2_game(
        [
            Place("rhi", "rhino", S, "C3", hp=1),
            Place("tac", "tactical", S, "rhi", hp=1),
            Place("dread", "dreadnought", N, "C5"),
            FAR_S,
        ],
        active=N,
    )
    state, _ = act(state, Attack(N, "dread", "rhi", melee=False), dice=[6, 1, 1, 1])
    state, events = act(state, EndTurn(N), dice=[6])
    assert of_type(events, UnitFalling) == []
    assert of_type(events, UnitDestroyed) == [
        UnitDestroyed("rhi", S, "dread", "attack"),
        UnitDestroyed("tac", S, "dread", "transport"),
    ]
    assert state.round == 2


def test_M2_J3_checked_only_in_step_5() -> None:
    """M2: the last enemy unit falling does not end the game; step 5 does (J3)."""
    state = m2_game([Place("cap", "captain", S, "C3"), Place("war", "warriors", N, "C4", hp=1)])
    state, _ = run(
        state, [(Attack(S, "cap", "war", melee=True), [6, 6, 6]), (Advance(S, "cap", False), [])]
    )
    assert state.phase is Phase.PLAYING
    state, _ = act(state, EndTurn(S))
    state, events = act(state, EndTurn(N))
    end = of_type(events, GameEnded)[0]
    assert (end.winner, end.reason) == (S, "annihilation")


def test_M2_damage_step_after_the_last_round_before_scoring() -> None:
    """M2: after round 6 the damage step runs first, so its kills are scored (J2)."""
    state = m2_game(
        [Place("cap", "captain", S, "C3"), Place("war", "warriors", N, "C4", hp=1), FAR_N]
    )
    state.round = state.scenario.rounds
    state, _ = run(
        state,
        [
            (Attack(S, "cap", "war", melee=True), [6, 6, 6]),
            (Advance(S, "cap", False), []),
            (EndTurn(S), []),
        ],
    )
    state, events = act(state, EndTurn(N))
    assert events.index(of_type(events, UnitDestroyed)[0]) < events.index(
        of_type(events, GameEnded)[0]
    )
    end = of_type(events, GameEnded)[0]
    assert (end.reason, end.south.kills) == ("score", 1)


def test_M2_M4_M5_K1_codec_round_trips_a_random_game() -> None:
    """K1 with M2, M4 and M5 on: every action and event of a random game survives JSON."""
    south = field_units(FACTIONS["imperials"].lists["500"], SHEETS)
    north = field_units(FACTIONS["raiders"].lists["500"], SHEETS, [h for h, _ in south])
    house = frozenset({M2, HouseRule.INITIATIVE, HouseRule.RESERVE})
    state = new_game(STANDARD, {S: south, N: north}, house)
    rng, dice = random.Random(29), FairDice(bytes([29]))
    logged: list[object] = []
    while actions := legal_actions(state):
        action = rng.choice(actions)
        state, events = apply(state, action, dice)
        logged += [action, *events]
    kinds = {type(v).__name__ for v in logged}
    assert {
        "UnitFalling",
        "AdvanceChosen",
        "DamageStep",
        "InitiativeRolled",
        "HoldInReserve",
        "ReserveHeld",
        "ReservePlaced",
        "FinishReserves",
    } <= kinds
    for value in logged:
        assert decode(json.loads(json.dumps(encode(value)))) == value


def test_M2_M5_state_snapshot_round_trips_falls_advances_and_reserves() -> None:
    """A game stored mid-round keeps its falling units, chosen advances, round-start HP,
    reserves and a pending reserve decision."""
    state = m2_game(
        [Place("cap", "captain", S, "C3"), Place("war", "warriors", N, "C4", hp=3), FAR_N],
        first=N,
    )
    state.house = frozenset({M2, HouseRule.RESERVE})
    state, _ = act(state, Attack(S, "cap", "war", melee=True), dice=[6, 6, 6])
    state, _ = act(state, Advance(S, "cap", True))
    state.pending = (PendingReserve(S, ("cap",)),)
    state.units["farN"].in_reserve = True
    setup = Setup(STANDARD, {}, {}, state.house)
    for unit in state.units.values():
        setup.forces.setdefault(unit.side, ())
        setup.forces[unit.side] += ((unit.id, unit.sheet),)
    again = decode_state(json.loads(json.dumps(encode_state(state))), setup)
    assert again == state
    assert again.falls and again.advances and again.units["war"].round_hp == 3


class _Book:
    """The part of ``app.book.Book`` that ``deadlines.end_turn`` uses: a state and ``act``."""

    def __init__(self, state: GameState) -> None:
        self.state: GameState | None = state
        self.acted: list[Action] = []

    def act(self, action: Action, *, actor: str | None, role: str, side: Side) -> None:
        assert self.state is not None
        self.state, _ = act(self.state, action)
        self.acted.append(action)


def test_M2_deadline_answers_the_damage_step_but_keeps_the_next_turn() -> None:
    """N1 with M2: the default placement of a passenger asked in the damage step finishes
    the round; the next round's first turn has just begun and is not ended with it."""
    state = m2_game(
        [
            Place("rhi", "rhino", S, "C3", hp=1),
            Place("tac", "tactical", S, "rhi"),
            Place("dread", "dreadnought", N, "C5"),
        ],
        active=N,
    )
    state, _ = act(state, Attack(N, "dread", "rhi", melee=False), dice=[6, 1, 1, 1])
    state, _ = act(state, EndTurn(N), dice=[1, 1, 1, 1, 1])
    book = _Book(state)
    deadlines.end_turn(cast(Book, book), actor=None, role="system")
    assert [type(a) for a in book.acted] == [PlacePassenger]
    assert book.state is not None and (book.state.round, book.state.active) == (2, S)


def test_M2_G1_owed_by_an_attack_survives_a_D5_test_before_the_damage_step() -> None:
    """G1 with M2: the half test an attack caused is still made in step 4, even if the unit
    took a D5 test (leaving melee) in the meantime."""
    state = m2_game(
        [
            Place("tac", "tactical", S, "C3"),
            Place("war", "warriors", N, "C4"),
            Place("kab", "warriors", N, "E3"),
        ],
        first=N,
        active=N,
    )
    state, _ = act(state, Attack(N, "kab", "tac", weapons=(0,)), dice=[6, 6, 6, 1, 1, 1])
    state, _ = act(state, EndTurn(N))
    state, moved = act(state, Move(S, "tac", (c("B3"),)), dice=[6, 6])
    state, events = act(state, EndTurn(S), dice=[6, 6])
    assert [t.reason for t in of_type(moved, MoraleTested)] == ["leaving_melee"]
    assert [t.reason for t in of_type(events, MoraleTested)] == ["half"]
    assert state.units["tac"].morale_tested
