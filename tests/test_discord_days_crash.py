"""Issue 18, item 3: no announcement of the deadline loop is lost to a crash, and none is
posted twice (``tests/deadlinecrash.py``; ``python -m tests.deadlinecrash --kills 50`` is the
long measurement, this is its short run: a soak test, which `make test-soak` and CI run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deadlinecrash import measure


@pytest.mark.soak
async def test_issue18_3_the_deadline_loop_killed_at_random_loses_and_doubles_nothing(
    tmp_path: Path,
) -> None:
    figures = await measure(tmp_path, kills=4, seed=7)
    assert figures.committed > 0 and figures.expiries > 0
    assert figures.missed_turns_logged == figures.expiries  # each expiry has its announcement
    assert figures.lost == 0 and figures.posted == figures.committed
    assert figures.doubled == 0
    assert figures.errors_logged == 0
