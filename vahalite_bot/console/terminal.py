"""The terminal: lines in, text out, colours only where a person is looking.

Standard input may be a pipe (the end-to-end tests feed a whole game through it), so there is
no cursor control: a prompt, a line read, text printed. Colours are ANSI codes, used only when
standard output is a terminal and ``NO_COLOR`` is unset (https://no-color.org), so piped
output stays plain text.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO

from vahalite_bot.present.paint import Paint, plain

_RESET = "\x1b[0m"
STYLES = {
    "south": "\x1b[1;34m",  # bold blue
    "north": "\x1b[1;31m",  # bold red
    "water": "\x1b[36m",
    "height": "\x1b[33m",
    "cover": "\x1b[32m",
    "fortification": "\x1b[32;1m",
    "obstacle": "\x1b[90m",
    "neutral": "\x1b[37m",
    "title": "\x1b[1m",
    "dim": "\x1b[2m",
    "bad": "\x1b[31m",
    "good": "\x1b[32m",
    "dice": "\x1b[1;33m",
}


def ansi(text: str, style: str) -> str:
    code = STYLES.get(style)
    return text if code is None or not text else f"{code}{text}{_RESET}"


def wants_colour(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Terminal:
    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.paint: Paint = ansi if wants_colour(self.stdout) else plain
        # A person at a terminal sees what they type; a piped line is echoed after the
        # prompt so that a transcript reads like a session.
        self.echo = not (getattr(self.stdin, "isatty", None) and self.stdin.isatty())
        if not self.echo:
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401  (input() edits lines with it once imported)

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str | None:
        """One line typed after ``prompt``, stripped; None at the end of the input."""
        if not self.echo and self.stdin is sys.stdin and self.stdout is sys.stdout:
            # A person typing gets line editing and history (arrow keys) from input().
            try:
                return input(prompt).strip()
            except EOFError:
                self.stdout.write("\n")
                return None
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            return None
        if self.echo:
            self.stdout.write(line if line.endswith("\n") else line + "\n")
        return line.strip()
