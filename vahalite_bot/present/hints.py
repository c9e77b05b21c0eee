"""What the game waits for, said before the prompt: what to type now, with an example the
rules accept, made of the player's own units and cells."""

from __future__ import annotations

from collections.abc import Callable

from vahalite_bot.i18n import translate
from vahalite_bot.present.paint import Paint
from vahalite_bot.present.text import say, side_name, unit_label
from vahalite_bot.rules import movement, setup
from vahalite_bot.rules.actions import Action, Deploy, PlaceSP, PlaceTerrain
from vahalite_bot.rules.geometry import Cell, distance
from vahalite_bot.rules.queries import is_legal
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase


def hint_text(state: GameState, side: Side, lang: str, paint: Paint, *, full: bool) -> str | None:
    """What ``side`` must do now, with an example the rules accept, made of its own units and
    cells; None while a decision is pending (the event that asked it says what to type)."""
    if state.pending:
        return None
    name = side_name(lang, side, paint)
    if state.phase is Phase.DEPLOY_ORDER:
        return say(lang, "hint-deploy-order", side=name)
    if state.phase is Phase.TERRAIN:
        return _terrain_hint(state, side, name, lang)
    if state.phase is Phase.SP:
        return _sp_hint(state, side, name, lang)
    if state.phase is Phase.DEPLOYMENT:
        return _deploy_hint(state, side, name, lang, paint)
    if state.phase is Phase.PLAYING:
        return _turn_hint(state, side, name, lang, full)
    return None


def _terrain_hint(state: GameState, side: Side, name: str, lang: str) -> str:
    left = setup.terrain_left(state, side)
    items = ", ".join(
        say(lang, "terrain-left", kind=translate(lang, f"terrain-{kind.value}"), count=count)
        for kind, count in sorted(left.items())
    )
    kind = sorted(left)[0]
    cell = _legal_cell(state, side, lambda c: PlaceTerrain(side, kind, c))
    return say(
        lang,
        "hint-terrain",
        side=name,
        rows=_rows(state, side, deploy=False),
        left=items,
        example=say(lang, "example-terrain", kind=kind.value, cell=cell),
    )


def _sp_hint(state: GameState, side: Side, name: str, lang: str) -> str:
    cell = _legal_cell(state, side, lambda c: PlaceSP(side, c))
    return say(
        lang,
        "hint-sp",
        side=name,
        count=setup.sp_left(state, side),
        example=say(lang, "example-sp", cell=cell),
    )


def _deploy_hint(state: GameState, side: Side, name: str, lang: str, paint: Paint) -> str:
    waiting = setup.undeployed(state, side)
    first = waiting[0]
    cell = _legal_cell(state, side, lambda c: Deploy(side, first.id, c))
    text = say(
        lang,
        "hint-deploy",
        side=name,
        rows=_rows(state, side, deploy=True),
        units=", ".join(unit_label(state, u.id, lang, paint, named=True) for u in waiting),
        example=say(lang, "example-deploy", unit=first.id, cell=cell),
    )
    for transport in state.living(side):
        if transport.cell is None or not transport.sheet.is_transport:
            continue
        for rider in waiting:
            if is_legal(state, Deploy(side, rider.id, transport.cell)):
                extra = say(lang, "hint-deploy-in", unit=rider.id, transport=transport.id)
                return f"{text} {extra}"
    return text


def _turn_hint(state: GameState, side: Side, name: str, lang: str, full: bool) -> str:
    rounds = state.scenario.rounds
    short = say(lang, "hint-turn-short", side=name, round=state.round, rounds=rounds)
    movers = [u for u in state.living(side) if u.cell is not None and not u.moved]
    movers.sort(key=lambda u: u.sheet.is_transport)  # a squad makes the plainer example
    enemies = [u for u in state.living(side.other) if u.cell is not None]
    if not full or not movers or not enemies:
        return short
    for unit in movers:
        reach = movement.reachable(state, unit)
        if not reach:
            continue
        here = unit.cell
        assert here is not None
        target = min(enemies, key=lambda e: _distance(here, e.cell))
        step = min(reach, key=lambda c: (_distance(c, target.cell), c))
        return say(
            lang,
            "hint-turn",
            side=name,
            round=state.round,
            rounds=rounds,
            unit=unit.id,
            cell=step.name,
            target=target.id,
        )
    return short


def _distance(a: Cell, b: Cell | None) -> int:
    return distance(a, b) if b is not None else 0


def _legal_cell(state: GameState, side: Side, action: Callable[[Cell], Action]) -> str:
    """The first cell of the side's half where the example's action is legal."""
    cells = setup.legal_setup_cells(state, side)
    for cell in cells:
        if is_legal(state, action(cell)):
            return cell.name
    return cells[0].name


def _rows(state: GameState, side: Side, *, deploy: bool) -> str:
    low, high = (state.scenario.deploy_rows if deploy else state.scenario.half_rows)[side]
    return f"{low + 1}–{high + 1}"
