"""Narration of the events of house rules M2 (falling units, the damage step), M4
(initiative) and M5 (reserves), for ``Narrator``."""

from __future__ import annotations

from vahalite_bot.present.paint import Paint
from vahalite_bot.present.text import say, side_name, unit_label
from vahalite_bot.rules import events as ev
from vahalite_bot.rules import reserve
from vahalite_bot.rules.state import GameState

RoundEvent = (
    ev.UnitFalling
    | ev.AdvanceChosen
    | ev.DamageStep
    | ev.InitiativeRolled
    | ev.ReserveHeld
    | ev.ReservesOffered
    | ev.ReservePlaced
    | ev.ReservesDone
)


def round_lines(event: RoundEvent, state: GameState, lang: str, paint: Paint) -> list[str]:
    def unit(handle: str | None) -> str:
        return "none" if handle is None else unit_label(state, handle, lang, paint)

    match event:
        case ev.UnitFalling(handle, _, by, _):
            return [paint(say(lang, "ev-falling", unit=unit(handle), by=unit(by)), "bad")]
        case ev.AdvanceChosen(handle, cell):
            return [say(lang, "ev-advance-chosen", unit=unit(handle), cell=cell.name)]
        case ev.DamageStep(number):
            return [paint(say(lang, "ev-damage-step", round=number), "dim")]
        case ev.InitiativeRolled(number, south, north, first):
            return [
                say(
                    lang,
                    "ev-initiative",
                    round=number,
                    south=paint(str(south.value), "dice"),
                    north=paint(str(north.value), "dice"),
                    tie="yes" if south.value == north.value else "no",
                    side=side_name(lang, first, paint),
                )
            ]
        case ev.ReserveHeld(who, handle, transport):
            side = side_name(lang, who, paint)
            text = say(
                lang, "ev-reserve-held", side=side, unit=unit(handle), transport=unit(transport)
            )
            return [text]
        case ev.ReservesOffered():
            return [_offered(event, state, lang, paint)]
        case ev.ReservePlaced(_, handle, cell, passenger):
            text = say(
                lang,
                "ev-reserve-placed",
                unit=unit(handle),
                cell=cell.name,
                passenger=unit(passenger),
            )
            return [text]
        case ev.ReservesDone(who):
            return [say(lang, "ev-reserves-done", side=side_name(lang, who, paint))]
    return []


def _offered(event: ev.ReservesOffered, state: GameState, lang: str, paint: Paint) -> str:
    """The reserves that may arrive, with an example the rules accept now."""
    first = state.units.get(event.units[0])
    cells = reserve.arrival_cells(state, first) if first is not None and first.in_reserve else []
    return say(
        lang,
        "ev-reserves-offered",
        side=side_name(lang, event.side, paint),
        units=", ".join(unit_label(state, h, lang, paint) for h in event.units),
        unit=event.units[0],
        cell=cells[0].name if cells else "-",
    )


def reserve_lines(state: GameState, lang: str) -> list[str]:
    """M5: the units waiting off the board, a transport with its passenger (``rhi+sco``)."""
    waiting = [
        u.id + ("" if (p := state.passenger_of(u.id)) is None else f"+{p.id}")
        for u in state.living()
        if u.in_reserve and u.embarked_in is None
    ]
    return [say(lang, "board-reserves", list=", ".join(waiting))] if waiting else []
