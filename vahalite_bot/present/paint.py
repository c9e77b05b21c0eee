"""Painting text: a painter takes a text and a style name and returns the text to show.

Adapters choose the painter: the terminal uses ANSI colours when a person is looking
(``console.terminal.ansi``), everything else uses ``plain``.
"""

from __future__ import annotations

from collections.abc import Callable

# A painter takes a text and a style name and returns the text to print.
Paint = Callable[[str, str], str]


def plain(text: str, style: str) -> str:
    return text
