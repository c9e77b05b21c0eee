"""``render_board``: a game state (and the events of its last action) as a PNG.

Like python-chess's ``chess.svg.board``, a pure function of its arguments: no I/O but
reading the bundled fonts once. The frame of each scenario board, the tokens and the
theme's colour palette are cached and shared by every game, so drawing any game, one never
drawn before included, costs only its terrain tiles and what is on the board.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PIL import Image, ImageDraw

from vahalite_bot.render import marks, png
from vahalite_bot.render.base import (
    BoardKey,
    base_layer,
    board_key,
    divider_rows,
    layout_of,
    row_colour,
)
from vahalite_bot.render.header import draw_caption, draw_header
from vahalite_bot.render.labels import label
from vahalite_bot.render.layout import Layout
from vahalite_bot.render.palette import quantize, theme_palette
from vahalite_bot.render.story import Fates, Story, fates, read_story
from vahalite_bot.render.theme import DEFAULT_THEME, Theme
from vahalite_bot.render.tokens import TokenSpec, fallen_spec, token_spec
from vahalite_bot.rules.events import Event
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState, PendingPlacement, Phase, UnitState

DEFAULT_SIZE = 800
MAX_SCALE = 4


def render_board(
    state: GameState,
    *,
    events: Sequence[Event] = (),
    before: GameState | None = None,
    names: Mapping[Side, str] | None = None,
    lang: str = "ru",
    size: int = DEFAULT_SIZE,
    theme: Theme = DEFAULT_THEME,
    scale: int = 1,
) -> bytes:
    """The board as PNG bytes (256 colours); see ``draw_board`` for the arguments."""
    image = draw_board(
        state,
        events=events,
        before=before,
        names=names,
        lang=lang,
        size=size,
        theme=theme,
        scale=scale,
    )
    return indexed_png(image, theme)


def pixel_width(size: int, scale: int) -> int:
    """The image's width in pixels: ``size`` at ``scale`` times the pixel density.

    The whole layout is proportional to the width, so a ``scale=2`` image is the same
    picture as ``scale=1`` with every line, glyph and gap twice as many pixels across:
    sharp on a phone that zooms into it (Discord shows about 550 px of it unzoomed).
    """
    if not 1 <= scale <= MAX_SCALE:
        raise ValueError(f"scale must be 1..{MAX_SCALE}, not {scale}")
    return size * scale


def draw_board(
    state: GameState,
    *,
    events: Sequence[Event] = (),
    before: GameState | None = None,
    names: Mapping[Side, str] | None = None,
    lang: str = "ru",
    size: int = DEFAULT_SIZE,
    theme: Theme = DEFAULT_THEME,
    scale: int = 1,
) -> Image.Image:
    """The board as an RGB image ``size * scale`` px wide (and about as tall).

    ``events`` are the last action's events, drawn over the board (the move's path, the
    attack with its damage, destroyed units) and told in the caption; ``before`` is the state
    they were applied to, which tells where destroyed units stood. ``names`` are the players'
    names (the side's name where missing); ``lang`` is "ru" or "en"; ``scale`` (1 to 4)
    multiplies the pixel density, not the layout.
    """
    names = names or {}
    story = read_story(state, events, before, names, lang)
    return draw_story(state, story, names, lang, size, theme, scale, _caption(state, story, lang))


def draw_story(
    state: GameState,
    story: Story,
    names: Mapping[Side, str],
    lang: str,
    size: int,
    theme: Theme,
    scale: int,
    caption: list[str],
) -> Image.Image:
    """The board of ``state`` with ``story``'s marks over it and ``caption`` under it: one
    action's story (``draw_board``) or a whole turn's (``render_turn``)."""
    key = board_key(state, pixel_width(size, scale), lang, theme)
    lay = layout_of(key)
    image = base_layer(key)
    draw = ImageDraw.Draw(image)
    waiting = waiting_passenger(state)
    touched = set(story.touched)
    if waiting is not None:
        touched.update(waiting[1].cells)
    grounds = _grounds(key, state, story, touched)
    for cell in sorted(touched):
        marks.wash(image, lay, cell, grounds(cell)[0], theme)
    for cell, sp in state.sps.items():
        marks.sp_ring(draw, lay, cell, sp.holder, cell in story.captured, theme)
    for path in story.paths:
        marks.path(image, lay, path.side, path.cells, theme)
    drawn = fates(state, story)
    for fallen in drawn.ghosts:
        marks.ghost(image, lay, fallen.cell, fallen_spec(fallen.unit), theme)
    if waiting is not None:  # issue 12: the passenger its owner must place, faded on each
        unit, pending = waiting  # cell it may take (H5)
        for cell in pending.cells:
            marks.ghost(image, lay, cell, token_spec(state, unit), theme)
    placed = [
        (unit.cell, token_spec(state, unit))
        for unit in state.units.values()
        if not unit.destroyed and unit.cell is not None
    ]
    busy = _overlaid(state, story, drawn, waiting, lay, theme)
    # A token whose words nothing else comes between is blended once, with what is under it.
    whole = {cell for cell, spec in placed if cell not in busy and _fits(lay, cell, spec, theme)}
    for cell, spec in placed:
        if cell in whole:
            marks.whole_token(image, lay, cell, spec, grounds(cell), theme)
        else:
            marks.token(image, lay, cell, spec, theme)
    for fallen in drawn.ghosts:
        marks.cross(image, lay, fallen.cell, theme)
    for strike in story.strikes:
        marks.strike(image, lay, strike.source, strike.target, theme)
    # Badges, plates and words over the arrows: whatever crosses a cell, every handle,
    # number and cover value on it stays readable.
    for cell, sp in state.sps.items():
        marks.sp_badge(image, lay, cell, sp.holder, theme)
    covers = _cover_values(state)
    for cell, value in covers.items():
        marks.cover_badge(image, lay, cell, value, theme)
    for target, damage in drawn.damage.items():
        marks.damage(image, lay, target, damage, theme)
    for fallen in drawn.ghosts:
        marks.words(image, lay, fallen.cell, fallen_spec(fallen.unit), theme)
    if waiting is not None:
        for cell in waiting[1].cells:
            marks.words(image, lay, cell, token_spec(state, waiting[0]), theme)
    carrying: set[Cell] = set()
    for cell, spec in placed:
        if cell not in whole:
            marks.words(image, lay, cell, spec, theme)
        if spec.passenger is not None:
            carrying.add(cell)
            room = marks.passenger_room(lay.cell, covers.get(cell))
            marks.passenger_tag(image, lay, cell, spec.passenger, spec.side, room, theme)
    for tag in drawn.tags:
        text = label(lang, "fallen", unit=tag.fallen.unit.id, damage=tag.damage)
        marks.fallen_tag(image, lay, tag.cell, text, tag.cell in carrying, theme)
    draw_header(image, lay, state, names, lang, theme)
    draw_caption(image, lay, caption, theme)
    return image


def _overlaid(
    state: GameState,
    story: Story,
    drawn: Fates,
    waiting: tuple[UnitState, PendingPlacement] | None,
    lay: Layout,
    theme: Theme,
) -> set[Cell]:
    """The cells that an arrow, a cross, a plate or a faded token reaches into: a token
    there is drawn in its two layers, with those between them."""
    boxes = [marks.path_box(lay, path.side, path.cells, theme) for path in story.paths]
    boxes += [marks.strike_box(lay, s.source, s.target, theme) for s in story.strikes]
    for fallen in drawn.ghosts:
        boxes.append(marks.ghost_box(lay, fallen.cell, fallen_spec(fallen.unit), theme))
        boxes.append(marks.cross_box(lay, fallen.cell, theme))
    if waiting is not None:
        spec = token_spec(state, waiting[0])
        boxes += [marks.ghost_box(lay, cell, spec, theme) for cell in waiting[1].cells]
    boxes += [marks.damage_box(lay, cell, amount, theme) for cell, amount in drawn.damage.items()]
    return marks.covered_cells(lay, [box for box in boxes if box is not None])


def _fits(lay: Layout, cell: Cell, spec: TokenSpec, theme: Theme) -> bool:
    return marks.on_board(lay, cell) and marks.within_cell(spec, lay.cell, theme)


def _grounds(
    key: BoardKey, state: GameState, story: Story, touched: set[Cell]
) -> Callable[[Cell], tuple[marks.Ground, bool, tuple[Side, bool] | None]]:
    """What lies under a token in each cell, as ``base_layer``, ``marks.wash`` and
    ``marks.sp_ring`` draw it: first what ``base_layer`` draws (a terrain tile or the
    row's shade, the lines along the cell's edges: all the wash goes over), then the
    wash, an SP's frame."""
    terrain = dict(key.terrain)
    halves, zones = dict(key.halves), dict(key.zones)
    dividers = divider_rows(halves, key.rows)
    shades = [row_colour(row, halves, zones, key.theme) for row in range(key.rows)]

    def ground(cell: Cell) -> tuple[marks.Ground, bool, tuple[Side, bool] | None]:
        col, row = cell.col, cell.row
        piece = terrain.get(cell)
        under = piece.kind if piece is not None else shades[row]
        sp = state.sps.get(cell)
        frame = None if sp is None else (sp.holder, cell in story.captured)
        lines = (col > 0, col < key.cols - 1, row > 0, row < key.rows - 1, row in dividers,
                 row + 1 in dividers)  # fmt: skip
        return ((under, lines), cell in touched, frame)

    return ground


def waiting_passenger(state: GameState) -> tuple[UnitState, PendingPlacement] | None:
    """H5: the passenger of a destroyed transport that its owner must place now, if any.

    It stands nowhere until placed, so the board would not show it at all (issue 12)."""
    if not state.pending or not isinstance(state.pending[0], PendingPlacement):
        return None
    pending = state.pending[0]
    unit = state.units.get(pending.unit)
    return None if unit is None else (unit, pending)


def indexed_png(image: Image.Image, theme: Theme) -> bytes:
    """``image`` in the theme's 256 colours, as PNG bytes."""
    return png.encode(quantize(image, theme_palette(theme)))


def _caption(state: GameState, story: Story, lang: str) -> list[str]:
    waiting = waiting_line(state, lang)
    if story.caption:
        return story.caption + waiting
    if waiting:
        return waiting
    if state.phase is Phase.DEPLOYMENT:
        waiting = [u.id for u in state.units.values() if not u.deployed and not u.destroyed]
        if waiting:
            return [label(lang, "waiting", units=", ".join(waiting))]
    return []


def waiting_line(state: GameState, lang: str) -> list[str]:
    """The caption's word on a passenger waiting to be placed: who places it, and where."""
    waiting = waiting_passenger(state)
    if waiting is None:
        return []
    unit, pending = waiting
    cells = ", ".join(cell.name for cell in pending.cells)
    return [label(lang, "waiting_passenger", unit=unit.id, cells=cells)]


def _cover_values(state: GameState) -> dict[Cell, int]:
    """The cells that show a cover value (E8), with it."""
    return {
        cell: piece.cover_value
        for cell, piece in state.terrain.items()
        if piece.kind in (TerrainKind.COVER, TerrainKind.FORTIFICATION)
    }
