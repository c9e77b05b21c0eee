"""The board as Unicode text: a grid with coordinates, terrain glyphs, units coloured by side
(and marked with the side's letter, for a terminal without colours), SPs, and a legend.

North is at the top, as on the board image: row 1 is the south edge. Each cell is two lines:
the terrain glyph and the SP mark, then the unit with its HP. Every word comes from the
catalogue; the glyphs are the same in every language.
"""

from __future__ import annotations

from vahalite_bot.i18n import translate
from vahalite_bot.present.paint import Paint
from vahalite_bot.present.round_events import reserve_lines
from vahalite_bot.present.text import say
from vahalite_bot.rules import setup, victory
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side, Terrain, TerrainKind
from vahalite_bot.rules.state import GameState, PendingPlacement, Phase, UnitState

WIDTH = 10  # characters inside a cell
GLYPH = {
    TerrainKind.OBSTACLE: "▓",
    TerrainKind.WATER: "≈",
    TerrainKind.HEIGHT: "▲",
    TerrainKind.COVER: "♣",
    TerrainKind.FORTIFICATION: "▣",
}
SP_GLYPH = "◆"
LOADED = "+"  # after a transport's handle: it carries a unit


def board_text(state: GameState, lang: str, paint: Paint, *, legend: bool = True) -> str:
    """The whole board with its header (and the legend), ready to print."""
    width, height = state.scenario.width, state.scenario.height
    letters = [chr(ord("A") + col) for col in range(width)]
    label_width = len(str(height))
    pad = " " * (label_width + 1)
    columns = pad + " " + "".join(f"{letter:^{WIDTH + 1}}" for letter in letters).rstrip()
    lines = [_header(state, lang, paint), columns]
    lines.append(pad + _rule("┌", "┬", "┐", width))
    for row in reversed(range(height)):
        top: list[str] = []
        bottom: list[str] = []
        for col in range(width):
            a, b = _cell(state, Cell(col, row), lang, paint)
            top.append(a)
            bottom.append(b)
        number = f"{row + 1:>{label_width}}"
        lines.append(f"{number} │" + "│".join(top) + f"│ {number}")
        lines.append(f"{pad}│" + "│".join(bottom) + "│")
        lines.append(pad + (_rule("├", "┼", "┤", width) if row else _rule("└", "┴", "┘", width)))
    lines.append(columns)
    if legend:
        lines += [
            paint(say(lang, "legend-terrain"), "dim"),
            paint(say(lang, "legend-units"), "dim"),
        ]
    lines.extend(_passengers(state, lang))
    lines.extend(reserve_lines(state, lang))  # M5
    lines.extend(_waiting(state, lang, paint))
    return "\n".join(lines)


def _rule(left: str, middle: str, right: str, width: int) -> str:
    return left + middle.join(["─" * WIDTH] * width) + right


def _cell(state: GameState, cell: Cell, lang: str, paint: Paint) -> tuple[str, str]:
    """The cell's two lines: terrain and SP, then the unit (or more terrain, if none)."""
    piece = state.terrain.get(cell)
    mark = _terrain_mark(piece)
    left = "" if piece is None else paint(mark, piece.kind.value)
    sp = state.sps.get(cell)
    holder = "" if sp is None else SP_GLYPH + say(lang, "side-letter", side=sp.holder.value)
    right = "" if sp is None else paint(holder, sp.holder.value)
    # Widths are counted on the plain text: colour codes take no room on the screen.
    top = " " + left + " " * (WIDTH - 1 - len(mark) - len(holder)) + right
    unit = state.unit_at(cell)
    if unit is not None:
        bottom = _unit(state, unit, lang, paint)
    elif piece is not None and not piece.kind.enterable:
        bottom = paint(GLYPH[piece.kind] * WIDTH, piece.kind.value)
    else:
        bottom = " " * WIDTH
    return top, bottom


def _terrain_mark(piece: Terrain | None) -> str:
    if piece is None:
        return ""
    glyph = GLYPH[piece.kind]
    if not piece.kind.enterable:
        return glyph * 3
    if piece.kind.gives_cover:
        return f"{glyph}{piece.cover_value}+"
    return glyph


def _unit(state: GameState, unit: UnitState, lang: str, paint: Paint) -> str:
    letter = say(lang, "side-letter", side=unit.side.value)
    handle = unit.id + (LOADED if state.passenger_of(unit.id) is not None else "")
    hp = str(unit.hp)
    shown = paint(f"{letter} {handle}", unit.side.value)
    hp_text = paint(hp, "bad") if unit.is_damaged else hp
    room = WIDTH - len(letter) - 1 - len(handle) - len(hp)
    if room >= 2:
        return " " + shown + " " * (room - 1) + hp_text
    # A long handle (tac10+) takes the margin; the grid stays straight.
    return shown + " " * max(room, 1) + hp_text


def _header(state: GameState, lang: str, paint: Paint) -> str:
    if state.phase is Phase.PLAYING:
        assert state.active is not None
        south = victory.score(state, Side.SOUTH).vp
        north = victory.score(state, Side.NORTH).vp
        text = say(
            lang,
            "board-header-play",
            round=state.round,
            rounds=state.scenario.rounds,
            side=state.active.value,
            south=south,
            north=north,
        )
    elif state.phase is Phase.ENDED:
        text = say(lang, "board-header-ended")
    else:
        actor = setup.setup_actor(state)
        text = say(
            lang,
            "board-header-setup",
            phase=translate(lang, f"phase-{state.phase.value}"),
            side="none" if actor is None else actor.value,
        )
    return paint(text, "title")


def _waiting(state: GameState, lang: str, paint: Paint) -> list[str]:
    """H5: a wrecked transport's passenger is on no cell while its owner chooses one; the
    board says so rather than leave it out (issue 12)."""
    return [
        say(
            lang,
            "board-waiting",
            unit=paint(pending.unit, pending.side.value),
            side=pending.side.value,
            cells=", ".join(c.name for c in pending.cells),
        )
        for pending in state.pending
        if isinstance(pending, PendingPlacement)
    ]


def _passengers(state: GameState, lang: str) -> list[str]:
    """Who rides in which transport: the grid shows only the transport."""
    loaded = [
        f"{transport.id} → {passenger.id}"
        for transport in state.living()
        if not transport.in_reserve and (passenger := state.passenger_of(transport.id)) is not None
    ]
    return [say(lang, "board-passengers", list=", ".join(loaded))] if loaded else []
