"""Dice (rulebook K1-K2): every roll logged with its purpose and replayable; provably fair."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from tests.builders import SHEETS, Place, act, of_type, playing
from vahalite_bot.rules.actions import Action, Attack, Move, RollOff
from vahalite_bot.rules.dice import Die, FairDice, FixedDice, commitment, fair_die, verify
from vahalite_bot.rules.engine import apply, replay
from vahalite_bot.rules.events import AttackResolved, Event, MoraleTested, RolledOff
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.state import GameState, Phase, new_game

S, N = Side.SOUTH, Side.NORTH


def dice_in(value: Any) -> Iterator[Die]:
    """Every die an event carries, however deeply (attacks hold their weapons' dice)."""
    if isinstance(value, Die):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from dice_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from dice_in(getattr(value, f.name))


def initial_game() -> GameState:
    armies = {
        S: [("cap", "captain"), ("tac", "tactical"), ("rhi", "rhino"), ("bik", "bikers")],
        N: [("arc", "archon"), ("war", "warriors"), ("rai", "raider"), ("wing", "razorwing")],
    }
    return new_game(
        STANDARD, {side: [(h, SHEETS[s]) for h, s in units] for side, units in armies.items()}
    )


def self_play(seed: bytes, choices: int) -> tuple[GameState, list[Action], GameState, list[Event]]:
    """A whole game with the fair dice, actions picked by a seeded chooser (attacks first)."""
    rng = random.Random(choices)
    dice = FairDice(seed)
    initial = state = initial_game()
    actions: list[Action] = []
    events: list[Event] = []
    while state.phase is not Phase.ENDED and len(actions) < 400:
        legal = legal_actions(state)
        attacks = [a for a in legal if isinstance(a, Attack)]
        moves = [a for a in legal if isinstance(a, Move)]
        action: Action
        if attacks and rng.random() < 0.8:
            action = rng.choice(attacks)
        elif moves and rng.random() < 0.7:
            action = rng.choice(moves)
        else:
            action = rng.choice(legal)
        state, new = apply(state, action, dice)
        actions.append(action)
        events.extend(new)
    return initial, actions, state, events


# -- K1 every roll logged, replayable ---------------------------------------------------------
def test_K1_each_die_carries_position_purpose_and_value() -> None:
    state = playing([Place("tac", "tactical", S, "C2"), Place("war", "warriors", N, "C4", hp=4)])
    # Bolters 5 dice (+1 vs Defense 4: 3+), missile launcher 1 (+3: 1+); 3 damage leaves 1 of
    # 6 HP: a morale test of one die (Morale 4).
    state, events = act(state, Attack(S, "tac", "war", melee=False), [3, 2, 6, 1, 1, 2, 5])
    rolled = list(dice_in(events))
    assert [d.position for d in rolled] == list(range(7))
    assert [d.value for d in rolled] == [3, 2, 6, 1, 1, 2, 5]
    purposes = [d.purpose for d in rolled]
    assert len(set(purposes[:5])) == 1
    assert len(set(purposes[:6])) == 2  # each weapon's dice are labelled apart
    assert purposes[6] != purposes[5]
    assert all(p for p in purposes)
    (resolved,) = of_type(events, AttackResolved)
    assert [len(w.dice) for w in resolved.weapons] == [5, 1]
    (morale,) = of_type(events, MoraleTested)
    assert [d.value for d in morale.dice] == [5]
    assert state.dice_position == 7


def test_K1_dice_positions_run_on_across_actions() -> None:
    state = playing(
        [
            Place("tac", "tactical", S, "C2"),
            Place("cap", "captain", S, "E2"),
            Place("war", "warriors", N, "C4"),
            Place("arc", "archon", N, "E4"),
        ]
    )
    state, first = act(state, Attack(S, "tac", "war", weapons=(1,)), [1])
    state, second = act(state, Attack(S, "cap", "arc", weapons=(1,)), [1])
    assert [d.position for d in dice_in(first + second)] == [0, 1]


def test_K1_replay_with_the_same_dice_gives_the_same_game() -> None:
    seed = b"K1 replay"
    initial, actions, final, events = self_play(seed, choices=7)
    assert final.phase is Phase.ENDED
    rolled = list(dice_in(events))
    assert [d.position for d in rolled] == list(range(final.dice_position))
    assert all(d.purpose and 1 <= d.value <= 6 for d in rolled)
    assert {d.purpose.split()[0] for d in rolled} >= {"roll-off", "attack"}
    # The same seed again ...
    assert replay(initial, actions, FairDice(seed)) == (final, events)
    # ... or the dice read back from the log alone.
    assert replay(initial, actions, FixedDice(d.value for d in rolled)) == (final, events)


def test_K1_replay_never_changes_the_initial_state() -> None:
    initial, actions, _, _ = self_play(b"K1 pure", choices=3)
    untouched = initial_game()
    replay(initial, actions[:30], FairDice(b"K1 pure"))
    assert initial == untouched


# -- K2 provably fair -------------------------------------------------------------------------
def test_K2_commitment_is_the_hash_of_the_seed() -> None:
    dice = FairDice(b"secret seed")
    assert dice.commitment == hashlib.sha256(b"secret seed").hexdigest()
    assert commitment(b"secret seed") == dice.commitment
    assert FairDice(b"another seed").commitment != dice.commitment


def test_K2_new_seeds_are_secret_and_distinct() -> None:
    a, b = FairDice.new(), FairDice.new()
    assert len(a.seed) >= 32
    assert a.seed != b.seed
    assert a.commitment != b.commitment


def test_K2_die_depends_on_seed_and_position_only() -> None:
    seed = b"position only"
    dice, again = FairDice(seed), FairDice(seed)
    forward = [dice.roll(p, "attack") for p in range(50)]
    backward = [again.roll(p, "morale") for p in reversed(range(50))][::-1]
    assert forward == backward == [fair_die(seed, p) for p in range(50)]
    assert len(set(forward)) == 6


def test_K2_engine_takes_each_die_at_its_position() -> None:
    seed = b"engine positions"
    _, events = apply(initial_game(), RollOff(), FairDice(seed))
    (rolled,) = of_type(events, RolledOff)
    assert rolled.die.value == fair_die(seed, 0)
    later = replace(initial_game(), dice_position=41)
    _, events = apply(later, RollOff(), FairDice(seed))
    assert of_type(events, RolledOff)[0].die == Die(41, "roll-off", fair_die(seed, 41))


def test_K2_faces_are_uniform() -> None:
    counts = Counter(fair_die(b"uniformity", p) for p in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    chi_square = sum((n - 1000) ** 2 / 1000 for n in counts.values())
    assert chi_square < 30  # 5 degrees of freedom: p < 0.0001 beyond 25.7


def test_K2_different_seeds_and_positions_are_independent() -> None:
    a = [fair_die(b"seed a", p) for p in range(6000)]
    b = [fair_die(b"seed b", p) for p in range(6000)]
    pairs = Counter(zip(a, b, strict=True))
    assert len(pairs) == 36
    chi_square = sum((n - 6000 / 36) ** 2 / (6000 / 36) for n in pairs.values())
    assert chi_square < 80  # 35 degrees of freedom: p < 0.0001 beyond 71
    neighbours = Counter(itertools.pairwise(a))
    expected = 5999 / 36
    assert sum((n - expected) ** 2 / expected for n in neighbours.values()) < 80


def test_K2_verify_accepts_honest_dice() -> None:
    seed = b"K2 verify"
    _, _, final, events = self_play(seed, choices=11)
    rolled = list(dice_in(events))
    assert len(rolled) == final.dice_position > 1
    assert verify(seed, commitment(seed), rolled) == []


def test_K2_verify_finds_a_tampered_die() -> None:
    seed = b"K2 tamper"
    honest = [Die(p, "attack", fair_die(seed, p)) for p in range(20)]
    forged = replace(honest[7], value=honest[7].value % 6 + 1)
    tampered = [*honest[:7], forged, *honest[8:]]
    assert verify(seed, commitment(seed), tampered) == [forged]


def test_K2_verify_finds_a_skipped_or_repeated_position() -> None:
    seed = b"K2 sequence"
    honest = [Die(p, "attack", fair_die(seed, p)) for p in range(10)]
    skipped = [*honest[:4], *honest[5:]]  # die 4 rolled, disliked and dropped
    assert verify(seed, commitment(seed), skipped) == [honest[5]]
    repeated = [*honest[:5], honest[4], *honest[5:]]
    assert verify(seed, commitment(seed), repeated) == [honest[4]]
    assert verify(seed, commitment(seed), honest[6:], first=6) == []
    assert verify(seed, commitment(seed), honest[6:]) == [honest[6]]


def test_K2_verify_rejects_a_seed_that_was_not_committed() -> None:
    seed = b"K2 committed"
    honest = [Die(p, "attack", fair_die(seed, p)) for p in range(5)]
    with pytest.raises(ValueError, match="does not match"):
        verify(b"K2 other", commitment(seed), honest)


def test_K2_fixed_dice_refuse_non_d6_values() -> None:
    with pytest.raises(ValueError):
        FixedDice([1, 7])
