"""Packaging (issue 10, item 6): a wheel installs the migrations and migrates at start;
the alembic command and the bot read the same database variable. Issue 20: the installed
``vahalite`` command and where an installed copy keeps its files."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

from vahalite_bot.store import migrate
from vahalite_bot.store.database import URL_ENV

ROOT = Path(__file__).resolve().parents[1]
# What a wheel is built from: copied, so that building writes nothing into the work tree.
SOURCES = ("pyproject.toml", "setup.py", "README.md", "vahalite_bot", "migrations", "boards")


def test_migrations_are_found_in_a_checkout_and_in_an_installed_package(tmp_path: Path) -> None:
    assert migrate.MIGRATIONS == ROOT / "migrations"
    installed = tmp_path / "site-packages" / "vahalite_bot"
    (installed / "migrations").mkdir(parents=True)
    (installed / "migrations" / "env.py").write_text("")
    assert migrate.find_migrations(installed) == installed / "migrations"
    with pytest.raises(FileNotFoundError):
        migrate.find_migrations(tmp_path / "nowhere" / "vahalite_bot")


def test_alembic_ini_and_env_name_the_bots_database_variable(tmp_path: Path) -> None:
    """``alembic upgrade head`` works on the database VAHALITE_DATABASE_URL names."""
    ini = (ROOT / "alembic.ini").read_text(encoding="utf-8")
    assert URL_ENV in ini and "VAHALITE_DB_URL" not in ini
    target = tmp_path / "by-env.db"
    env = {**os.environ, URL_ENV: f"sqlite+aiosqlite:///{target}"}
    run = subprocess.run(
        [sys.executable, "-m", "alembic", "-c", str(ROOT / "alembic.ini"), "upgrade", "head"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert target.is_file()  # not the ini's default data/vahalite.db


START = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path

    import vahalite_bot
    from vahalite_bot.app import Actor, GameService
    from vahalite_bot.scenarios import BOARDS, shipped_scenarios
    from vahalite_bot.store import migrate
    from vahalite_bot.store.database import open_database

    async def main(url: str) -> None:
        db = await open_database(url)  # creates and migrates the fresh file
        try:
            assert await migrate.current_revision(db.engine) == migrate.head_revision()
            outcome = await GameService(db).create_game(Actor("u"), "c", entropy="word")
            assert outcome.version == 2, outcome
        finally:
            await db.close()
        print(Path(vahalite_bot.__file__).parent)
        print(migrate.MIGRATIONS)
        print(BOARDS)
        print(",".join(shipped_scenarios()))

    asyncio.run(main(sys.argv[1]))
    """
)


@pytest.mark.wheel
def test_a_wheel_installs_and_migrates_a_fresh_database(tmp_path: Path) -> None:
    """Build the wheel (no network, no build isolation), install it (no dependencies, no
    index) into a fresh virtualenv that sees this environment's packages, and start it
    against a new SQLite file from outside the checkout."""
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        item = ROOT / name
        if item.is_dir():
            shutil.copytree(item, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(item, source / name)
    dist = tmp_path / "dist"
    _run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
        "--no-index", "-q", "-w", str(dist), str(source),
    )  # fmt: skip
    (wheel,) = dist.glob("vahalite_bot-*.whl")
    target = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    site = Path(_run(str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"))
    # This environment's packages (SQLAlchemy, Alembic, ...) as plain paths: its .pth files,
    # the editable install of this checkout among them, are not run.
    here = Path(
        _run(sys.executable, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
    )
    (site / "dependencies.pth").write_text(f"{here}\n")
    _run(
        sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
        "--no-index", "-q", str(wheel),
    )  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    database = elsewhere / "fresh.db"
    env = {"PATH": os.environ.get("PATH", "")}
    out = _run(str(python), "-c", START, f"sqlite+aiosqlite:///{database}", cwd=elsewhere, env=env)
    package, migrations, boards, scenarios = out.splitlines()
    assert Path(package) == site / "vahalite_bot"  # the installed copy, not this checkout
    assert Path(migrations) == site / "vahalite_bot" / "migrations"
    assert Path(boards) == site / "vahalite_bot" / "boards"  # rulebook L: the scenario files
    assert scenarios == "standard,big-battle,fortress,river-crossing"
    assert database.is_file()
    assert not (source / "build").exists()  # pip leaves no build/ behind (issue 20)

    # The installed command, first started in an empty folder by a user with an empty home:
    # its files go to the user's data folder, and the game's first screen repeats the
    # command the user typed (issue 20).
    home = tmp_path / "home"
    env = {"PATH": f"{target / 'bin'}:{os.environ.get('PATH', '')}", "HOME": str(home)}
    shown = _run("vahalite", "--help", cwd=elsewhere, env=env)
    assert "doctor" in shown and "selfplay" in shown
    data = home / ".local" / "share" / "vahalite"
    _run("vahalite", "db", "upgrade", cwd=elsewhere, env=env)
    assert (data / "vahalite.db").is_file()
    screen = subprocess.run(
        ["vahalite", "console", "--lang", "en"], cwd=elsewhere, env=env, input="",
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert screen.returncode == 0, screen.stderr
    assert "vahalite console --lang ru" in screen.stdout
    assert os.listdir(elsewhere) == ["fresh.db"]  # nothing written where it was started
    module = _run(str(python), "-m", "vahalite_bot", "codex", "check", cwd=elsewhere, env=env)
    assert module.splitlines()[-1].startswith("factions=8 ")


def _run(*argv: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    run = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert run.returncode == 0, f"{argv[:4]}: {run.stdout}\n{run.stderr}"
    return run.stdout.strip()
