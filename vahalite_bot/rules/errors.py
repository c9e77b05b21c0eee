"""Errors the engine raises (typed by cause, as python-chess does)."""

from __future__ import annotations

from typing import Any


class RulesError(ValueError):
    """Base of every error the rules engine raises on purpose."""


# The rule of a refusal that no rule of the game gives: it is told without a rule ID.
NO_RULE = ""


class IllegalAction(RulesError):
    """The rules forbid this action here: carries the rule ID and a message key.

    Player-readable text comes from the message catalogues (``code`` and ``params``); the
    engine never builds sentences itself.
    """

    def __init__(self, rule: str, code: str, **params: Any) -> None:
        # The questions build many of these only to test for None: keep this cheap and
        # format the developer text only when someone prints it.
        super().__init__(rule, code)
        self.rule = rule
        self.code = code
        self.params = params

    def __str__(self) -> str:
        detail = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"[{self.rule}] {self.code}" + (f" ({detail})" if detail else "")


class UnknownUnit(IllegalAction):
    def __init__(self, unit: str) -> None:
        super().__init__("C2", "unknown_unit", unit=unit)
