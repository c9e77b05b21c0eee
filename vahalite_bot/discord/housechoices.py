"""Autocomplete for the house-rule options (M3 orders, M5 reserves, M6 fall back, M8
charge), from the rule modules' own questions: pure functions of the state, at most
``LIMIT`` (name, value) pairs, best first."""

from __future__ import annotations

from vahalite_bot.discord import choices
from vahalite_bot.discord.choices import LIMIT, Choice, _matching, percent
from vahalite_bot.i18n import translate
from vahalite_bot.rules import charge, fallback, movement, reserve, unit_orders
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, PendingOrders

CHOICE_TEXT = 100  # Discord's limit of a choice's name and value


# -- M3 orders --------------------------------------------------------------------------------
def orders(state: GameState, side: Side, typed: str, lang: str) -> list[Choice]:
    """Completions of ``tac1 assault, asl1 aimed`` being typed: the entries already typed
    stay, the last is completed with each unit (not named yet) and each order it may take."""
    if not state.pending or not isinstance(state.pending[0], PendingOrders):
        return []
    *done, typing = [part.strip() for part in typed.split(",")]
    head = ", ".join(p for p in done if p)
    named = {p.split()[0].casefold() for p in done if p}
    words = {o: translate(lang, f"discord-order-word-{o.value}") for o in unit_orders.ALTERNATIVES}
    found: list[Choice] = []
    for unit in state.living(side):
        if state.position(unit) is None or unit.id.casefold() in named:
            continue
        for order in unit_orders.ALTERNATIVES:
            if not unit_orders.may_take(unit, order):
                continue
            entry = f"{unit.id} {words[order]}"
            if typing and not entry.casefold().startswith(typing.casefold()):
                continue
            value = f"{head}, {entry}" if head else entry
            name = f"{value} — {translate(lang, f'turn-order-{order.value}')}"
            if len(value) <= CHOICE_TEXT:
                found.append((name[:CHOICE_TEXT], value))
    return found[:LIMIT]


# -- M5 reserves ------------------------------------------------------------------------------
def hold_units(state: GameState, side: Side, typed: str, lang: str) -> list[Choice]:
    """B5 with M5: the undeployed units that may be held back now."""
    units = dict.fromkeys(h.unit for h in reserve.hold_candidates(state, side))
    return _matching(((f"{u} — {state.units[u].sheet.name.get(lang)}", u) for u in units), typed)


def hold_transports(
    state: GameState, side: Side, unit_id: str, typed: str, lang: str
) -> list[Choice]:
    """The reserve transports ``unit_id`` may wait inside."""
    found = [
        h.embarked_in
        for h in reserve.hold_candidates(state, side)
        if h.unit == unit_id and h.embarked_in is not None
    ]
    return _matching(((f"{t} — {state.units[t].sheet.name.get(lang)}", t) for t in found), typed)


def arrival_cells(state: GameState, unit_id: str, typed: str) -> list[Choice]:
    """Where a reserve may arrive now (empty for any other unit)."""
    unit = state.units.get(unit_id)
    if unit is None or not unit.in_reserve:
        return []
    return _matching(((c.name, c.name) for c in reserve.arrival_cells(state, unit)), typed)


# -- M6 fall back -----------------------------------------------------------------------------
def fall_back_cells(state: GameState, unit_id: str, typed: str) -> list[Choice]:
    """Where the unit may fall back to: its moves that end out of contact (or embarked)."""
    unit = state.units.get(unit_id)
    if unit is None or not fallback.may_fall_back(state, unit):
        return []
    found = sorted(movement.reachable(state, unit).values(), key=lambda d: (len(d.path), d.cell))
    return _matching(
        (
            (d.cell.name, d.cell.name)
            for d in found
            if fallback.fall_back_problem(state, unit, d.cell) is None
        ),
        typed,
    )


# -- M8 charge --------------------------------------------------------------------------------
def charge_cells(
    state: GameState, unit_id: str, target_id: str | None, typed: str, lang: str
) -> list[Choice]:
    """The cells the unit may charge from (beside ``target_id``, or any target), likeliest
    to reach first, each with its exact odds."""
    unit = state.units.get(unit_id)
    if unit is None or unit.destroyed:
        return []
    found = []
    for option in charge.charge_options(state, unit):
        if target_id and option.target != target_id:
            continue
        odds = charge.charge_odds(state, unit, state.units[option.target], option.cell)
        name = translate(
            lang,
            "discord-charge-choice",
            cell=option.cell.name,
            target=option.target,
            length=odds.length,
            percent=percent(float(odds.made)),
            damage=f"{float(odds.expected):.1f}",
        )
        found.append((-odds.made, -odds.expected, option.cell, (name, option.cell.name)))
    found.sort(key=lambda f: f[:3])
    return _matching((f[3] for f in found), typed)


def charge_targets(state: GameState, unit_id: str, lang: str) -> list[Choice]:
    """Targets only a charge reaches, named as such (the attack's target autocomplete)."""
    unit = state.units.get(unit_id)
    if unit is None or unit.destroyed:
        return []
    targets = dict.fromkeys(o.target for o in charge.charge_options(state, unit))
    return [(translate(lang, "discord-charge-target", target=t), t) for t in targets][:LIMIT]


# -- what /vl move, /vl setup deploy and /vl attack offer, as the resolver reads them -----------
def move_cells(
    state: GameState, side: Side, unit: str, typed: str, falling_back: bool
) -> list[Choice]:
    """The cells ``unit <cell>`` may name now: a fall back's (M6, asked for), a reserve's
    arrival (M5), a waiting passenger's placement (H5), or a move's."""
    if falling_back:
        return fall_back_cells(state, unit, typed)
    arriving = arrival_cells(state, unit, typed)
    if arriving:
        return arriving
    if state.pending and state.pending[0].unit == unit:
        return choices.pending_cells(state, side, typed)
    return choices.move_cells(state, unit, typed)


def deploy_cells(state: GameState, side: Side, unit: str, typed: str) -> list[Choice]:
    """The cells ``deploy unit <cell>`` may name: a reserve's arrival (M5), or B5's."""
    return arrival_cells(state, unit, typed) or choices.deploy_cells(state, side, unit, typed)


def targets(state: GameState, unit: str, typed: str, lang: str) -> list[Choice]:
    """The attack's targets with their odds, then the ones only a charge reaches (M8)."""
    direct = choices.targets(state, unit, typed, lang)
    known = {value for _, value in direct}
    rushed = [
        c
        for c in charge_targets(state, unit, lang)
        if c[1] not in known and typed.casefold() in c[1].casefold()
    ]
    return (direct + rushed)[:LIMIT]
