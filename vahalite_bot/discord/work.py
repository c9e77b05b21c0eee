"""The CPU work the bot sends to its worker processes: plain functions of picklable values.

This module imports no discord: a worker loads only the game, the log codec and the images.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from itertools import combinations
from operator import attrgetter
from typing import Any, get_args

from vahalite_bot.app import records
from vahalite_bot.app.results import LogLine, RecapLog
from vahalite_bot.codex.loader import codex_factions, demo_factions
from vahalite_bot.discord import collector
from vahalite_bot.present.advice import explain
from vahalite_bot.present.paint import plain
from vahalite_bot.present.recap import recap_from, recap_text
from vahalite_bot.render import (
    DISCORD_MAX_BYTES,
    ReplayTooLarge,
    render_board,
    render_replay,
    render_turn,
)
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.dice import Die, FixedDice
from vahalite_bot.rules.events import Event, WeaponRolled
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import STANDARD, Scenario, Side, Terrain, TerrainKind
from vahalite_bot.rules.sheets import Names, UnitSheet
from vahalite_bot.rules.state import (
    Fall,
    GameState,
    Halved,
    PendingAdvance,
    PendingOrders,
    PendingPlacement,
    PendingReserve,
    Phase,
    SPState,
    UnitState,
    new_game,
)
from vahalite_bot.scenarios.loader import shipped, shipped_scenarios
from vahalite_bot.selfplay.levels import THINK_MS, make_player
from vahalite_bot.selfplay.players import Player

WORKER_NICENESS = 5


def board_png(
    state: GameState,
    events: Sequence[Any],
    before: GameState | None,
    names: Mapping[Side, str],
    lang: str,
) -> bytes:
    """The board after a change, the change drawn (the service's own records are not)."""
    drawn = [e for e in events if isinstance(e, Event)]
    return render_board(state, events=drawn, before=before, names=names, lang=lang)


def recap(
    log: RecapLog, side: Side, names: Mapping[Side, str], lang: str
) -> tuple[list[str], bytes] | None:
    """What happened since ``side``'s last turn: its text and one image of it all (None:
    nothing yet). Folding the log's tail onto its snapshot is worker work; ``ShortLog``
    asks the caller for the whole log."""
    found = recap_from(log, side)
    if found is None:
        return None
    text = recap_text(found.before, found.after, found.events, lang, plain)
    png = render_turn(found.before, found.after, found.events, names=names, lang=lang)
    return text, png


def replay(log: Sequence[LogLine], names: Mapping[Side, str], lang: str) -> bytes | None:
    """The whole game as a GIF under Discord's upload limit (None: nothing to replay, or it
    cannot be made small enough). A referee's override is outside the rules' replay: the
    animation stops before the first one."""
    kept = [line for line in log if not line.undone]
    start = next((line for line in kept if line.kind == records.START), None)
    if start is None:
        return None
    actions: list[Action] = []
    values: list[int] = []
    for line in kept:
        if line.kind == records.OVERRIDE:
            break
        if line.kind == records.ACTION:
            actions.append(line.record)
            values.extend(die.value for die in line.dice)
    try:
        return render_replay(
            start.record.setup.initial_state(),
            actions,
            FixedDice(values),
            names=names,
            lang=lang,
            max_bytes=DISCORD_MAX_BYTES,
        )
    except ReplayTooLarge:
        return None


def choose(state: GameState, player: str, seed: str, think_ms: float = THINK_MS) -> Action:
    """The automatic player's next action; ``seed`` makes it repeatable per game version.
    ``player`` is a level (or an older game's player name); ``think_ms`` bounds the search."""
    chosen: Player = make_player(player, think_ms)
    return chosen.choose(state, random.Random(seed))


def choose_explained(
    state: GameState, player: str, seed: str, think_ms: float, lang: str
) -> tuple[Action, str | None]:
    """``choose``, and one line on why for the post when the player searched (``hard``)."""
    chosen: Player = make_player(player, think_ms)
    action = chosen.choose(state, random.Random(seed))
    return action, explain(chosen, state, action, lang)


# -- the states sent here, smaller ---------------------------------------------------------
# Half of a pickled state was its units' sheets (a board's call 13.5 KB, 7.3 KB without them),
# and the bundled sheets are in every worker already: those go by name. Every game on Discord
# is played with the eight codexes, not the training factions, and a unit carries its sheet
# as fielded (``with_options``: no options left, those chosen applied), which no bundled
# sheet equals: so the name is the faction, the id and the options chosen (None: the sheet as
# bundled). Ids repeat across the two sets (the training "tactical" is not the codex's).
SheetName = tuple[str, str, tuple[str, ...] | None]
MAX_OPTIONS = 6  # a sheet offering more is named by its first six (64 choices to try)


@lru_cache(maxsize=1)
def _bundled() -> dict[tuple[str, str], UnitSheet]:
    factions = [*demo_factions().values(), *codex_factions().values()]
    return {(sheet.faction, sheet.id): sheet for f in factions for sheet in f.sheets.values()}


@lru_cache(maxsize=4096)
def codex_sheet(faction: str, sheet_id: str, options: tuple[str, ...] | None = None) -> UnitSheet:
    """The bundled sheet ``sheet_id`` of ``faction`` (fielded with ``options`` unless None),
    as a pickled state names it."""
    sheet = _bundled()[faction, sheet_id]
    return sheet if options is None else sheet.with_options(options)


def sheet_name(sheet: UnitSheet) -> SheetName | None:
    """``sheet``'s name if it is a bundled sheet, as bundled or fielded with some of its
    options in their order (None: a homebrew or changed sheet)."""
    bundled = _bundled().get((sheet.faction, sheet.id))
    if bundled is None:
        return None
    if bundled == sheet:
        return sheet.faction, sheet.id, None
    if sheet.options:  # a fielded sheet has none left
        return None
    offered = [option.id for option in bundled.options][:MAX_OPTIONS]
    for count in range(len(offered) + 1):
        for chosen in combinations(offered, count):
            if codex_sheet(sheet.faction, sheet.id, chosen) == sheet:
                return sheet.faction, sheet.id, chosen
    return None


# Naming a sheet compares it with bundled ones: some 40 us a sheet, 0.46 ms a board's call.
# The bot remembers the name of each sheet object it sent, as a game's states share their
# units' sheets version after version. An entry holds its sheet, so the id is not reused.
_NAMED: dict[int, tuple[UnitSheet, SheetName | None]] = {}
NAMED_MAX = 4096


def _named(sheet: UnitSheet) -> SheetName | None:
    known = _NAMED.get(id(sheet))
    if known is not None and known[0] is sheet:
        return known[1]
    name = sheet_name(sheet)
    if len(_NAMED) >= NAMED_MAX:
        _NAMED.clear()
    _NAMED[id(sheet)] = (sheet, name)
    return name


def reduce_sheet(sheet: UnitSheet) -> tuple[Any, ...]:
    """How the pool pickles a sheet: by name where it is a bundled one (``sheet_name``),
    else whole."""
    name = _named(sheet)
    if name is not None:
        by_name: Callable[..., UnitSheet] = codex_sheet
        return by_name, name
    whole = sheet.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    assert isinstance(whole, tuple)
    return whole


# A scenario's board (1.5 KB pickled) is one of the shipped ones in nearly every game, or the
# rules' own STANDARD (self-play, tests; the shipped standard board has names besides): by id.
def shipped_scenario(scenario_id: str, rules_default: bool = False) -> Scenario:
    """The shipped scenario ``scenario_id`` (``rules_default``: STANDARD), as a pickled
    state names it."""
    return STANDARD if rules_default else shipped(scenario_id)


def reduce_scenario(scenario: Scenario) -> tuple[Any, ...]:
    """How the pool pickles a scenario: by id where it is a shipped one, else whole."""
    by_id: Callable[[str, bool], Scenario] = shipped_scenario
    if shipped_scenarios().get(scenario.id) == scenario:
        return by_id, (scenario.id, False)
    if scenario == STANDARD:
        return by_id, (scenario.id, True)
    whole = scenario.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    assert isinstance(whole, tuple)
    return whole


# After the sheets, most of a board's call was its two states' units (some twenty each),
# their cells and the events, pickled as a dataclass is by default: each with its dict (every
# field's name again in every unit), a state with its private caches (the terrain again),
# each cell by a call of NamedTuple's ``__getnewargs__``. They go as their class and the
# values of the fields ``==`` compares, in order, and the class is called on them: the same
# value, its caches (the state's, a unit's or sheet's cached properties) left to fill on
# first use. ``copy`` and other picklers are untouched: this is the pool's pickler only.
SENT_BY_FIELDS: tuple[type, ...] = (
    GameState, UnitState, SPState, Terrain, Fall, Halved,
    PendingPlacement, PendingAdvance, PendingReserve, PendingOrders,
    *get_args(Event), WeaponRolled, Die, Names,
)  # fmt: skip


def fields_reducer(cls: type) -> Callable[[Any], tuple[type, tuple[Any, ...]]]:
    """How the pool pickles a dataclass ``cls``: ``cls`` and the values of its compared
    fields, to be passed by position (those left out must be last, with defaults)."""
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields if f.compare]
    sent, left_out = fields[: len(names)], fields[len(names) :]
    if [f.name for f in sent if f.init] != names or any(
        f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        for f in left_out
    ):
        raise TypeError(f"{cls.__name__} cannot be rebuilt from its compared fields in order")
    if len(names) == 1:  # attrgetter answers one name's value, not a tuple
        (name,) = names
        return lambda value: (cls, (getattr(value, name),))
    values = attrgetter(*names)
    return lambda value: (cls, values(value))


def reduce_cell(cell: Cell) -> tuple[type[Cell], tuple[int, int]]:
    """How the pool pickles a cell: its class called on its column and row."""
    return Cell, (cell.col, cell.row)


def warm() -> None:
    """Run once in each worker as it starts (``start``): besides importing this module, draw
    a board in each language, so the first players' images do not pay for what every board shares
    (the theme's palette, each language's frame and fonts, every kind's token): some 0.3 s
    of CPU in a fresh worker. The bundled sheets and shipped scenarios that calls name are
    read now too."""
    _bundled()
    shipped_scenarios()
    state = sample_board()
    for lang in ("ru", "en"):
        render_board(state, lang=lang)


def start() -> None:
    """``warm``, then what that loaded (codexes, scenarios, fonts, palette: most of a
    worker's objects, kept for its life) set aside from the garbage collector's full passes,
    which the calls' objects set off every few seconds of a busy worker's CPU."""
    warm()
    collector.settle(collect=True)


def prepare(warmed: bool) -> None:
    """A worker's start (``worker.serve``, before any job): ``follow_parent``, and
    ``start`` if the pool is ``warmed``. Run by each worker itself, it reaches every one; jobs
    submitted one per worker could all land on the first one up."""
    follow_parent()
    if warmed:
        start()


def sample_board() -> GameState:
    """A standard board in play with a unit of every sheet of the bundled codex on it, each
    side's in its own half, and a piece of each kind of terrain."""
    factions = demo_factions()
    forces = {
        side: [(f"{sheet_id[:3]}{i}", sheet) for i, (sheet_id, sheet) in enumerate(
            sorted(factions[name].sheets.items()))]
        for side, name in zip(Side, sorted(factions), strict=False)
    }  # fmt: skip
    state = new_game(STANDARD, forces)
    halves = {Side.SOUTH: range(0, 3), Side.NORTH: range(3, 6)}
    for side, rows in halves.items():
        cells = [Cell(col, row) for row in rows for col in range(STANDARD.width)]
        for unit, cell in zip(state.living(side), cells, strict=False):
            unit.deployed, unit.cell = True, cell
    for col, kind in enumerate(TerrainKind):  # the far row is free: a tile of each kind
        state.terrain[Cell(col, STANDARD.height - 1)] = Terrain(kind)
    state.phase, state.round = Phase.PLAYING, 1
    state.first_player = state.active = Side.SOUTH
    return state


def follow_parent() -> None:
    """At a worker's start: yield the CPU to the bot's event loop, and end with the bot.

    On a small machine the workers and the loop share the cores: a lower priority keeps the
    loop's replies prompt while an image renders. A bot killed outright (SIGKILL, OOM)
    cannot stop its pool, and orphaned workers would hold memory for ever."""
    os.nice(WORKER_NICENESS)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()
