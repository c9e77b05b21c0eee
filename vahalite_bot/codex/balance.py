"""Balance by self-play (CODEX.md "Balance"): every faction's ready-made list against every
other's, from both sides, and what each sheet contributed per point.

Game ``i`` of a run plays match-up ``i mod len(match-ups)`` with the dice seed
``game_seed(run_seed, i)``, so a run is reproducible from its seed and any number of worker
processes gives the same result.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path

from vahalite_bot.codex.loader import Faction, all_sheets, codex_factions
from vahalite_bot.rules.dice import FairDice
from vahalite_bot.rules.engine import acting_side, apply
from vahalite_bot.rules.events import AttackResolved, Event, SPCaptured, UnitDestroyed
from vahalite_bot.rules.roster import field_units
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.sheets import UnitSheet
from vahalite_bot.rules.state import GameState, Phase, new_game
from vahalite_bot.selfplay.cli import CLOCKS
from vahalite_bot.selfplay.game import MAX_ACTIONS, game_seed, sub_rng
from vahalite_bot.selfplay.hard import DEFAULT_BUDGET_MS
from vahalite_bot.selfplay.levels import make_player
from vahalite_bot.selfplay.players import Player

WIN_RATE_BAND = (0.40, 0.60)  # issue 3: no faction outside it at 750 points
STANDOUT = 1.5  # a sheet whose VP per point is this many times the median (or 1/this) stands out
VP_PER_SP, VP_PER_KILL, VP_PER_HQ_BY_HQ = 2, 1, 2  # J2


@dataclass(frozen=True)
class UnitResult:
    """One fielded unit in one game: what it cost and what it did."""

    faction: str
    sheet: str
    points: int
    damage: int  # HP it removed with its attacks (E9)
    vp: int  # J2 VP it earned: its kills, and the SPs it took and its side held at the end
    survived: bool


@dataclass(frozen=True)
class GameResult:
    south: str
    north: str
    winner: Side | None  # None: a draw, or a game that did not finish
    finished: bool
    units: tuple[UnitResult, ...]

    def outcome(self, faction: str) -> str:
        """ "win", "draw" or "loss" for ``faction`` (which played one side)."""
        if self.winner is None:
            return "draw"
        won = self.south if self.winner is Side.SOUTH else self.north
        return "win" if won == faction else "loss"


def matchups(faction_ids: Iterable[str]) -> list[tuple[str, str]]:
    """Every faction against every other, both sides: (south, north)."""
    return list(permutations(sorted(faction_ids), 2))


def play_matchup(
    factions: Mapping[str, Faction],
    south: str,
    north: str,
    list_name: str,
    seed: bytes,
    players: Mapping[Side, Player],
) -> GameResult:
    """One complete game, setup included, between two ready-made lists."""
    sheets = all_sheets(factions)
    forces: dict[Side, list[tuple[str, UnitSheet]]] = {}
    taken: list[str] = []
    for side, faction in ((Side.SOUTH, south), (Side.NORTH, north)):
        forces[side] = field_units(factions[faction].lists[list_name], sheets, taken)
        taken.extend(handle for handle, _ in forces[side])
    state = new_game(STANDARD, forces)
    dice = FairDice(seed)
    rngs = {side: sub_rng(seed, f"player:{side.value}") for side in Side}
    events: list[Event] = []
    for _ in range(MAX_ACTIONS):
        if state.phase is Phase.ENDED:
            break
        side = acting_side(state) or Side.SOUTH  # the roll-off has no actor
        state, new = apply(state, players[side].choose(state, rngs[side]), dice)
        events.extend(new)
    finished = state.phase is Phase.ENDED
    return GameResult(
        south,
        north,
        state.winner if finished else None,
        finished,
        _unit_results(state, events, {Side.SOUTH: south, Side.NORTH: north}),
    )


def _unit_results(
    state: GameState, events: Sequence[Event], faction_of: Mapping[Side, str]
) -> tuple[UnitResult, ...]:
    damage: Counter[str] = Counter()
    vp: Counter[str] = Counter()
    last_taker: dict[object, str] = {}
    for event in events:
        if isinstance(event, AttackResolved):
            damage[event.attacker] += event.damage
        elif isinstance(event, UnitDestroyed) and event.by is not None:
            killer, victim = state.units[event.by], state.units[event.unit]
            vp[event.by] += VP_PER_KILL
            if killer.is_hq and victim.is_hq and event.cause == "attack":
                vp[event.by] += VP_PER_HQ_BY_HQ
        elif isinstance(event, SPCaptured):
            last_taker[event.cell] = event.unit
    for cell, sp in state.sps.items():
        taker = last_taker.get(cell)
        # An SP still held by the side that placed it was defended, not taken: nobody's VP.
        if taker is not None and state.units[taker].side is sp.holder:
            vp[taker] += VP_PER_SP
    return tuple(
        UnitResult(
            faction_of[unit.side],
            unit.sheet.id,
            unit.sheet.points,
            damage[unit.id],
            vp[unit.id],
            not unit.destroyed,
        )
        for unit in state.units.values()
    )


# -- a run ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunSettings:
    games: int
    seed: int
    list_name: str = "750"
    players: tuple[str, str] = ("greedy", "greedy")
    homebrew: Path | None = None
    budget_ms: float = DEFAULT_BUDGET_MS  # the search player's time per decision
    budget_clock: str = "wall"  # a name in CLOCKS: the settings cross to worker processes

    def make_players(self) -> dict[Side, Player]:
        """A fresh player per side, the search player on this run's budget and clock."""
        clock = CLOCKS[self.budget_clock]
        return {
            side: make_player(name, self.budget_ms, clock)
            for side, name in zip(Side, self.players, strict=True)
        }


_WORKER: dict[str, object] = {}


def _worker_init(settings: RunSettings) -> None:
    _WORKER["factions"] = codex_factions(settings.homebrew)
    _WORKER["settings"] = settings


def _play_chunk(indexes: Sequence[int]) -> list[GameResult]:
    factions = _WORKER["factions"]
    settings = _WORKER["settings"]
    assert isinstance(settings, RunSettings) and isinstance(factions, dict)
    return play_games(factions, settings, indexes)


def play_games(
    factions: Mapping[str, Faction], settings: RunSettings, indexes: Iterable[int]
) -> list[GameResult]:
    pairs = matchups(f for f in factions if settings.list_name in factions[f].lists)
    # One player object per side for the chunk: the greedy player's odds cache carries over.
    players = settings.make_players()
    results = []
    for index in indexes:
        south, north = pairs[index % len(pairs)]
        seed = game_seed(settings.seed, index)
        results.append(play_matchup(factions, south, north, settings.list_name, seed, players))
    return results


def run(
    settings: RunSettings,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play the run's games, in ``jobs`` processes; results in game order."""
    chunk = 8
    indexes = [
        list(range(i, min(i + chunk, settings.games))) for i in range(0, settings.games, chunk)
    ]
    results: list[GameResult] = []
    if jobs <= 1:
        factions = codex_factions(settings.homebrew)
        for part in indexes:
            results.extend(play_games(factions, settings, part))
            if progress is not None:
                progress(len(results))
        return results
    with ProcessPoolExecutor(jobs, initializer=_worker_init, initargs=(settings,)) as pool:
        for played in pool.map(_play_chunk, indexes):
            results.extend(played)
            if progress is not None:
                progress(len(results))
    return results


# -- the report ----------------------------------------------------------------------------
@dataclass
class FactionRow:
    faction: str
    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def win_rate(self) -> float:
        """Draws count half, so that the rates of all factions average 50%."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def in_band(self) -> bool:
        low, high = WIN_RATE_BAND
        return low <= self.win_rate <= high


@dataclass
class SheetRow:
    faction: str
    sheet: str
    fielded: int = 0
    points: list[int] = field(default_factory=list)
    damage: int = 0
    vp: int = 0
    survived: int = 0

    @property
    def mean_points(self) -> float:
        return statistics.fmean(self.points) if self.points else 0.0

    def per_100(self, total: int) -> float:
        spent = sum(self.points)
        return 100 * total / spent if spent else 0.0


@dataclass
class Report:
    settings: RunSettings
    factions: list[FactionRow]
    sheets: list[SheetRow]
    unfinished: int

    @classmethod
    def of(cls, settings: RunSettings, results: Sequence[GameResult]) -> Report:
        factions: dict[str, FactionRow] = {}
        sheets: dict[tuple[str, str], SheetRow] = {}
        for game in results:
            for faction in (game.south, game.north):
                row = factions.setdefault(faction, FactionRow(faction))
                row.games += 1
                outcome = game.outcome(faction)
                row.wins += outcome == "win"
                row.draws += outcome == "draw"
            for unit in game.units:
                sheet = sheets.setdefault((unit.faction, unit.sheet), SheetRow(*_key(unit)))
                sheet.fielded += 1
                sheet.points.append(unit.points)
                sheet.damage += unit.damage
                sheet.vp += unit.vp
                sheet.survived += unit.survived
        unfinished = sum(1 for g in results if not g.finished)
        return cls(
            settings,
            sorted(factions.values(), key=lambda r: -r.win_rate),
            sorted(sheets.values(), key=lambda r: (r.faction, r.sheet)),
            unfinished,
        )

    def standouts(self) -> dict[tuple[str, str], str]:
        """Sheets whose VP per 100 points is far from the median: "high" or "low"."""
        rates = {(s.faction, s.sheet): s.per_100(s.vp) for s in self.sheets}
        if not rates:
            return {}
        median = statistics.median(rates.values())
        marks = {}
        for key, rate in rates.items():
            if rate > STANDOUT * median:
                marks[key] = "high"
            elif rate * STANDOUT < median:
                marks[key] = "low"
        return marks

    def lines(self, markdown: bool = False) -> list[str]:
        s = self.settings
        low, high = WIN_RATE_BAND
        games = sum(r.games for r in self.factions) // 2
        head = (
            f"list {s.list_name}, {games} games, seed {s.seed}, "
            f"players {s.players[0]} vs {s.players[1]}, unfinished {self.unfinished}"
        )
        if "hard" in s.players:
            head += f", the search thinking {s.budget_ms:g} ms ({s.budget_clock}) a decision"
        faction_rows = [
            (
                r.faction,
                str(r.games),
                str(r.wins),
                str(r.draws),
                str(r.losses),
                f"{100 * r.win_rate:.1f}%",
                "" if r.in_band else "OUT",
            )
            for r in self.factions
        ]
        marks = self.standouts()
        sheet_rows = [
            (
                r.faction,
                r.sheet,
                str(r.fielded),
                f"{r.mean_points:.0f}",
                f"{r.damage / r.fielded:.2f}",
                f"{r.vp / r.fielded:.2f}",
                f"{r.per_100(r.damage):.2f}",
                f"{r.per_100(r.vp):.2f}",
                f"{100 * r.survived / r.fielded:.0f}%",
                marks.get((r.faction, r.sheet), ""),
            )
            for r in self.sheets
        ]
        outside = sum(1 for r in self.factions if not r.in_band)
        summary = (
            f"factions outside {100 * low:.0f}-{100 * high:.0f}%: {outside}; "
            f"sheets standing out (VP per point beyond {STANDOUT}x the median): {len(marks)}"
        )
        table = _markdown if markdown else _plain
        return [
            head,
            "",
            *table(("faction", "games", "wins", "draws", "losses", "win rate", ""), faction_rows),
            "",
            *table(
                (
                    "faction",
                    "sheet",
                    "fielded",
                    "points",
                    "damage/game",
                    "VP/game",
                    "damage/100 pts",
                    "VP/100 pts",
                    "survived",
                    "",
                ),
                sheet_rows,
            ),
            "",
            summary,
        ]


def suggested_points(
    report: Report,
    sheets: Mapping[str, UnitSheet],
    strength: float = 0.25,
    faction_weight: float = 0.6,
) -> dict[str, tuple[int, int]]:
    """The tuning step of docs/balance.md: sheet id -> (points now, points suggested).

    Each sheet moves by its efficiency (damage and VP per point, each over the median of all
    sheets, averaged) to the power ``strength``, clamped to -10%..+12%, and by its faction's
    ``1 + faction_weight * (win rate - 0.5)``; rounded to 5. Only sheets that change.
    """
    damage = {(r.faction, r.sheet): r.per_100(r.damage) for r in report.sheets}
    vp = {(r.faction, r.sheet): r.per_100(r.vp) for r in report.sheets}
    if not damage:
        return {}
    median_damage = statistics.median(damage.values()) or 1.0
    median_vp = statistics.median(vp.values()) or 1.0
    rates = {r.faction: r.win_rate for r in report.factions}
    changes: dict[str, tuple[int, int]] = {}
    for key in damage:
        sheet = sheets.get(key[1])
        if sheet is None:
            continue
        efficiency = (damage[key] / median_damage + vp[key] / median_vp) / 2
        step = min(1.12, max(0.9, efficiency**strength))
        step *= 1 + faction_weight * (rates[key[0]] - 0.5)
        suggested = max(5, 5 * round(sheet.points * step / 5))
        if suggested != sheet.points:
            changes[sheet.id] = (sheet.points, suggested)
    return changes


def _key(unit: UnitResult) -> tuple[str, str]:
    return unit.faction, unit.sheet


def _plain(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(c) for c in column) for column in zip(header, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    return [line(header), *(line(r) for r in rows)]


def _markdown(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    return [line(header), line(["---"] * len(header)), *(line(r) for r in rows)]


def outcome_counts(results: Iterable[GameResult]) -> dict[str, Counter[str]]:
    """Per faction: wins, draws and losses (for tests and quick looks)."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for game in results:
        for faction in (game.south, game.north):
            counts[faction][game.outcome(faction)] += 1
    return counts
