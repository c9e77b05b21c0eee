"""Board images and game replays (Pillow): what players look at most.

- ``render_board(state, *, events=(), before=None, names=None, lang="ru", size=800,
  theme=DEFAULT_THEME, scale=1) -> bytes``: the board as a PNG, with the last action's
  events overlaid (``before``, the state they were applied to, places destroyed units);
  ``draw_board`` is the same as a Pillow image. ``scale=2`` draws the same picture at twice
  the pixel density (1600 px wide) for phones that zoom in.
- ``render_replay(initial, actions, dice, *, names, lang, size=600, theme, timing, scale=1,
  max_bytes=None) -> bytes``: the whole game as a looping GIF, made smaller (narrower, then
  fewer frames) until it fits in ``max_bytes`` (``ReplayTooLarge`` if it cannot).
- ``render_turn(before, after, events, *, names=None, lang="ru", scale=1) -> bytes``: a PNG
  of a whole turn (every trail, arrow and fallen unit) for a player coming back to the game.
- ``render_moment(initial, actions, dice, *, round, after, ..., scale=1) -> bytes``: a PNG
  of the board at the end of ``after``'s turn in ``round``.

All are pure: the only I/O is reading the bundled fonts, once. Words come from
``labels.py`` (ru, en).
"""

from vahalite_bot.render.board import DEFAULT_SIZE, draw_board, render_board
from vahalite_bot.render.replay import (
    DISCORD_MAX_BYTES,
    MomentNotFound,
    ReplayTooLarge,
    Timing,
    find_moment,
    render_moment,
    render_replay,
)
from vahalite_bot.render.theme import DEFAULT_THEME, Theme
from vahalite_bot.render.turn import render_turn

__all__ = [
    "DEFAULT_SIZE",
    "DEFAULT_THEME",
    "DISCORD_MAX_BYTES",
    "MomentNotFound",
    "ReplayTooLarge",
    "Theme",
    "Timing",
    "draw_board",
    "find_moment",
    "render_board",
    "render_moment",
    "render_replay",
    "render_turn",
]
