"""One complete self-play game, setup included, and everything needed to replay it."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from vahalite_bot.codex.loader import Faction, all_sheets, demo_factions
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.dice import DiceStream, Die, FairDice
from vahalite_bot.rules.engine import acting_side, apply
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.roster import Roster, field_units
from vahalite_bot.rules.scenario import Scenario, Side
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.rules.state import GameState, Phase, new_game
from vahalite_bot.scenarios import shipped
from vahalite_bot.selfplay.armies import army_for
from vahalite_bot.selfplay.players import Player

# A game is bounded (each unit moves and attacks at most once a turn), so a game that
# runs past this many actions means a player or the engine loops.
MAX_ACTIONS = 5000

# The army every side fields: each demo faction's ready-made list, grown for a scenario
# with more points (selfplay/armies.py).
ARMY_LIST = "500"

Observer = Callable[[GameState, Action, list[Event]], None]

Forces = dict[Side, tuple[tuple[str, UnitSheet], ...]]
# Fielding the armies (lists grown, options applied, handles given) is the same work for
# every game that draws the same factions from the same mapping on the same scenario, and
# its result is frozen sheets: fielded once, shared by those games (each game makes its own
# units of them). By the objects' identity, which the entry keeps alive (so no id is reused
# while it is in the table).
_fielded: dict[tuple[int, int, str, str], tuple[object, object, Forces]] = {}
MAX_FIELDED = 1000  # entries kept before the table starts afresh


@dataclass(frozen=True)
class GameRecord:
    """What happened in one game: enough to replay it (initial state, actions, dice seed)."""

    index: int
    seed: bytes
    factions: Mapping[Side, str]
    initial: GameState
    actions: tuple[Action, ...]
    events: tuple[Event, ...]
    final: GameState

    @property
    def finished(self) -> bool:
        return self.final.phase is Phase.ENDED

    @property
    def dice(self) -> list[Die]:
        return dice_in(self.events)


def game_seed(run_seed: int, index: int) -> bytes:
    """The dice seed of game ``index`` of a run: a run is reproducible from its seed alone."""
    return hashlib.sha256(f"vahalite-selfplay:{run_seed}:{index}".encode()).digest()


def sub_rng(seed: bytes, purpose: str) -> random.Random:
    """An independent generator per purpose, so one player's draws never shift another's."""
    return random.Random(hashlib.sha256(seed + purpose.encode()).digest())


def initial_state(
    seed: bytes,
    factions: Mapping[str, Faction] | None = None,
    scenario: Scenario | None = None,
    house: frozenset[HouseRule] = frozenset(),
    matchup: Mapping[Side, str] | None = None,
) -> tuple[GameState, dict[Side, str]]:
    """A game before the roll-off on ``scenario`` (boards/standard.toml by default); each
    side fields a demo faction's army for its own points limit, the faction drawn by seed
    unless ``matchup`` names it."""
    factions = _demo_factions() if factions is None else factions
    scenario = shipped("standard") if scenario is None else scenario
    rng = sub_rng(seed, "armies")
    names = sorted(factions)
    chosen = {side: rng.choice(names) for side in Side}
    if matchup is not None:
        chosen = dict(matchup)
    key = (id(factions), id(scenario), chosen[Side.SOUTH], chosen[Side.NORTH])
    kept = _fielded.get(key)
    if kept is not None and kept[0] is factions and kept[1] is scenario:
        forces = kept[2]
    else:
        forces = _field(factions, scenario, chosen)
        if len(_fielded) >= MAX_FIELDED:
            _fielded.clear()
        _fielded[key] = (factions, scenario, forces)
    return new_game(scenario, forces, house), chosen


def _field(
    factions: Mapping[str, Faction], scenario: Scenario, chosen: Mapping[Side, str]
) -> Forces:
    """Each side's army as the game fields it (handles unique across both sides)."""
    sheets: dict[str, UnitSheet] = all_sheets(factions)
    forces: Forces = {}
    taken: list[str] = []
    for side in Side:
        roster = _army(factions[chosen[side]], sheets, scenario, side)
        forces[side] = tuple(field_units(roster, sheets, taken))
        taken.extend(handle for handle, _ in forces[side])
    return forces


def _army(
    faction: Faction, sheets: Mapping[str, UnitSheet], scenario: Scenario, side: Side
) -> Roster:
    """The game's limit is the scenario's first (the south one); north's follows it (L)."""
    limit = scenario.points_for(side, scenario.points_limits[0])
    return army_for(faction, sheets, limit, scenario.organisation(), ARMY_LIST)


@cache
def _demo_factions() -> dict[str, Faction]:
    return demo_factions()


def play_game(
    players: Mapping[Side, Player],
    seed: bytes,
    index: int = 0,
    factions: Mapping[str, Faction] | None = None,
    observe: Observer | None = None,
    max_actions: int = MAX_ACTIONS,
    house: frozenset[HouseRule] = frozenset(),
    scenario: Scenario | None = None,
    matchup: Mapping[Side, str] | None = None,
) -> GameRecord:
    """Play from the roll-off to the end (or ``max_actions``); exceptions propagate."""
    state, chosen = initial_state(seed, factions, scenario, house, matchup)
    initial = state.copy()
    dice: DiceStream = FairDice(seed)
    rngs = {side: sub_rng(seed, f"player:{side.value}") for side in Side}
    actions: list[Action] = []
    events: list[Event] = []
    while state.phase is not Phase.ENDED and len(actions) < max_actions:
        # The roll-off has no actor: the bot makes it, so the first player asks for it.
        side = acting_side(state) or Side.SOUTH
        action = players[side].choose(state, rngs[side])
        state, new = apply(state, action, dice)
        actions.append(action)
        events.extend(new)
        if observe is not None:
            observe(state, action, new)
    return GameRecord(index, seed, chosen, initial, tuple(actions), tuple(events), state)


def dice_in(events: list[Event] | tuple[Event, ...]) -> list[Die]:
    """Every die the events show, in the order they show them (K1)."""
    return [die for event in events for die in _dice(event)]


def _dice(value: object) -> Iterator[Die]:
    if isinstance(value, Die):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _dice(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _dice(getattr(value, f.name))
