"""The log codec: every action and event of real games survives JSON and back (K1)."""

from __future__ import annotations

import json
import random

from vahalite_bot.rules.actions import Action, Move
from vahalite_bot.rules.codec import decode, encode
from vahalite_bot.rules.dice import FairDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.roster import field_units
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.state import new_game

from .builders import FACTIONS, SHEETS


def random_game(seed: int) -> list[Action | Event]:
    south = field_units(FACTIONS["imperials"].lists["500"], SHEETS)
    north = field_units(FACTIONS["raiders"].lists["500"], SHEETS, [h for h, _ in south])
    state = new_game(STANDARD, {Side.SOUTH: south, Side.NORTH: north})
    rng, dice = random.Random(seed), FairDice(bytes([seed]))
    logged: list[Action | Event] = []
    while actions := legal_actions(state):
        action = rng.choice(actions)
        state, events = apply(state, action, dice)
        logged += [action, *events]
    return logged


def test_K1_every_logged_value_round_trips_through_json() -> None:
    logged = random_game(5)
    kinds = {type(v).__name__ for v in logged}
    assert {"Move", "Attack", "AttackResolved", "GameEnded"} <= kinds
    for value in logged:
        assert decode(json.loads(json.dumps(encode(value)))) == value


def test_encoding_is_plain_data() -> None:
    data = encode(Move(Side.NORTH, "tac1", (Cell(2, 1), Cell(2, 2))))
    assert data == {"type": "Move", "side": "north", "unit": "tac1", "path": ["C2", "C3"]}
