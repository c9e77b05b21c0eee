"""The header (players, VP, round and whose turn) and the caption under the board."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from vahalite_bot.render.canvas import Canvas, stamp
from vahalite_bot.render.fonts import Face, Font, draw_text, fit, font, text_width
from vahalite_bot.render.labels import label
from vahalite_bot.render.layout import Layout
from vahalite_bot.render.story import side_name
from vahalite_bot.render.theme import Theme, mix
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.rules.victory import score

SEPARATOR = " · "


@lru_cache(maxsize=32)
def side_chip(side: Side, px: int, theme: Theme) -> Image.Image:
    """The side's token shape in small, as the key to its colour."""
    palette = theme.side(side)
    canvas = Canvas((0, 0, px, px), scale=4)
    box = (1.0, 1.0, px - 1.0, px - 1.0)
    if side is Side.SOUTH:
        canvas.ellipse(box, fill=palette.fill, outline=palette.halo, width=px * 0.08)
    else:
        canvas.rect(box, fill=palette.fill, outline=palette.halo, width=px * 0.08, radius=px * 0.2)
    return canvas.image()


def status_line(state: GameState, names: Mapping[Side, str], lang: str) -> str:
    """Round and whose turn; the setup step; or the result."""
    if state.phase is Phase.PLAYING:
        rounds = label(lang, "round", round=state.round, rounds=state.scenario.rounds)
        active = acting_side(state)
        if active is None:
            return rounds
        turn = state.active or active
        line = rounds + SEPARATOR + label(lang, "turn", name=side_name(turn, names, lang))
        if active is not turn and state.pending:
            # H5 in the other side's turn: the owner places a passenger, but the turn is still
            # the attacker's (issue 12 read "North to play" during South's turn).
            placing = label(
                lang, "placing", name=side_name(active, names, lang), unit=state.pending[0].unit
            )
            line += SEPARATOR + placing
        return line
    if state.phase is Phase.ENDED:
        winner = state.winner
        reason = _reason(state)
        if winner is None:
            result = label(lang, "result.draw")
        else:
            result = label(lang, "result.win", name=side_name(winner, names, lang))
        parts = [label(lang, "phase.ended"), result]
        if reason is not None:
            parts.append(label(lang, f"reason.{reason}"))
        return SEPARATOR.join(parts)
    phase = label(lang, f"phase.{state.phase.value}")
    actor = acting_side(state)
    if actor is None:
        return phase
    return phase + SEPARATOR + label(lang, "setup.actor", name=side_name(actor, names, lang))


def _reason(state: GameState) -> str | None:
    if state.resigned is not None:
        return "resignation"
    if state.winner is not None and not any(state.living(state.winner.other)):
        return "annihilation"
    if state.winner is not None:
        return "score"
    return None


def draw_header(
    image: Image.Image,
    lay: Layout,
    state: GameState,
    names: Mapping[Side, str],
    lang: str,
    theme: Theme,
) -> None:
    """Each player's shape, colour and name (a plate behind whoever must act), the VP so far
    between them, and under it the round and whose turn it is."""
    draw = ImageDraw.Draw(image)
    x0, y0, x1, _ = lay.header
    line1 = y0 + lay.px(26)
    line2 = y0 + lay.px(69)
    centre = lay.width / 2
    vp_half = 0.0
    if state.phase in (Phase.PLAYING, Phase.ENDED):  # SPs placed in setup score nothing yet
        vp = f"{score(state, Side.SOUTH).vp} : {score(state, Side.NORTH).vp}"
        vp_px = lay.px(34)
        vp_half = text_width(vp, font(Face.BOLD, vp_px)) / 2
        draw_text(image, (centre, line1), vp, Face.BOLD, vp_px, theme.frame_text)
        below = (centre, line1 + lay.px(21))
        draw_text(image, below, label(lang, "vp"), Face.CONDENSED, lay.px(13), theme.frame_muted)
    vp_half = max(vp_half, lay.px(40)) + lay.px(14)
    active = acting_side(state) if state.phase is not Phase.ENDED else None
    name_px = lay.px(24)
    name_font = font(Face.BOLD, name_px)
    chip, gap = lay.px(26), lay.px(10)
    room = centre - vp_half - x0 - chip - gap - lay.px(10)
    for side in Side:
        text = fit(side_name(side, names, lang), name_font, room)
        tw = text_width(text, name_font)
        chip_x: float
        text_x: float
        if side is Side.SOUTH:
            chip_x = x0 + lay.px(8)
            text_x = chip_x + chip + gap
        else:
            chip_x = x1 - lay.px(8) - chip
            text_x = chip_x - gap - tw
        if side is active:
            plate = (
                min(chip_x, text_x) - lay.px(6),
                line1 - lay.px(20),
                max(chip_x + chip, text_x + tw) + lay.px(8),
                line1 + lay.px(20),
            )
            draw.rounded_rectangle(
                plate, radius=lay.px(8), fill=mix(theme.frame, theme.frame_text, 0.14)
            )
            bar = (plate[0] + lay.px(6), plate[3] - lay.px(3), plate[2] - lay.px(6), plate[3] - 1)
            draw.rectangle(bar, fill=theme.side(side).fill)
        sprite = side_chip(side, chip, theme)
        stamp(image, sprite, (round(chip_x), round(line1 - chip / 2)), sprite)
        draw_text(image, (text_x, line1), text, Face.BOLD, name_px, theme.frame_text, "lm")
    status_px = lay.px(20)
    status = fit(
        status_line(state, names, lang), font(Face.CONDENSED, status_px), x1 - x0 - lay.px(16)
    )
    draw_text(image, (centre, line2), status, Face.CONDENSED, status_px, theme.frame_text)


def draw_caption(image: Image.Image, lay: Layout, parts: list[str], theme: Theme) -> None:
    """The last action in words, on one line or wrapped onto two (then cut short)."""
    if not parts:
        return
    x0, y0, x1, y1 = lay.caption
    room = x1 - x0 - lay.px(16)
    px = lay.px(19)
    lines = _wrap(parts, font(Face.CONDENSED, px), room)
    if len(lines) > 1:
        px = lay.px(17)
        lines = _wrap(parts, font(Face.CONDENSED, px), room)
    f = font(Face.CONDENSED, px)
    step = lay.px(21)
    cy = (y0 + y1) / 2 - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        draw_text(
            image,
            ((x0 + x1) / 2, cy + i * step),
            fit(line, f, room),
            Face.CONDENSED,
            px,
            theme.frame_text,
        )


def _wrap(parts: list[str], f: Font, room: float) -> list[str]:
    """The parts joined into lines no wider than ``room`` where possible."""
    lines: list[str] = []
    for part in parts:
        if lines and text_width(lines[-1] + SEPARATOR + part, f) <= room:
            lines[-1] += SEPARATOR + part
        else:
            lines.append(part)
    if len(lines) > 2:  # whatever does not fit on two lines ends the second, cut short
        lines = [lines[0], SEPARATOR.join(lines[1:])]
    return lines
