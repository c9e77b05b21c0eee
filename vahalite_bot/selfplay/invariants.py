"""What must hold in every game, checked from the outside: after each action (the state),
at the end (the log against the state) and on replay (K1, K2). Each check returns the
problems found, as developer text; an empty list means it holds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable

from vahalite_bot.rules.dice import DiceStream, FairDice, FixedDice, commitment, verify
from vahalite_bot.rules.engine import replay
from vahalite_bot.rules.events import (
    AttackResolved,
    GameEnded,
    Moved,
    Score,
    SPCaptured,
    SPPlaced,
    TurnEnded,
    TurnStarted,
    UnitDestroyed,
)
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.reserve import LAST_RESERVE_ROUND
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState, PendingPlacement, Phase, UnitState
from vahalite_bot.rules.victory import score
from vahalite_bot.selfplay.game import GameRecord


# -- the state, after every action --------------------------------------------------------
def state_problems(state: GameState) -> list[str]:
    problems: list[str] = []
    holders: dict[Cell, str] = {}
    passengers: Counter[str] = Counter()
    for unit in state.units.values():
        problems.extend(_unit_problems(state, unit))
        if unit.destroyed:
            continue
        if unit.cell is not None:
            if unit.cell in holders:
                problems.append(f"{unit.id} and {holders[unit.cell]} share {unit.cell.name}")
            holders[unit.cell] = unit.id
        if unit.embarked_in is not None:
            passengers[unit.embarked_in] += 1
    for transport, count in passengers.items():
        if count > 1:
            problems.append(f"{transport} carries {count} units (H1: one at a time)")
    if not 0 <= state.round <= state.scenario.rounds:
        problems.append(f"round {state.round} outside 0..{state.scenario.rounds}")
    for cell in state.sps:
        if state.scenario.is_edge(cell) or not _enterable(state, cell):
            problems.append(f"SP on {cell.name} breaks B4")
    return problems


def _unit_problems(state: GameState, unit: UnitState) -> list[str]:
    name = unit.id
    if unit.destroyed:
        if unit.hp != 0 or unit.cell is not None:
            return [f"destroyed {name} has hp {unit.hp} and cell {unit.cell}"]
        return []
    problems: list[str] = []
    lowest = 0 if state.has(HouseRule.DAMAGE_AT_ROUND_END) else 1  # M2: falling at 0 HP
    if not lowest <= unit.hp <= unit.sheet.max_hp:
        problems.append(f"{name} hp {unit.hp} outside {lowest}..{unit.sheet.max_hp}")
    if unit.falling and not any(f.unit == name for f in state.falls):
        problems.append(f"{name} is falling but not in the falls (M2)")
    if state.phase in (Phase.PLAYING, Phase.ENDED) and not unit.deployed:
        problems.append(f"{name} never deployed")
    if unit.cell is not None and unit.embarked_in is not None:
        problems.append(f"{name} is both on {unit.cell.name} and in {unit.embarked_in}")
    problems.extend(_reserve_problems(state, unit))
    waiting = unit.in_reserve or any(
        p.unit == name for p in state.pending if isinstance(p, PendingPlacement)
    )
    if unit.deployed and unit.cell is None and unit.embarked_in is None and not waiting:
        problems.append(f"{name} is alive and deployed but nowhere")
    if unit.embarked_in is not None:
        problems.extend(_passenger_problems(state, unit, unit.embarked_in))
    if unit.cell is not None:
        cell = unit.cell
        if state.round == 0 and not state.scenario.in_deploy_zone(unit.side, cell):
            problems.append(f"{name} deployed on {cell.name}, outside its zone (B5)")
        if not state.scenario.on_board(cell):
            problems.append(f"{name} off the board at {cell}")
        elif unit.is_flyer:
            # D4: flyers end on any cell but an Obstacle or an SP.
            if state.terrain_kind(cell) is TerrainKind.OBSTACLE or cell in state.sps:
                problems.append(f"flyer {name} on {cell.name} (D4)")
        elif not state.can_stand(unit, cell):
            problems.append(f"{name} on {cell.name}, {state.terrain_kind(cell)} (D2)")
    return problems


def _reserve_problems(state: GameState, unit: UnitState) -> list[str]:
    """M5: a reserve is off the board, with its passenger if any, and never after round 4."""
    if not unit.in_reserve:
        return []
    problems: list[str] = []
    if not state.has(HouseRule.RESERVE):
        problems.append(f"{unit.id} in reserve without M5")
    if unit.cell is not None:
        problems.append(f"{unit.id} in reserve but on {unit.cell.name}")
    if state.round > LAST_RESERVE_ROUND:
        problems.append(f"{unit.id} still in reserve in round {state.round} (M5)")
    return problems


def _passenger_problems(state: GameState, unit: UnitState, transport_id: str) -> list[str]:
    transport = state.units.get(transport_id)
    off_board = transport is not None and transport.in_reserve and unit.in_reserve  # M5
    if transport is None or transport.destroyed or (transport.cell is None and not off_board):
        return [f"{unit.id} rides {transport_id}, which is not on the board"]
    sheet = transport.sheet
    if transport.side is not unit.side or not sheet.is_transport:
        return [f"{unit.id} rides {transport_id}, not a friendly transport"]
    if unit.type not in sheet.carries or unit.models > sheet.capacity or unit.is_flyer:
        return [f"{unit.id} ({unit.models} {unit.type}) does not fit {transport_id} (H1)"]
    return []


def _enterable(state: GameState, cell: Cell) -> bool:
    kind = state.terrain_kind(cell)
    return kind is None or kind.enterable


# -- the log, at the end ---------------------------------------------------------------
def log_problems(record: GameRecord) -> list[str]:
    problems = dice_problems(record)
    problems.extend(turn_problems(record))
    problems.extend(score_problems(record))
    return problems


def dice_problems(record: GameRecord) -> list[str]:
    """K1: every die a d6, positions 0, 1, 2, ... in the order rolled, none missing."""
    dice = record.dice
    problems = [
        f"die {d.position} ({d.purpose}) = {d.value}" for d in dice if not 1 <= d.value <= 6
    ]
    positions = [d.position for d in dice]
    if positions != list(range(len(dice))):
        first = next(i for i, p in enumerate(positions) if p != i)
        problems.append(f"dice positions jump at index {first}: {positions[first]}")
    if record.final.dice_position != len(dice):
        problems.append(f"{record.final.dice_position} dice rolled, {len(dice)} in the events")
    return problems


def overwatch_problems(
    record: GameRecord, event: AttackResolved, turn: TurnStarted | None, watched: set[str]
) -> list[str]:
    """M7: the watcher fires in the enemy's turn, once per turn; it is not C2's attack."""
    problems: list[str] = []
    if event.attacker in watched:
        problems.append(f"{event.attacker} fired Overwatch twice in a turn (M7)")
    watched.add(event.attacker)
    if turn is None or record.initial.units[event.attacker].side is turn.side:
        problems.append(f"{event.attacker} fired Overwatch in its own turn (M7)")
    return problems


def turn_problems(record: GameRecord) -> list[str]:
    """C2, E5: one move and one attack per unit per turn, moves before attacks."""
    problems: list[str] = []
    moved: set[str] = set()
    attacked: set[str] = set()
    watched: set[str] = set()
    turn: TurnStarted | None = None
    for event in record.events:
        if isinstance(event, TurnStarted):
            turn, moved, attacked, watched = event, set(), set(), set()
        elif isinstance(event, TurnEnded):
            turn = None
        elif isinstance(event, Moved):
            where = f"round {turn.round if turn else '?'}"
            if event.unit in moved:
                problems.append(f"{event.unit} moved twice in {where}")
            if attacked:
                problems.append(f"{event.unit} moved after an attack in {where} (C2)")
            moved.add(event.unit)
        elif isinstance(event, AttackResolved) and event.overwatch:
            problems.extend(overwatch_problems(record, event, turn, watched))
        elif isinstance(event, AttackResolved):
            if event.attacker in attacked:
                problems.append(f"{event.attacker} attacked twice in a turn (E5)")
            attacked.add(event.attacker)
            attacker = record.initial.units[event.attacker]
            if turn is None or attacker.side is not turn.side:
                problems.append(f"{event.attacker} attacked outside its side's turn")
    return problems


def scores_from_events(record: GameRecord) -> dict[Side, Score]:
    """J2 computed from the events alone: SPs placed and captured, units destroyed, by whom."""
    units = record.initial.units
    holder: dict[Cell, Side] = {}
    kills: Counter[Side] = Counter()
    hq_kills: Counter[Side] = Counter()
    for event in record.events:
        if isinstance(event, SPPlaced | SPCaptured):
            holder[event.cell] = event.side
        elif isinstance(event, UnitDestroyed):
            killer = event.side.other
            kills[killer] += 1
            by = units.get(event.by) if event.by is not None else None
            if units[event.unit].is_hq and by is not None and by.is_hq and by.side is killer:
                hq_kills[killer] += 1
    held = Counter(holder.values())
    return {side: Score(held[side], kills[side], hq_kills[side]) for side in Side}


def score_problems(record: GameRecord) -> list[str]:
    problems: list[str] = []
    ends = [e for e in record.events if isinstance(e, GameEnded)]
    destroyed = Counter(e.unit for e in record.events if isinstance(e, UnitDestroyed))
    problems.extend(f"{u} destroyed {n} times" for u, n in destroyed.items() if n > 1)
    if not record.finished:
        return [*problems, "the game did not end"] if ends else problems
    if len(ends) != 1 or record.events[-1] is not ends[0]:
        return [*problems, f"{len(ends)} GameEnded events, or not the last event"]
    end = ends[0]
    implied = scores_from_events(record)
    for side, announced in ((Side.SOUTH, end.south), (Side.NORTH, end.north)):
        if implied[side] != announced:
            problems.append(f"{side.value}: announced {announced}, events imply {implied[side]}")
        if score(record.final, side) != announced:
            problems.append(f"{side.value}: announced {announced}, state says another score")
    if end.winner is not record.final.winner:
        problems.append(f"GameEnded names {end.winner}, the state {record.final.winner}")
    if end.reason == "score":
        vp = {side: implied[side].vp for side in Side}
        expected = None if vp[Side.SOUTH] == vp[Side.NORTH] else max(vp, key=vp.__getitem__)
        if end.winner is not expected:
            problems.append(f"winner {end.winner} but VP {vp} (J4)")
    elif end.reason == "annihilation":
        alive = {side: any(record.final.living(side)) for side in Side}
        if end.winner is None or not alive[end.winner] or alive[end.winner.other]:
            problems.append(f"annihilation won by {end.winner} with {alive} (J3)")
    return problems


# -- replay (K1, K2) --------------------------------------------------------------------
def summary(state: GameState) -> tuple[Hashable, ...]:
    """The state's content that replay must reproduce, in a comparable canonical form."""
    units = tuple(
        sorted((u.id, u.cell, u.embarked_in, u.hp, u.destroyed) for u in state.units.values())
    )
    terrain = tuple(sorted((cell, piece) for cell, piece in state.terrain.items()))
    sps = tuple(sorted((cell, sp.placed_by, sp.holder) for cell, sp in state.sps.items()))
    return (
        units,
        terrain,
        sps,
        state.phase,
        state.round,
        state.active,
        state.winner,
        state.pending,
        state.dice_position,
    )


def replay_problems(record: GameRecord) -> list[str]:
    problems: list[str] = []
    live = summary(record.final)
    dice = record.dice
    streams: dict[str, DiceStream] = {
        "recorded dice": FixedDice(d.value for d in dice),
        "fair seed": FairDice(record.seed),
    }
    for name, stream in streams.items():
        try:
            state, events = replay(record.initial, record.actions, stream)
        except Exception as error:  # a replay that cannot even finish is the finding
            problems.append(f"replay with the {name} failed: {error!r}")
            continue
        if summary(state) != live:
            problems.append(f"replay with the {name} ends in another state")
        if tuple(events) != record.events:
            problems.append(f"replay with the {name} gives other events")
    mismatches = verify(record.seed, commitment(record.seed), dice)
    problems.extend(f"die {d.position} ({d.purpose}) differs from the seed" for d in mismatches)
    return problems


def game_problems(record: GameRecord) -> list[str]:
    """Everything checkable at the end of a game (the per-action checks run as it goes)."""
    return [*state_problems(record.final), *log_problems(record), *replay_problems(record)]
