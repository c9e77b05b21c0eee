"""A whole game from its log: an animation (one frame per action, a hold at each turn change,
the result at the end) and a still of any chosen moment.

The log is what the engine replays (K1): the initial state, the actions in order and the
dice stream (``FixedDice`` of the recorded values, or ``FairDice`` of the revealed seed).

The animation is a GIF: Discord plays GIFs inline on every client, while it has animated
WebP only lately and not on every client; and for these flat images lossless WebP came out
several times larger and slower here. Frames after the first keep only the pixels that
changed (the rest is transparent and compresses to almost nothing), so a 150-action game
stays under a megabyte.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from vahalite_bot.render.base import board_key, layers_kept, layout_of
from vahalite_bot.render.board import DEFAULT_SIZE, draw_board, pixel_width, render_board
from vahalite_bot.render.fonts import Face, fit, font
from vahalite_bot.render.gif import KEEP, animated_gif
from vahalite_bot.render.header import status_line
from vahalite_bot.render.labels import label
from vahalite_bot.render.palette import theme_palette
from vahalite_bot.render.theme import DEFAULT_THEME, RGB, Theme
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.dice import DiceStream
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.events import Event, TurnEnded
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.rules.victory import score

REPLAY_SIZE = 600  # px wide: the animation is watched whole, not read cell by cell
# The colour of the palette's "unchanged since the previous frame" entry (``gif.KEEP``): no
# board colour is near it, so no pixel is ever mapped to it by mistake.
KEEP_COLOUR: RGB = (255, 0, 255)


@dataclass(frozen=True)
class Timing:
    """How long each frame shows, in milliseconds."""

    action: int = 600
    setup: int = 300  # terrain, SPs and deployment go by quicker
    turn_end: int = 1500  # the hold at each turn change
    final: int = 5000  # the result

    def of(self, step: Step) -> int:
        if step.ends_turn is not None:
            return self.turn_end
        if step.before.phase is not Phase.PLAYING:
            return self.setup
        return self.action


@dataclass(frozen=True)
class Step:
    """One action of the log with the states around it and what it caused."""

    index: int
    action: Action
    before: GameState
    after: GameState
    events: tuple[Event, ...]

    @property
    def ends_turn(self) -> TurnEnded | None:
        return next((e for e in self.events if isinstance(e, TurnEnded)), None)


def steps(initial: GameState, actions: Sequence[Action], dice: DiceStream) -> Iterator[Step]:
    """The log applied action by action (``engine.replay``, keeping every state)."""
    state = initial
    for index, action in enumerate(actions):
        after, events = apply(state, action, dice)
        yield Step(index, action, state, after, tuple(events))
        state = after


class MomentNotFound(LookupError):
    """The log has no such moment (that turn was not played)."""


def find_moment(
    initial: GameState, actions: Sequence[Action], dice: DiceStream, round: int, after: Side
) -> Step:
    """The step that ended ``after``'s turn of ``round``."""
    for step in steps(initial, actions, dice):
        ended = step.ends_turn
        if ended is not None and ended.round == round and ended.side is after:
            return step
    raise MomentNotFound(f"round {round}, after {after.value}'s turn")


def render_moment(
    initial: GameState,
    actions: Sequence[Action],
    dice: DiceStream,
    *,
    round: int,
    after: Side,
    names: Mapping[Side, str] | None = None,
    lang: str = "ru",
    size: int = DEFAULT_SIZE,
    theme: Theme = DEFAULT_THEME,
    scale: int = 1,
) -> bytes:
    """A PNG of the board at the end of ``after``'s turn in ``round`` ("round 3, after
    north's turn"); raises ``MomentNotFound`` if the log never gets there. ``scale`` as for
    ``render_board``."""
    step = find_moment(initial, actions, dice, round, after)
    return render_board(step.after, names=names, lang=lang, size=size, theme=theme, scale=scale)


class ReplayTooLarge(ValueError):
    """Even the smallest replay (``MIN_REPLAY_SIZE`` px, a frame per turn) exceeds the budget."""


DISCORD_MAX_BYTES = 10 * 1024 * 1024  # Discord's upload limit without boosts: a max_bytes
MIN_REPLAY_SIZE = 320  # px wide: below this the handles are no longer readable
SHRINK_ATTEMPTS = 6
# Aim this far under the budget when shrinking: a GIF's size is only roughly proportional to
# its pixels and frames, and each attempt costs a whole render.
MARGIN = 0.9


def render_replay(
    initial: GameState,
    actions: Sequence[Action],
    dice: DiceStream,
    *,
    names: Mapping[Side, str] | None = None,
    lang: str = "ru",
    size: int = REPLAY_SIZE,
    theme: Theme = DEFAULT_THEME,
    timing: Timing = Timing(),
    scale: int = 1,
    max_bytes: int | None = None,
) -> bytes:
    """The whole game as a looping GIF: the initial state, then one frame per action with
    its overlay (a turn's last frame held longer), then the final board with the VP and the
    result (if the game ended). ``scale`` multiplies the pixel density (``size * scale`` px
    wide), as for ``render_board``.

    ``max_bytes`` (Discord takes 10 MiB): a GIF that would be larger is drawn again smaller,
    first narrower (down to ``MIN_REPLAY_SIZE``), then with several actions to a frame (each
    frame draws all of them, and every turn's end keeps its own frame), until it fits;
    ``ReplayTooLarge`` if even one frame a turn does not."""
    width = pixel_width(size, scale)
    log = list(steps(initial, actions, dice))
    names = names or {}
    stride = 1
    for _ in range(SHRINK_ATTEMPTS):
        data = _replay_gif(initial, log, names, lang, width, theme, timing, stride)
        if max_bytes is None or len(data) <= max_bytes:
            return data
        if stride > len(log) and width <= MIN_REPLAY_SIZE:
            break
        ratio = max_bytes / len(data) * MARGIN
        narrower = max(MIN_REPLAY_SIZE, min(width - 1, int(width * ratio**0.5)))
        ratio /= (narrower / width) ** 2  # what is left to save after narrowing
        width = narrower
        if ratio < 1:
            stride = max(stride + 1, math.ceil(stride / ratio))
    raise ReplayTooLarge(f"the replay does not fit in {max_bytes} bytes")


def _replay_gif(
    initial: GameState,
    log: Sequence[Step],
    names: Mapping[Side, str],
    lang: str,
    width: int,
    theme: Theme,
    timing: Timing,
    stride: int,
) -> bytes:
    shown = list(log) if stride == 1 else list(grouped(log, stride))
    frames = _frames(initial, shown, names, lang, width, theme, timing)
    palette = replay_palette(theme)
    with layers_kept():  # every frame after the setup lies on the same terrain
        return animated_gif(frames, palette)


def grouped(log: Sequence[Step], stride: int) -> Iterator[Step]:
    """Up to ``stride`` actions as one step (all their events, from the first one's state
    to the last one's), never across a turn's end: each turn's last frame stays its own."""
    group: list[Step] = []
    for step in log:
        group.append(step)
        if len(group) >= stride or step.ends_turn is not None:
            yield _merged(group)
            group = []
    if group:
        yield _merged(group)


def _merged(group: Sequence[Step]) -> Step:
    first, last = group[0], group[-1]
    events = tuple(event for step in group for event in step.events)
    return Step(first.index, last.action, first.before, last.after, events)


def _frames(
    initial: GameState,
    log: Sequence[Step],
    names: Mapping[Side, str],
    lang: str,
    size: int,
    theme: Theme,
    timing: Timing,
) -> Iterator[Image.Image]:
    """Each frame with its duration in ``info["duration"]``, drawn only when asked for."""
    first = draw_board(initial, names=names, lang=lang, size=size, theme=theme)
    first.info["duration"] = timing.setup
    yield first
    for step in log:
        image = draw_board(
            step.after,
            events=step.events,
            before=step.before,
            names=names,
            lang=lang,
            size=size,
            theme=theme,
        )
        image.info["duration"] = timing.of(step)
        yield image
    last = _result_frame(log[-1].after if log else initial, names, lang, size, theme)
    last.info["duration"] = timing.final
    yield last


# -- the final frame ---------------------------------------------------------------------
def _result_frame(
    state: GameState, names: Mapping[Side, str], lang: str, size: int, theme: Theme
) -> Image.Image:
    """The final board, dimmed, under a plate with the VP and the result."""
    image = draw_board(state, names=names, lang=lang, size=size, theme=theme)
    lay = layout_of(board_key(state, size, lang, theme))
    x0, y0, x1, y1 = lay.board_box
    image.paste(theme.frame, (x0, y0, x1, y1), Image.new("L", (x1 - x0, y1 - y0), 150))
    draw = ImageDraw.Draw(image)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = (x1 - x0) * 0.8, lay.px(190)
    draw.rounded_rectangle(
        (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
        radius=lay.px(16),
        fill=theme.frame,
        outline=theme.frame_muted,
        width=lay.px(2),
    )
    vp = f"{score(state, Side.SOUTH).vp} : {score(state, Side.NORTH).vp}"
    big = font(Face.BOLD, lay.px(64))
    draw.text((cx, cy - lay.px(34)), vp, font=big, fill=theme.frame_text, anchor="mm")
    small = font(Face.CONDENSED, lay.px(15))
    draw.text(
        (cx, cy + lay.px(12)), label(lang, "vp"), font=small, fill=theme.frame_muted, anchor="mm"
    )
    if state.phase is Phase.ENDED:
        text = status_line(state, names, lang).split(" · ", 1)[-1]
    else:
        text = label(lang, "replay.final")
    f = font(Face.BOLD, lay.px(24))
    draw.text(
        (cx, cy + lay.px(52)),
        fit(text, f, w - lay.px(24)),
        font=f,
        fill=theme.frame_text,
        anchor="mm",
    )
    return image


# -- encoding ----------------------------------------------------------------------------
def replay_palette(theme: Theme) -> Image.Image:
    """The theme's palette in one colour fewer, the last entry given to the "unchanged"
    marker."""
    source = theme_palette(theme, KEEP).getpalette() or list(theme.frame)
    while len(source) < 3 * KEEP:  # pad with a colour in use, never a stray black
        source += source[:3]
    colours = source[: 3 * KEEP] + list(KEEP_COLOUR)
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette
