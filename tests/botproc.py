"""The real bot as its own OS process, pointed at the Discord stand-in.

It is started exactly as in production (``python bot.py --config FILE``); only the config's
API base URL and gateway name the stand-in. Used by the end-to-end tests and by
``benchmarks.discord``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import itertools
import json
import os
import re
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.standin import StandIn

ROOT = Path(__file__).resolve().parents[1]


def write_config(
    folder: Path,
    standin: StandIn,
    *,
    database_url: str | None = None,
    token: str | None = None,
    workers: int = 1,
    message_content: bool = True,
    extra: dict[str, Any] | None = None,
    game: dict[str, Any] | None = None,
) -> Path:
    """A config.toml for a bot talking to ``standin`` with its data under ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    url = database_url or f"sqlite+aiosqlite:///{folder / 'vahalite.db'}"
    discord: dict[str, Any] = {
        "token": token if token is not None else standin.token,
        "api_base": standin.api_base,
        "gateway": standin.gateway_url,
        "workers": workers,
        "message_content": message_content,
        "data_dir": str(folder),
        "stall_file": str(folder / "stall.json"),
        **(extra or {}),
    }
    lines = ["[discord]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in discord.items()]
    lines += ["", "[database]", f"url = {json.dumps(url)}", "", "[game]", 'language = "en"']
    lines += [f"{key} = {json.dumps(value)}" for key, value in (game or {}).items()]
    path = folder / "config.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _die_with_parent() -> None:
    """In the bot's process before it runs: SIGTERM it (a clean stop) when the process that
    started it ends, however that ends -- a benchmark killed by ``timeout`` or SIGKILL must
    not leave its bots serving (Linux; elsewhere the caller's ``stop`` is all there is)."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


PR_SET_PDEATHSIG = 1


class BotProcess:
    """``python bot.py`` against the stand-in; its output goes to ``folder/bot.log``."""

    def __init__(self, config: Path, args: Sequence[str] = ()) -> None:
        self.config = config
        self.args = list(args)
        self.log = config.parent / "bot.log"
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("VAHALITE_")}
        env["PYTHONUNBUFFERED"] = "1"
        with self.log.open("ab") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                str(ROOT / "bot.py"),
                "--config",
                str(self.config),
                *self.args,
                cwd=str(self.config.parent),
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                preexec_fn=_die_with_parent,
            )

    async def wait(self, timeout: float = 30) -> int:
        assert self.process is not None
        return await asyncio.wait_for(self.process.wait(), timeout)

    def kill(self) -> None:
        """SIGKILL: a crash, with no chance to tidy up."""
        if self.process is not None and self.process.returncode is None:
            self.process.kill()

    async def stop(self) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), 15)
        except TimeoutError:
            self.kill()
            await self.process.wait()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def errors(self, expected: Sequence[str] = ()) -> list[str]:
        """Every ERROR (or CRITICAL) record and every traceback in the bot's log, except
        those containing one of ``expected`` (what a test declares it provokes)."""
        return [
            record
            for record in log_records(self.output())
            if _is_error(record) and not any(e in record for e in expected)
        ]


# The bot's log format (vahalite_bot.discord.client.run): "2026-01-01 12:00:00,000 LEVEL name: …".
RECORD_START = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ ", re.MULTILINE)


def log_records(text: str) -> list[str]:
    """The log cut into records: each starts at a timestamp and runs until the next (a
    traceback belongs to the record it follows; anything before the first record, such as
    an interpreter's uncaught traceback, is a record of its own)."""
    starts = [m.start() for m in RECORD_START.finditer(text)]
    bounds = [0, *starts, len(text)] if not starts or starts[0] != 0 else [*starts, len(text)]
    return [text[a:b].rstrip("\n") for a, b in itertools.pairwise(bounds) if text[a:b].strip()]


def _is_error(record: str) -> bool:
    head = record.split("\n", 1)[0]
    level = head.split(" ", 3)[2] if RECORD_START.match(head) else ""
    return level in ("ERROR", "CRITICAL") or "Traceback (most recent call last)" in record
