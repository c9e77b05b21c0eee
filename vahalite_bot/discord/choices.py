"""Autocomplete from the engine's own answers, never guessed: pure functions of the state.

Each returns at most ``LIMIT`` (name, value) pairs, best first, filtered by what the user has
typed so far. The odds in a target's name are the engine's exact distribution.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from vahalite_bot.i18n import translate
from vahalite_bot.rules import combat, movement, setup
from vahalite_bot.rules.actions import Deploy, PlaceSP, PlaceTerrain
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.queries import is_legal
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import (
    GameState,
    PendingAdvance,
    PendingOrders,
    PendingPlacement,
    PendingReserve,
    Phase,
    UnitState,
)

LIMIT = 25  # Discord's most choices
Choice = tuple[str, str]


def _matching(choices: Iterable[Choice], typed: str) -> list[Choice]:
    typed = typed.strip().casefold()
    found = [c for c in choices if typed in c[0].casefold() or typed in c[1].casefold()]
    # What starts with the typed text first, the rest in the given (best-first) order.
    found.sort(key=lambda c: not c[1].casefold().startswith(typed))
    return found[:LIMIT]


def _cells(cells: Iterable[Cell]) -> list[Choice]:
    return [(c.name, c.name) for c in cells]


# -- units ----------------------------------------------------------------------------------------
def units(
    state: GameState, side: Side, typed: str, lang: str, acting: Sequence[str] | None = None
) -> list[Choice]:
    """The caller's own units that can still do something now (``acting``: those units, if
    already known: ``acting_units``)."""
    if acting is None:
        acting = acting_units(state, side)
    return _matching(
        ((f"{u} — {state.units[u].sheet.name.get(lang)}", u) for u in acting),
        typed,
    )


def passengers(state: GameState, side: Side, typed: str, lang: str) -> list[Choice]:
    """The caller's units that can act now and are carried (H3: they may disembark)."""
    return [c for c in units(state, side, typed, lang) if state.units[c[1]].embarked_in]


def acting_units(state: GameState, side: Side) -> list[str]:
    if state.pending:
        pending = state.pending[0]
        if pending.side is not side or isinstance(pending, PendingOrders):
            return []  # M3: nothing acts before the orders
        if isinstance(pending, PendingReserve):
            return list(pending.units)  # M5: any reserve may arrive
        return [pending.unit]
    if state.phase is Phase.DEPLOYMENT:
        return [u.id for u in setup.undeployed(state, side)]
    if state.phase is not Phase.PLAYING or state.active is not side:
        return []
    ready = []
    for unit in state.living(side):
        if movement.reachable(state, unit) or combat.attack_options(state, unit):
            ready.append(unit.id)
    return ready


class ActingUnits:
    """``acting_units`` remembered per game version and side.

    Autocomplete asks again at each keystroke of a unit's name, and the answer finds every
    unit's moves; a version is one position for ever, so its answer never changes.
    """

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._known: OrderedDict[tuple[int, int, Side], tuple[str, ...]] = OrderedDict()

    def of(self, game: int, version: int, state: GameState, side: Side) -> tuple[str, ...]:
        """The units of ``side`` that can act in ``state``, game ``game`` at ``version``."""
        key = (game, version, side)
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = tuple(acting_units(state, side))
            while len(self._known) > self._size:
                self._known.popitem(last=False)
        return known


def all_units(state: GameState, typed: str, lang: str, side: Side | None = None) -> list[Choice]:
    """Any unit on the board (for reading: odds, sheets)."""
    return _matching(
        (
            (f"{u.id} — {u.sheet.name.get(lang)}", u.id)
            for u in state.units.values()
            if not u.destroyed and (side is None or u.side is side)
        ),
        typed,
    )


# -- cells ----------------------------------------------------------------------------------------
def move_cells(state: GameState, unit_id: str, typed: str) -> list[Choice]:
    """Where the unit can end a move now, nearest first; embarking and disembarking named."""
    unit = state.units.get(unit_id)
    if unit is None:
        return []
    found = sorted(movement.reachable(state, unit).values(), key=lambda d: (len(d.path), d.cell))
    choices = []
    for destination in found:
        name = destination.cell.name
        if destination.embarks_in is not None:
            name = f"{name} → {destination.embarks_in}"
        choices.append((name, destination.cell.name))
    return _matching(choices, typed)


def deploy_cells(state: GameState, side: Side, unit_id: str, typed: str) -> list[Choice]:
    cells = setup.legal_setup_cells(state, side)
    if unit_id in state.units:
        cells = [c for c in cells if is_legal(state, Deploy(side, unit_id, c))]
    return _matching(_cells(cells), typed)


def terrain_cells(state: GameState, side: Side, kind: str | None, typed: str) -> list[Choice]:
    kinds = setup.terrain_left(state, side)
    chosen = [k for k in kinds if kind is None or k.value == kind]
    cells = [
        c
        for c in state.scenario.cells()
        if any(is_legal(state, PlaceTerrain(side, k, c)) for k in chosen)
    ]
    return _matching(_cells(cells), typed)


def terrain_kinds(state: GameState, side: Side, typed: str, lang: str) -> list[Choice]:
    left = setup.terrain_left(state, side)
    return _matching(
        (
            (f"{translate(lang, f'terrain-{k.value}')} ×{n}", k.value)
            for k, n in sorted(left.items())
            if n
        ),
        typed,
    )


def sp_cells(state: GameState, side: Side, typed: str) -> list[Choice]:
    cells = [c for c in state.scenario.cells() if is_legal(state, PlaceSP(side, c))]
    return _matching(_cells(cells), typed)


def pending_cells(state: GameState, side: Side, typed: str) -> list[Choice]:
    """H5: where the passenger waiting to be placed may go; E10: the cell to advance into."""
    if not state.pending or state.pending[0].side is not side:
        return []
    pending = state.pending[0]
    if isinstance(pending, PendingPlacement):
        return _matching(_cells(pending.cells), typed)
    if not isinstance(pending, PendingAdvance):
        return []  # M3 orders, M5 reserves: no single cell to offer
    return _matching(_cells([pending.cell]), typed)


def disembark_cells(state: GameState, unit_id: str, typed: str) -> list[Choice]:
    unit = state.units.get(unit_id)
    if unit is None or unit.embarked_in is None:
        return []
    return move_cells(state, unit_id, typed)


def transports(state: GameState, unit_id: str, typed: str, lang: str) -> list[Choice]:
    """The friendly transports the unit can board this move (H2)."""
    unit = state.units.get(unit_id)
    if unit is None:
        return []
    found = [
        d.embarks_in for d in movement.reachable(state, unit).values() if d.embarks_in is not None
    ]
    return _matching(
        ((f"{t} — {state.units[t].sheet.name.get(lang)}", t) for t in dict.fromkeys(found)), typed
    )


# -- targets, with the exact odds ---------------------------------------------------------------
@dataclass(frozen=True)
class Odds:
    """One legal attack and the engine's exact chances."""

    unit: str
    target: str
    melee: bool
    dice: int
    needed: int  # the easiest die's need
    hurt: float  # P(at least 1 damage)
    kill: float  # P(the target destroyed)


def attack_odds(state: GameState, unit: UnitState) -> list[Odds]:
    """Every attack ``unit`` can make now, most likely to hurt first."""
    found = []
    for option in combat.attack_options(state, unit):
        target = state.units[option.target]
        dice = combat.dice_odds(state, unit, target, option.weapons)
        if not dice:
            continue
        dist = combat.damage_distribution(state, unit, target, option.weapons)
        found.append(
            Odds(
                unit.id,
                target.id,
                option.melee,
                len(dice),
                min(d.needed for d in dice),
                float(1 - dist[0]),
                float(dist[-1]),
            )
        )
    return sorted(found, key=lambda o: -o.hurt)


def targets(state: GameState, unit_id: str, typed: str, lang: str) -> list[Choice]:
    """What the unit can attack now, most likely to hurt first: "gen1 — 2 dice, 4+ — 75% ≥1"."""
    unit = state.units.get(unit_id)
    if unit is None or unit.destroyed:
        return []
    named: dict[str, str] = {}
    for odds in attack_odds(state, unit):
        mode = translate(lang, "discord-choice-melee" if odds.melee else "discord-choice-ranged")
        named.setdefault(  # the best option of each target names it
            odds.target,
            translate(
                lang,
                "discord-odds-choice",
                target=f"{odds.target} ({mode})",
                dice=odds.dice,
                needed=odds.needed,
                percent=percent(odds.hurt),
            ),
        )
    return _matching(((name, value) for value, name in named.items()), typed)


def odds_lines(state: GameState, side: Side, lang: str) -> list[str]:
    """Every attack the side can make now, with its exact odds (the Odds button)."""
    every = [odds for unit in state.living(side) for odds in attack_odds(state, unit)]
    every.sort(key=lambda o: -o.hurt)
    return [
        translate(
            lang,
            "discord-odds-line",
            unit=o.unit,
            target=o.target,
            dice=o.dice,
            needed=o.needed,
            percent=percent(o.hurt),
            kill=percent(o.kill),
        )
        for o in every
    ]


def percent(p: float) -> str:
    value = p * 100
    if 0 < value < 1:
        return "<1"
    if 99 < value < 100:
        return ">99"
    return f"{value:.0f}"
