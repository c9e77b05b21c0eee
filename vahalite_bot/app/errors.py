"""Errors the service raises, typed by cause; the engine's ``IllegalAction`` passes through.

Each carries a message key (``service-<code>`` in ``i18n/locales/<lang>/service.ftl``) and
its parameters: the adapters turn them into text, the service never does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from vahalite_bot.i18n import localised_args, translate
from vahalite_bot.rules.roster import RosterProblem


class ServiceError(Exception):
    """Base of every refusal the service makes itself."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        super().__init__(code + (f" ({detail})" if detail else ""))

    @property
    def message_id(self) -> str:
        return f"service-{self.code}"

    def describe(self, lang: str) -> str:
        args = {k: _showable(v) for k, v in localised_args(self.params, lang).items()}
        return translate(lang, self.message_id, **args)


# A refusal may quote what the caller sent: quote it short, and numbers the catalogue's
# number formatting can take (it fails on integers of 10**30 and beyond).
_QUOTE_MAX = 40
_NUMBER_MAX = 10**15


def _showable(value: Any) -> Any:
    if isinstance(value, str):
        clean = "".join(c if c.isprintable() else "?" for c in value[: _QUOTE_MAX + 1])
        return clean if len(clean) <= _QUOTE_MAX else clean[: _QUOTE_MAX - 1] + "…"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _NUMBER_MAX:
        return _showable(str(value))
    return value


class NotAllowed(ServiceError):
    """The caller may not do this: not a player, not the referee, not now (paused, over)."""


class NotFound(ServiceError):
    """No such game (or no game in that channel)."""


class StaleState(ServiceError):
    """The game changed since the caller looked (or kept changing under a retried command)."""


class InvalidRequest(ServiceError):
    """A value out of range: points limit, deadline, language, HP, count."""


class Unavailable(ServiceError):
    """This process lacks something the game needs (a scenario file): the operator's to fix,
    not the caller's; another process that has it serves the game."""


class RosterRejected(ServiceError):
    """A1-A7: the army list is illegal; ``problems`` lists every reason at once (A7)."""

    def __init__(self, problems: Sequence[RosterProblem]) -> None:
        super().__init__("roster_rejected", count=len(problems))
        self.problems = tuple(problems)
