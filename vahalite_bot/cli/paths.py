"""Where the bot's files live: the data directory and the config file.

Each is looked up the same way, the first found winning: the command line
(``--data-dir``, ``--config``), the environment (``VAHALITE_DATA_DIR``, ``VAHALITE_CONFIG``),
the config file (``[paths] data_dir``; the config cannot name itself), then the default: in a
checkout (the package sits beside ``pyproject.toml``, an editable install included) the
checkout's ``data/`` and ``config.toml``, wherever the command is started from; in an
installed copy the platform's user data and config folders (``platformdirs``: e.g.
``~/.local/share/vahalite`` and ``~/.config/vahalite`` on Linux). A service sets the
environment (``deploy/vahalite.service``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import platformdirs

APP = "vahalite"
DATA_ENV = "VAHALITE_DATA_DIR"
CONFIG_ENV = "VAHALITE_CONFIG"
CONFIG_NAME = "config.toml"
DATABASE_NAME = "vahalite.db"

PACKAGE = Path(__file__).resolve().parents[1]


def checkout(package: Path = PACKAGE) -> Path | None:
    """The source tree the package is run from, or None for an installed copy."""
    root = package.parent
    return root if (root / "pyproject.toml").is_file() and (root / "bot.py").is_file() else None


def default_data_dir(package: Path = PACKAGE) -> Path:
    root = checkout(package)
    return root / "data" if root is not None else platformdirs.user_data_path(APP)


def default_config(package: Path = PACKAGE) -> Path:
    root = checkout(package)
    return (
        root / CONFIG_NAME if root is not None else platformdirs.user_config_path(APP) / CONFIG_NAME
    )


def config_path(flag: Path | None, env: Mapping[str, str]) -> Path:
    if flag is not None:
        return flag
    named = env.get(CONFIG_ENV)
    return Path(named) if named else default_config()


def data_dir(flag: Path | None, env: Mapping[str, str], config: Mapping[str, Any]) -> Path:
    """The data directory, absolute. ``[discord] data_dir`` (where the bot kept the hash of
    its last command sync before ``[paths]`` existed) still counts, after ``[paths]``."""
    named = (
        flag
        or env.get(DATA_ENV)
        or config.get("paths", {}).get("data_dir")
        or config.get("discord", {}).get("data_dir")
    )
    return Path(named).expanduser().resolve() if named else default_data_dir()


def sqlite_url(folder: Path) -> str:
    """The default database: the SQLite file in the data directory."""
    return f"sqlite+aiosqlite:///{folder / DATABASE_NAME}"


def invoked_as(argv: Sequence[str] | None = None) -> tuple[str, ...]:
    """How the user started this program, to repeat in hints: ``vahalite console``,
    ``python -m vahalite_bot console`` or ``.venv/bin/python bot.py``, with its arguments."""
    args = list(sys.argv if argv is None else argv)
    program, rest = (args[0] if args else APP), args[1:]
    name = Path(program).name
    if name == "__main__.py":
        head = [_python(), "-m", "vahalite_bot"]
    elif name.endswith(".py"):
        head = [_python(), _relative(program)]
    else:
        head = [name if _on_path(program) else _relative(program)]
    return (*head, *rest)


def _python() -> str:
    return _relative(sys.executable) if ".venv" in Path(sys.executable).parts else "python"


def _relative(path: str) -> str:
    """The path as typed from here if it is below here, else absolute."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _on_path(program: str) -> bool:
    import shutil

    found = shutil.which(Path(program).name)
    return found is not None and Path(found).resolve() == Path(program).resolve()
