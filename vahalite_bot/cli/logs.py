"""The bot's logs: to stderr (journald under systemd), as text or one JSON object a line.

Level and format come from the command line (``--log-level``, ``--log-format``), the
environment (``VAHALITE_LOG_LEVEL``, ``VAHALITE_LOG_FORMAT``) or ``[logging]`` in the config.
Whatever a library or a traceback says, the bot token never reaches the output: every line is
scrubbed of it (and of anything shaped like a bot token) after formatting.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from pythonjsonlogger.json import JsonFormatter

LEVELS = ("debug", "info", "warning", "error")
FORMATS = ("text", "json")
LEVEL_ENV, FORMAT_ENV = "VAHALITE_LOG_LEVEL", "VAHALITE_LOG_FORMAT"
TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
HIDDEN = "[token hidden]"
# A Discord bot token: the bot's id in base64, a timestamp, an HMAC (dot-separated).
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}")


@dataclass(frozen=True)
class LogSettings:
    level: str = "info"
    format: str = "text"

    @classmethod
    def of(
        cls,
        table: Mapping[str, Any],
        env: Mapping[str, str],
        level: str | None = None,
        fmt: str | None = None,
    ) -> LogSettings:
        """The command line's choice, else the environment's, else the config's."""
        chosen = cls(
            level=(level or env.get(LEVEL_ENV) or table.get("level") or "info").lower(),
            format=(fmt or env.get(FORMAT_ENV) or table.get("format") or "text").lower(),
        )
        if chosen.level not in LEVELS:
            raise SystemExit(f"unknown log level {chosen.level!r}: one of {', '.join(LEVELS)}")
        if chosen.format not in FORMATS:
            raise SystemExit(f"unknown log format {chosen.format!r}: one of {', '.join(FORMATS)}")
        return chosen


class Scrubbed(logging.Formatter):
    """Another formatter's output with the secrets taken out."""

    def __init__(self, inner: logging.Formatter, secrets: Iterable[str]) -> None:
        super().__init__()
        self.inner = inner
        self.secrets = [s for s in secrets if s]

    def format(self, record: logging.LogRecord) -> str:
        return scrub(self.inner.format(record), self.secrets)


def scrub(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, HIDDEN)
    return TOKEN_SHAPE.sub(HIDDEN, text)


def configure(
    chosen: LogSettings,
    *,
    secrets: Iterable[str] = (),
    quiet: bool = False,
    stream: TextIO | None = None,
) -> logging.Handler:
    """Send every log record to stderr in the chosen format; ``quiet`` (the terminal game)
    raises the default level to warnings, as the player reads the same screen."""
    inner: logging.Formatter = (
        JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s")
        if chosen.format == "json"
        else logging.Formatter(TEXT)
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(Scrubbed(inner, secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    level = "warning" if quiet and chosen == LogSettings() else chosen.level
    root.setLevel(level.upper())
    return handler
