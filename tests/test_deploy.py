"""``deploy/vahalite.service`` (issue 20): a systemd unit that runs the installed command as a
dedicated user, keeps its files in its state folder, restarts on failure and stops by
SIGTERM; ``systemd-analyze verify`` accepts it where systemd is installed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "vahalite.service"


def settings() -> dict[str, list[str]]:
    """Every key of the unit with its values (systemd keys may repeat)."""
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_the_unit_runs_the_bot_as_its_own_user_with_its_state_folder() -> None:
    unit = settings()
    assert unit["User"] == ["vahalite"] and unit["Group"] == ["vahalite"]
    assert unit["StateDirectory"] == ["vahalite"]
    assert "VAHALITE_DATA_DIR=%S/vahalite" in unit["Environment"]
    (start,) = unit["ExecStart"]
    assert start.split()[0].endswith("/bin/vahalite") and start.split()[-1] == "run"
    assert unit["Restart"] == ["on-failure"]
    assert unit["KillSignal"] == ["SIGTERM"]
    # systemd waits longer than the bot takes to finish the commands in flight.
    from vahalite_bot.discord.client import DRAIN_SECONDS

    assert int(unit["TimeoutStopSec"][0]) > DRAIN_SECONDS
    from vahalite_bot.discord.client import EXIT_CONFIG

    assert unit["RestartPreventExitStatus"] == [str(EXIT_CONFIG)]


def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed on this machine")
    # verify also checks that ExecStart exists: point it at this environment's vahalite.
    installed = Path(sys.executable).parent / "vahalite"
    assert installed.is_file(), "the project is installed with its console script"
    unit = tmp_path / "vahalite.service"
    unit.write_text(UNIT.read_text().replace("/opt/vahalite/bin/vahalite", str(installed)))
    run = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, check=False
    )
    problems = [line for line in run.stderr.splitlines() if "vahalite.service" in line]
    assert run.returncode == 0 and not problems, run.stderr
