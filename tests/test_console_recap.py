"""Issue 11 in the terminal: at each hot-seat handover, and after the automatic player's turn,
the recap of everything since the player's last turn, as text and as one image."""

from __future__ import annotations

import asyncio
import re
from itertools import pairwise
from pathlib import Path

import pytest

from tests.test_console_game import _precompute, lobby_answers, refusals, run_console

TITLE = "── С вашего прошлого хода ──"
VP = re.compile(r"^ПО: Юг \d+ → \d+, Север \d+ → \d+\.$", re.MULTILINE)
PICTURE = re.compile(r"^Весь ход на одной картинке: (\S+-turn\.png)$", re.MULTILINE)


def first_turns(lines: list[str], ends: int) -> list[str]:
    """The orders up to and including the ``ends``-th end of turn typed."""
    count = 0
    for index, line in enumerate(lines):
        if line == "конец":
            count += 1
            if count == ends:
                return lines[: index + 1]
    raise AssertionError(f"the game has fewer than {ends} turn ends typed")


@pytest.mark.parametrize("vs", [None, "greedy"])
def test_the_next_player_sees_the_recap_of_the_turn_before(tmp_path: Path, vs: str | None) -> None:
    script = asyncio.run(_precompute(tmp_path / "expected", vs))
    # Hot-seat: both sides' ends are typed, so four ends are two rounds; against the
    # automatic player, South's two ends are followed by North's two turns.
    lines = first_turns(script.lines, 4 if vs is None else 2)
    output = run_console(tmp_path, [*lobby_answers(), *lines, "выход"], vs=vs)
    assert refusals(output) == []
    recaps = output.split(TITLE)[1:]
    # The first player's first turn has no turn of their own before it: no recap then.
    assert len(recaps) >= (3 if vs is None else 2)
    for recap in recaps:
        assert VP.search(recap), recap
        picture = PICTURE.search(recap)
        assert picture is not None, recap
        assert (tmp_path / picture.group(1)).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if vs is not None:
        _each_event_told_once(output)
    if vs is None:  # the recap comes with the handover, before the prompt
        handed = output.split("── Передайте клавиатуру: ")[1:]
        assert sum(TITLE in text.split(" > ")[0] for text in handed) >= 3


def _each_event_told_once(output: str) -> None:
    """Issue 19: against the automatic player its turn is told as it happens; the recap
    after it adds the summary and the picture, not the same story again."""
    parts = output.split(TITLE)
    for told, recap in pairwise(parts):
        block = recap.split("Весь ход на одной картинке")[0].splitlines()
        already = set(told.splitlines()[-200:])
        repeated = [line for line in block if line.strip() and not VP.match(line)]
        repeated = [line for line in repeated if line in already]
        assert repeated == [], repeated
