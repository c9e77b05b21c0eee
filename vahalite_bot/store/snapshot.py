"""A game's setup and its state snapshots as JSON-ready data.

The setup keeps the fielded sheets by value: a codex edited after a game began must not
change that game, nor its replay. A snapshot stores the state without the sheets (they never
change during a game) and without the scenario (it is in the setup), so it stays small.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from vahalite_bot.rules import setup as setup_rules
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.roster import Roster
from vahalite_bot.rules.scenario import Scenario, Side
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.rules.state import GameState, Phase, UnitState, new_game
from vahalite_bot.store import valuecodec


@dataclass(frozen=True)
class Setup:
    """What a game starts from: the board and each side's army as fielded."""

    scenario: Scenario
    rosters: dict[Side, Roster]
    forces: dict[Side, tuple[tuple[str, UnitSheet], ...]]
    house: frozenset[HouseRule] = frozenset()  # M: switched on at creation, fixed from B1

    @property
    def sheets(self) -> dict[str, UnitSheet]:
        return {handle: sheet for units in self.forces.values() for handle, sheet in units}

    def initial_state(self) -> GameState:
        return new_game(self.scenario, self.forces, self.house)


def encode_setup(setup: Setup) -> dict[str, Any]:
    data: dict[str, Any] = valuecodec.encode(setup)
    return data


def decode_setup(data: Mapping[str, Any]) -> Setup:
    return Setup(**valuecodec.decode_fields(Setup, data))


# The state's private caches (``_blocking``, ``_pieces``) hold the terrain again and are
# rebuilt on first use: a snapshot stored them, twice its size for nothing, and they were
# never valid after decoding. Snapshots written so still decode (the skip ignores them).
_STATE_SKIP = ("scenario", "units", "house", "_blocking", "_pieces")
_UNIT_SKIP = ("sheet",)
# The fields a snapshot keeps, in their declared order (the order of the stored text).
_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(GameState) if f.name not in _STATE_SKIP)
_UNIT_FIELDS = tuple(f.name for f in dataclasses.fields(UnitState) if f.name not in _UNIT_SKIP)


def encode_state(state: GameState) -> dict[str, Any]:
    encode = valuecodec.encode
    data = {name: encode(getattr(state, name)) for name in _STATE_FIELDS}
    data["units"] = {
        uid: {name: encode(getattr(unit, name)) for name in _UNIT_FIELDS}
        for uid, unit in state.units.items()
    }
    return data


def decode_state(data: Mapping[str, Any], setup: Setup) -> GameState:
    sheets = setup.sheets
    units = {
        uid: UnitState(sheet=sheets[uid], **valuecodec.decode_fields(UnitState, raw, _UNIT_SKIP))
        for uid, raw in data["units"].items()
    }
    fields = valuecodec.decode_fields(GameState, data, _STATE_SKIP)
    return GameState(scenario=setup.scenario, units=units, house=setup.house, **fields)


def turn_key(state: GameState) -> str:
    """Names the turn (or setup step) the state is in: a new key starts a new turn.

    A turn begins a snapshot, a deadline, and the span of a player's own undo.
    """
    if state.phase is Phase.PLAYING:
        assert state.active is not None
        return f"playing:{state.round}:{state.active.value}"
    if state.phase is Phase.ENDED:
        return "ended"
    actor = setup_rules.setup_actor(state)
    return f"{state.phase.value}:{'-' if actor is None else actor.value}"


def turn_ended(turns: Sequence[tuple[int, str]], side: Side) -> int:
    """Among snapshots' (seq, turn key), newest first: the seq of the one taken when
    ``side``'s newest finished turn gave way (0: none among them)."""
    mine = f":{side.value}"
    for (seq, _), (_, older) in pairwise(turns):
        if older.startswith(f"{Phase.PLAYING.value}:") and older.endswith(mine):
            return seq
    return 0


def play_began(turns: Sequence[tuple[int, str]]) -> int:
    """Among snapshots' (seq, turn key), newest first: the seq of the one taken when play
    began (the first turn's start), if a setup step's snapshot before it is among them
    (0: not among them)."""
    playing = f"{Phase.PLAYING.value}:"
    for (seq, turn), (_, older) in pairwise(turns):
        if turn.startswith(playing) and not older.startswith(playing):
            return seq
    return 0


def turn_side(state: GameState) -> Side | None:
    """Whose turn (or setup step) it is, pending decisions aside."""
    if state.phase is Phase.PLAYING:
        return state.active
    if state.phase is Phase.ENDED:
        return None
    return setup_rules.setup_actor(state)
