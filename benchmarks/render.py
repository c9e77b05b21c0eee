"""Board image benchmark: ``python -m benchmarks.render [--runs N] [--games N] [--out DIR]``.

First what production does: ``--games`` distinct mid-game boards (each its own terrain,
players' names and language), drawn in turn as a busy bot draws them. Each game's first
image is *cold* (nothing of that game drawn before in this process), then the same game
again right away is *warm*; then a second round through all of them in turn (a game's
next image after every other game's) -- at 800 px, at 1600 px and as the recap of a turn.
Then the old single-game figure: a mid-game 6x6 board with 20 units on it and the last
action (an attack that destroys its target) overlaid, ``--runs`` times at 800 px and again
at twice the pixel density (``scale=2``, 1600 px, for phones), then the replay of a
150-action random game (its wall time the first in the process, then its CPU time drawn
again, the median of three).
Then the board as a worker job (``work.board_png``): the call pickled as the bot's pool
pickles it, unpickled, drawn, the PNG pickled back, all CPU time added.
Then the recap image of a whole turn (``render_turn``: the busiest turn of that game, every
move, attack and death drawn). The last line is ``median_ms=X png_bytes=Y replay_s=Z
replay_bytes=W replay_cpu_s=R median_ms_2x=X2 png_bytes_2x=Y2 turn_ms=T turn_bytes=B
cold_ms=C warm_ms=H cold_ms_2x=C2 warm_ms_2x=H2 turn_cold_ms=TC turn_warm_ms=TH``, the
same as CPU time (``cold_cpu_ms=...``) and the worker job's ``job_cpu_ms=J
job_pickle_cpu_ms=P job_call_bytes=N``.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.reduction import ForkingPickler
from pathlib import Path

from vahalite_bot.codex.loader import all_sheets, demo_factions
from vahalite_bot.discord import work
from vahalite_bot.discord.workers import register_pickling
from vahalite_bot.render import render_board, render_replay, render_turn
from vahalite_bot.render.replay import steps
from vahalite_bot.rules.actions import Action, Attack, EndTurn, Move, RollOff
from vahalite_bot.rules.dice import FairDice, FixedDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.queries import legal_actions
from vahalite_bot.rules.roster import Roster, RosterEntry, field_units
from vahalite_bot.rules.scenario import STANDARD, Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.rules.state import GameState, Phase, SPState, new_game

REPLAY_ACTIONS = 150


@dataclass(frozen=True)
class Game:
    """A game's log: enough to replay it (``FairDice(seed)`` gives the same dice again)."""

    initial: GameState
    actions: tuple[Action, ...]
    seed: bytes

    def dice(self) -> FairDice:
        return FairDice(self.seed)


# Each training faction's "500" list and four more units: ten units a side make a long
# game (a 500-point game of random players is over in about 110 actions).
EXTRA = {
    "imperials": ("scouts", "dreadnought", "assault", "predator"),
    "raiders": ("slaves", "grotesque", "ravager", "warriors"),
}


def demo_initial() -> GameState:
    """A game before the roll-off: imperials south, raiders north."""
    factions = demo_factions()
    sheets = all_sheets(factions)
    forces: dict[Side, list[tuple[str, UnitSheet]]] = {}
    taken: list[str] = []
    for side, faction in ((Side.SOUTH, "imperials"), (Side.NORTH, "raiders")):
        listed = factions[faction].lists["500"]
        extra = tuple(RosterEntry(sheet_id) for sheet_id in EXTRA[faction])
        roster = Roster(faction, listed.entries + extra)
        forces[side] = field_units(roster, sheets, taken)
        taken.extend(handle for handle, _ in forces[side])
    return new_game(STANDARD, forces)


def random_game(seed: int, max_actions: int = REPLAY_ACTIONS) -> Game:
    """A seeded random game: each side picks uniformly among its legal moves while it has
    any, then among its attacks, and ends its turn when neither is left. (Uniform over all
    legal actions, an early attack or end of turn would cut most turns short.)"""
    rng = random.Random(seed)
    dice_seed = seed.to_bytes(8, "big")
    dice = FairDice(dice_seed)
    initial = demo_initial()
    state = initial
    actions: list[Action] = []
    while state.phase is not Phase.ENDED and len(actions) < max_actions:
        options: list[Action] = [RollOff()]
        if state.phase is not Phase.ROLL_OFF:
            options = legal_actions(state)
        for kind in (Move, Attack, EndTurn):
            preferred: list[Action] = [a for a in options if isinstance(a, kind)]
            if preferred:
                options = preferred
                break
        action = rng.choice(options)
        state, _ = apply(state, action, dice)
        actions.append(action)
    return Game(initial, tuple(actions), dice_seed)


# -- the mid-game board ------------------------------------------------------------------
SOUTH_UNITS = {  # handle: (sheet, cell or the transport it rides)
    "cap1": ("captain", "B2"), "tac1": ("tactical", "C2"), "rhi1": ("rhino", "D2"),
    "tac2": ("tactical", "rhi1"), "sco1": ("scouts", "B3"), "dre1": ("dreadnought", "E3"),
    "ass1": ("assault", "C4"), "bik1": ("bikers", "F2"), "pre1": ("predator", "A1"),
    "whi1": ("whirlwind", "E1"), "tac3": ("tactical", "D1"),
}  # fmt: skip
NORTH_UNITS = {
    "arc1": ("archon", "C6"), "war1": ("warriors", "B5"), "rai1": ("raider", "D5"),
    "war2": ("warriors", "rai1"), "sla1": ("slaves", "E5"), "sla2": ("slaves", "A5"),
    "gro1": ("grotesque", "D4"), "rea1": ("reavers", "F6"), "rav1": ("ravager", "E6"),
    "raz1": ("razorwing", "B4"), "war3": ("warriors", "F4"),
}  # fmt: skip
TERRAIN = {
    "C1": TerrainKind.OBSTACLE, "F3": TerrainKind.WATER, "B3": TerrainKind.HEIGHT,
    "E2": TerrainKind.HEIGHT, "A2": TerrainKind.COVER, "D3": TerrainKind.COVER,
    "D6": TerrainKind.OBSTACLE, "A4": TerrainKind.WATER, "C5": TerrainKind.HEIGHT,
    "F5": TerrainKind.HEIGHT, "B6": TerrainKind.COVER, "E4": TerrainKind.COVER,
}  # fmt: skip
SPS = {"B2": Side.SOUTH, "D2": Side.SOUTH, "E3": Side.SOUTH,
       "C5": Side.NORTH, "D4": Side.SOUTH, "E5": Side.NORTH}  # fmt: skip


def mid_game() -> GameState:
    """Round 3, south to act: 20 units on the board (and two more embarked)."""
    sheets: dict[str, UnitSheet] = all_sheets(demo_factions())
    placed = {Side.SOUTH: SOUTH_UNITS, Side.NORTH: NORTH_UNITS}
    forces = {
        side: [(h, sheets[s]) for h, (s, _) in units.items()] for side, units in placed.items()
    }
    state = new_game(STANDARD, forces)
    for units in placed.values():
        for handle, (_, at) in units.items():
            unit = state.units[handle]
            unit.deployed = True
            if at in state.units:
                unit.embarked_in = at
            else:
                unit.cell = Cell.parse(at)
    state.units["dre1"].hp = 3
    state.units["tac1"].hp = 3
    state.units["rav1"].hp = 2
    state.units["gro1"].hp = 2
    for name, kind in TERRAIN.items():
        state.terrain[Cell.parse(name)] = Terrain(kind)
    for name, side in SPS.items():
        state.sps[Cell.parse(name)] = SPState(placed_by=side, holder=side)
    state.phase = Phase.PLAYING
    state.first_player = Side.SOUTH
    state.first_deployer = Side.NORTH
    state.round = 3
    state.active = Side.SOUTH
    return state


def last_action() -> tuple[GameState, GameState, list[Event]]:
    """The mid-game board after the dreadnought shoots the grotesque dead: (before, after,
    events)."""
    before = mid_game()
    after, events = apply(before, Attack(Side.SOUTH, "dre1", "gro1"), FixedDice([6] * 40))
    return before, after, events


# -- many distinct games ----------------------------------------------------------------
NAMES = ("Алексей", "Bob", "Мария", "Chen Wei", "Ødegård", "Светлана-Юлия", "kx", "Ana")
TERRAIN_KINDS = (TerrainKind.OBSTACLE, TerrainKind.WATER, TerrainKind.HEIGHT, TerrainKind.COVER)


@dataclass(frozen=True)
class Scene:
    """One game's last action, as the bot draws it."""

    before: GameState
    after: GameState
    events: list[Event]
    names: dict[Side, str]
    lang: str


def distinct_scene(seed: int) -> Scene:
    """The mid-game board with the game's own terrain (a dozen pieces on the cells no unit
    holds, some improved), its players' names and language, after the same attack."""
    rng = random.Random(seed)
    before = mid_game()
    before.terrain.clear()
    held = {u.cell for u in before.units.values() if u.cell is not None}
    sight = {Cell.parse("D3"), Cell.parse("E4")}  # between E3 and D4: the attack sees past
    free = [c for c in STANDARD.cells() if c not in held | sight]
    for cell in rng.sample(free, 12):
        before.terrain[cell] = Terrain(rng.choice(TERRAIN_KINDS), improvement=rng.randint(0, 2))
    after, events = apply(before, Attack(Side.SOUTH, "dre1", "gro1"), FixedDice([6] * 40))
    south, north = rng.sample(NAMES, 2)
    names = {Side.SOUTH: f"{south} {seed}", Side.NORTH: north}
    return Scene(before, after, events, names, "ru" if seed % 2 == 0 else "en")


@dataclass(frozen=True)
class Timed:
    wall_ms: float  # median wall clock, as the bot waits for it
    cpu_ms: float  # median CPU time of this process: what the shared machine blurs less


def timed(runs: list[tuple[float, float]]) -> Timed:
    return Timed(
        statistics.median(w for w, _ in runs) * 1000, statistics.median(c for _, c in runs) * 1000
    )


@dataclass(frozen=True)
class ColdWarm:
    cold: Timed  # each game's first image
    warm: Timed  # the same image again right after
    rotation: Timed  # its next image after every other game's (a busy bot)


def bench_games(games: int, first_seed: int, scale: int = 1, recap: bool = False) -> ColdWarm:
    """Each of ``games`` distinct games (seeds from ``first_seed`` on: give each call its
    own, so no game is drawn by two) drawn cold, again warm, then once more in turn."""
    scenes = [distinct_scene(first_seed + i) for i in range(games)]

    def draw(scene: Scene) -> tuple[float, float]:
        start, start_cpu = time.perf_counter(), time.process_time()
        if recap:
            render_turn(scene.before, scene.after, scene.events, names=scene.names,
                        lang=scene.lang, scale=scale)  # fmt: skip
        else:
            render_board(scene.after, events=scene.events, before=scene.before,
                         names=scene.names, lang=scene.lang, scale=scale)  # fmt: skip
        return time.perf_counter() - start, time.process_time() - start_cpu

    cold, warm = [], []
    for scene in scenes:
        cold.append(draw(scene))
        warm.append(draw(scene))
    rotation = [draw(scene) for scene in scenes]
    return ColdWarm(timed(cold), timed(warm), timed(rotation))


@dataclass(frozen=True)
class Job:
    """A board as the bot's worker pool makes it: the call pickled in the bot, unpickled in
    the worker, drawn, and the PNG pickled back (CPU ms, medians over distinct cold games)."""

    total_cpu_ms: float  # all of it, both processes' parts added
    pickle_cpu_ms: float  # the four (un)picklings alone
    call_bytes: int  # the pickled call: the states before and after, events, names


def bench_jobs(games: int, first_seed: int) -> Job:
    register_pickling()  # as the bot's pool pickles
    scenes = [distinct_scene(first_seed + i) for i in range(games)]
    totals: list[float] = []
    pickles: list[float] = []
    size = 0
    for scene in scenes:
        call = (work.board_png, scene.after, list(scene.events), scene.before, scene.names,
                scene.lang)  # fmt: skip
        start = time.process_time()
        sent = bytes(ForkingPickler.dumps(call))
        function, *args = pickle.loads(sent)
        unpickled = time.process_time()
        png = function(*args)
        drawn = time.process_time()
        pickle.loads(ForkingPickler.dumps(png))
        end = time.process_time()
        totals.append(end - start)
        pickles.append(end - drawn + unpickled - start)
        size = len(sent)
    return Job(statistics.median(totals) * 1000, statistics.median(pickles) * 1000, size)


# -- measuring ---------------------------------------------------------------------------
@dataclass(frozen=True)
class BoardTimes:
    median_ms: float  # wall clock, as the bot waits for it
    cpu_ms: float  # CPU time of this process: what the wall time is on an idle machine
    png_bytes: int
    first_ms: float  # the first image of a board: static layer, palette, tokens


def bench_board(runs: int, out: Path | None, scale: int = 1) -> BoardTimes:
    before, after, events = last_action()
    names = {Side.SOUTH: "Алексей", Side.NORTH: "Bob"}
    start = time.perf_counter()
    png = render_board(after, events=events, before=before, names=names, scale=scale)
    first = time.perf_counter() - start
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        png = render_board(after, events=events, before=before, names=names, scale=scale)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    if out is not None:
        (out / ("board.png" if scale == 1 else f"board-{scale}x.png")).write_bytes(png)
    return BoardTimes(
        statistics.median(wall) * 1000, statistics.median(cpu) * 1000, len(png), first * 1000
    )


@dataclass(frozen=True)
class ReplayTimes:
    wall_s: float  # the first replay drawn in this process (the 600 px frame layer with it)
    cpu_s: float  # CPU time of the replay drawn again, median of ``REPLAY_RUNS``
    gif_bytes: int
    actions: int


REPLAY_RUNS = 3


def bench_replay(out: Path | None) -> ReplayTimes:
    game = random_game(seed=7)
    start = time.perf_counter()
    data = render_replay(game.initial, game.actions, game.dice())
    elapsed = time.perf_counter() - start
    cpu: list[float] = []
    for _ in range(REPLAY_RUNS):
        start_cpu = time.process_time()
        render_replay(game.initial, game.actions, game.dice())
        cpu.append(time.process_time() - start_cpu)
    if out is not None:
        (out / "replay.gif").write_bytes(data)
    return ReplayTimes(elapsed, statistics.median(cpu), len(data), len(game.actions))


def busiest_turn(game: Game) -> tuple[GameState, GameState, list[Event]]:
    """The turn of ``game`` with the most events: (the state before it, after it, its
    events), as a recap draws it."""
    best: tuple[GameState, GameState, list[Event]] | None = None
    start: GameState | None = None
    events: list[Event] = []
    for step in steps(game.initial, game.actions, game.dice()):
        if step.before.phase is not Phase.PLAYING:
            continue
        if start is None:
            start, events = step.before, []
        events.extend(step.events)
        if step.ends_turn is not None or step.after.phase is Phase.ENDED:
            if best is None or len(events) > len(best[2]):
                best = (start, step.after, events)
            start = None
    assert best is not None, "the game has no turn"
    return best


def bench_turn(runs: int, out: Path | None) -> tuple[float, int]:
    """The median wall time of ``render_turn`` of the busiest turn, and its PNG's size."""
    before, after, events = busiest_turn(random_game(seed=7))
    names = {Side.SOUTH: "Алексей", Side.NORTH: "Bob"}
    png = render_turn(before, after, events, names=names)
    wall: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        png = render_turn(before, after, events, names=names)
        wall.append(time.perf_counter() - start)
    if out is not None:
        (out / "turn.png").write_bytes(png)
    return statistics.median(wall) * 1000, len(png)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.render", description=__doc__)
    parser.add_argument("--runs", type=int, default=200, help="board renders to time")
    parser.add_argument("--games", type=int, default=40, help="distinct games to draw in turn")
    parser.add_argument("--out", type=Path, help="write board.png, replay.gif and turn.png here")
    args = parser.parse_args(argv)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    cold = bench_games(args.games, first_seed=1)
    cold_2x = bench_games(args.games, first_seed=1 + args.games, scale=2)
    turn_cold = bench_games(args.games, first_seed=1 + 2 * args.games, recap=True)
    job = bench_jobs(args.games, first_seed=1 + 3 * args.games)
    for label, cw in (("board", cold), ("board 2x", cold_2x), ("turn recap", turn_cold)):
        print(
            f"{label}, {args.games} distinct games, median wall (CPU) ms: cold "
            f"{cw.cold.wall_ms:.2f} ({cw.cold.cpu_ms:.2f}), warm {cw.warm.wall_ms:.2f} "
            f"({cw.warm.cpu_ms:.2f}), in turn {cw.rotation.wall_ms:.2f} "
            f"({cw.rotation.cpu_ms:.2f}); cold/warm CPU {cw.cold.cpu_ms / cw.warm.cpu_ms:.2f}"
        )
    print(
        f"worker job (board), {args.games} distinct games, median CPU ms: {job.total_cpu_ms:.2f}"
        f" of which pickling {job.pickle_cpu_ms:.2f}; the call {job.call_bytes} bytes"
    )
    board = bench_board(args.runs, args.out)
    double = bench_board(args.runs, args.out, scale=2)
    for label, times in (("board", board), ("board 2x", double)):
        print(
            f"{label}: {args.runs} renders, median {times.median_ms:.2f} ms wall, "
            f"{times.cpu_ms:.2f} ms CPU; {times.png_bytes} bytes; the first render of this "
            f"board (static layer, palette, tokens) {times.first_ms:.0f} ms"
        )
    replay = bench_replay(args.out)
    print(
        f"replay (gif): {replay.actions} actions, {replay.wall_s:.2f} s, {replay.gif_bytes} "
        f"bytes; drawn again, median of {REPLAY_RUNS}: {replay.cpu_s:.3f} s CPU"
    )
    turn_ms, turn_bytes = bench_turn(args.runs, args.out)
    print(f"turn recap: {args.runs} renders, median {turn_ms:.2f} ms wall; {turn_bytes} bytes")
    print(
        f"median_ms={board.median_ms:.2f} png_bytes={board.png_bytes} "
        f"replay_s={replay.wall_s:.2f} replay_bytes={replay.gif_bytes} "
        f"replay_cpu_s={replay.cpu_s:.3f} "
        f"median_ms_2x={double.median_ms:.2f} png_bytes_2x={double.png_bytes} "
        f"turn_ms={turn_ms:.2f} turn_bytes={turn_bytes} "
        f"cold_ms={cold.cold.wall_ms:.2f} warm_ms={cold.warm.wall_ms:.2f} "
        f"cold_ms_2x={cold_2x.cold.wall_ms:.2f} warm_ms_2x={cold_2x.warm.wall_ms:.2f} "
        f"turn_cold_ms={turn_cold.cold.wall_ms:.2f} turn_warm_ms={turn_cold.warm.wall_ms:.2f} "
        f"cold_cpu_ms={cold.cold.cpu_ms:.2f} warm_cpu_ms={cold.warm.cpu_ms:.2f} "
        f"cold_cpu_ms_2x={cold_2x.cold.cpu_ms:.2f} warm_cpu_ms_2x={cold_2x.warm.cpu_ms:.2f} "
        f"turn_cold_cpu_ms={turn_cold.cold.cpu_ms:.2f} "
        f"turn_warm_cpu_ms={turn_cold.warm.cpu_ms:.2f} "
        f"job_cpu_ms={job.total_cpu_ms:.2f} job_pickle_cpu_ms={job.pickle_cpu_ms:.2f} "
        f"job_call_bytes={job.call_bytes}"
    )


if __name__ == "__main__":
    main()
