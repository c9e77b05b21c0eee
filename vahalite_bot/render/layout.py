"""Where everything goes: the header on top, the board with its coordinate margins, the
legend in a column to its right, the caption below.

The image is about as tall as it is wide (Discord fits images into a box, so a tall one
would be shown smaller). Sizes scale with the width (``u`` is one pixel at 800 px); cells
stay square whatever the scenario's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vahalite_bot.rules.geometry import Cell

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    u: float
    cols: int
    rows: int
    cell: int  # the side of a cell, px
    board_x: int
    board_y: int
    margin: int  # room for the coordinates around the board
    header: Box
    caption: Box
    legend: Box

    @property
    def board_box(self) -> Box:
        return (
            self.board_x,
            self.board_y,
            self.board_x + self.cols * self.cell,
            self.board_y + self.rows * self.cell,
        )

    def px(self, value: float) -> int:
        """``value`` pixels at 800 px wide, scaled to this image."""
        return max(1, round(value * self.u))

    def cell_box(self, cell: Cell) -> Box:
        """The cell's pixel box; row 0 (the south edge) is at the bottom."""
        x = self.board_x + cell.col * self.cell
        y = self.board_y + (self.rows - 1 - cell.row) * self.cell
        return (x, y, x + self.cell, y + self.cell)

    def centre(self, cell: Cell) -> tuple[float, float]:
        x0, y0, x1, y1 = self.cell_box(cell)
        return ((x0 + x1) / 2, (y0 + y1) / 2)


@lru_cache(maxsize=64)
def layout_for(cols: int, rows: int, width: int, legend_width: int) -> Layout:
    """The layout of a ``cols`` x ``rows`` board ``width`` px wide with a legend column
    ``legend_width`` px wide."""
    u = width / 800
    pad = max(4, round(12 * u))
    gap = round(10 * u)
    margin = max(14, round(26 * u))
    header_h = round(84 * u)
    caption_h = round(46 * u)
    room_w = width - 2 * pad - gap - legend_width - 2 * margin
    room_h = width - 2 * pad - header_h - caption_h - 2 * margin
    cell = max(16, min(room_w // cols, room_h // rows))
    board_w, board_h = cols * cell, rows * cell
    block_w = board_w + 2 * margin + gap + legend_width
    left = (width - block_w) // 2
    header = (pad, pad, width - pad, pad + header_h)
    board_x = left + margin
    board_y = header[3] + margin
    legend_x = board_x + board_w + margin + gap
    legend = (legend_x, board_y, legend_x + legend_width, board_y + board_h)
    caption_y = board_y + board_h + margin
    caption = (pad, caption_y, width - pad, caption_y + caption_h)
    return Layout(
        width=width,
        height=caption[3] + pad,
        u=u,
        cols=cols,
        rows=rows,
        cell=cell,
        board_x=board_x,
        board_y=board_y,
        margin=margin,
        header=header,
        caption=caption,
        legend=legend,
    )
