"""Board images and game replays (Pillow): what players look at most.

- ``render_board(state, *, events=(), before=None, names=None, lang="ru", size=800,
  theme=DEFAULT_THEME) -> bytes``: the board as a PNG, with the last action's events
  overlaid (``before``, the state they were applied to, places destroyed units);
  ``draw_board`` is the same as a Pillow image.
- ``render_replay(initial, actions, dice, *, names, lang, size=600, theme, timing) -> bytes``:
  the whole game as a looping GIF.
- ``render_moment(initial, actions, dice, *, round, after, ...) -> bytes``: a PNG of the
  board at the end of ``after``'s turn in ``round``.

All are pure: the only I/O is reading the bundled fonts, once. Words come from
``labels.py`` (ru, en).
"""

from vahalite_bot.render.board import DEFAULT_SIZE, draw_board, render_board, to_png
from vahalite_bot.render.replay import (
    MomentNotFound,
    Timing,
    find_moment,
    render_moment,
    render_replay,
)
from vahalite_bot.render.theme import DEFAULT_THEME, Theme

__all__ = [
    "DEFAULT_SIZE",
    "DEFAULT_THEME",
    "MomentNotFound",
    "Theme",
    "Timing",
    "draw_board",
    "find_moment",
    "render_board",
    "render_moment",
    "render_replay",
    "to_png",
]
