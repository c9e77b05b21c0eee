"""``render_turn``: one image of a whole turn, for a player coming back to the game (issue 11).

The board as it is now, with every move's trail, every attack's arrow and damage, and the
units destroyed faded where they died: the same marks as one action's image, read from the
whole turn's events with the state before the turn (``story.read_story`` follows each unit
from cell to cell, so an arrow starts where its attacker stood when it fired).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from vahalite_bot.render.board import DEFAULT_SIZE, draw_story, indexed_png, waiting_line
from vahalite_bot.render.labels import label
from vahalite_bot.render.story import Story, read_story, side_name
from vahalite_bot.render.theme import DEFAULT_THEME, Theme
from vahalite_bot.rules import events as ev
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState
from vahalite_bot.rules.victory import score


def render_turn(
    before: GameState,
    after: GameState,
    events: Sequence[Any],
    *,
    names: Mapping[Side, str] | None = None,
    lang: str = "ru",
    scale: int = 1,
    size: int = DEFAULT_SIZE,
    theme: Theme = DEFAULT_THEME,
) -> bytes:
    """The PNG of ``after`` with all of ``events`` drawn over it; ``before`` is the state
    they began from (it places the units they move, shoot and destroy). Events that are not
    the engine's (the service's records) are skipped, so a log's events can be passed as
    they are. Pure and picklable: it may run in a worker process."""
    names = names or {}
    drawn = [e for e in events if type(e).__module__ == ev.__name__]
    story = read_story(after, drawn, before, names, lang)
    image = draw_story(
        after,
        story,
        names,
        lang,
        size,
        theme,
        scale,
        turn_caption(before, after, drawn, story, names, lang),
    )
    return indexed_png(image, theme)


def turn_caption(
    before: GameState,
    after: GameState,
    events: Sequence[Any],
    story: Story,
    names: Mapping[Side, str],
    lang: str,
) -> list[str]:
    """The turn in a few words (a whole turn's events would not fit under the board): whose
    turn, what it destroyed, the SPs it took, and the VP before and after."""
    parts: list[str] = []
    # The turn recapped is the one that ended (the events may go on into the next turn's
    # start); a turn still going (a recap mid-turn) is the one that started.
    ended: list[ev.TurnEnded | ev.TurnStarted] = [e for e in events if isinstance(e, ev.TurnEnded)]
    turns = ended or [e for e in events if isinstance(e, ev.TurnStarted)]
    if turns:
        last = turns[-1]
        name = side_name(last.side, names, lang)
        parts.append(label(lang, "recap.turn", name=name, round=last.round))
    if story.fallen:
        handles = ", ".join(fallen.unit.id for fallen in story.fallen)
        parts.append(label(lang, "recap.destroyed", units=handles))
    for event in events:
        if isinstance(event, ev.SPCaptured):
            name = side_name(event.side, names, lang)
            parts.append(label(lang, "event.captured", cell=event.cell.name, name=name))
    parts.append(label(lang, "recap.vp", before=vp_pair(before), after=vp_pair(after)))
    return parts + waiting_line(after, lang)


def vp_pair(state: GameState) -> str:
    """South's VP : North's, as the header shows them."""
    return f"{score(state, Side.SOUTH).vp}:{score(state, Side.NORTH).vp}"
