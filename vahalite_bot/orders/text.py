"""Player-facing text for orders: refusals, help and a message's report, from the catalogues.

Every refusal ends with what to type instead: a near miss ("did you mean ...") when there
is one, and an example of the order meant when the refusal knows which order that was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from vahalite_bot.i18n import describe_error, localised_args, shorten, translate
from vahalite_bot.orders.examples import Examples
from vahalite_bot.orders.lexicon import VERB_WORD
from vahalite_bot.orders.model import OrderProblem, Suggestion, Verb
from vahalite_bot.orders.runner import Report
from vahalite_bot.rules.errors import IllegalAction

# Refusals whose message lists the choices itself (instead of "did you mean").
_CHOICES = frozenset(
    {
        "ambiguous_unit",
        "ambiguous_terrain",
        "which_transport",
        "which_cell",
        "no_path",
        "unknown_word",
    }
)

HELP_TOPICS = (
    Verb.MOVE,
    Verb.ATTACK,
    Verb.EMBARK,
    Verb.DISEMBARK,
    Verb.END,
    Verb.UNDO,
    Verb.BOARD,
    Verb.STATUS,
    Verb.ODDS,
    Verb.ARMY,
    Verb.LOG,
    Verb.HELP,
    Verb.ROLL,
    Verb.DEPLOY_ORDER,
    Verb.TERRAIN,
    Verb.SP,
    Verb.DEPLOY,
    Verb.ADVANCE,
    Verb.FALL_BACK,
    Verb.CHARGE,
    Verb.ORDERS,
    Verb.RESERVE,
    Verb.ARRIVE,
    Verb.RESIGN,
    Verb.RULE,
    Verb.VERIFY,
    Verb.HINT,
)

Describer = Callable[[Exception, str], str]


def describe(problem: OrderProblem, lang: str, examples: Examples | None = None) -> str:
    """An order refused before the engine: why, and what to type instead (the example
    naming units of ``examples``, the player's game)."""
    shown = examples or Examples()
    # Text parameters echo what the player typed: shortened, so a pasted page stays a line.
    args: dict[str, Any] = shown.args(lang)
    args |= {
        key: VERB_WORD[lang][value]
        if isinstance(value, Verb)
        else shorten(value)
        if isinstance(value, str)
        else value
        for key, value in problem.params.items()
    }
    args = localised_args(args, lang)
    args["options"] = _options(problem.suggestions, lang)
    args["count"] = len(problem.suggestions)
    text = translate(lang, problem.message_id, **args)
    if problem.suggestions and problem.code not in _CHOICES:
        text += " " + translate(lang, "orders-did-you-mean", options=args["options"])
    verb = problem.params.get("verb")
    if isinstance(verb, Verb):
        text += " " + translate(lang, "orders-for-example", example=example(lang, verb, shown))
    return text


def describe_refusal(
    error: Exception,
    lang: str,
    other: Describer | None = None,
    examples: Examples | None = None,
) -> str:
    """Any refusal a report holds; ``other`` describes the caller's own error types."""
    if isinstance(error, OrderProblem):
        return describe(error, lang, examples)
    if isinstance(error, IllegalAction):
        return describe_error(error, lang)
    if other is not None:
        return other(error, lang)
    return str(error)


def example(lang: str, verb: Verb, examples: Examples | None = None) -> str:
    return translate(lang, f"orders-example-{verb.value}", **(examples or Examples()).args(lang))


def help_text(lang: str, topic: Verb | None = None, examples: Examples | None = None) -> str:
    """Every order with an example (``help``), or one order in detail (``help attack``);
    the examples name the units of ``examples`` (``examples_for(state, side)``)."""
    args = (examples or Examples()).args(lang)
    if topic is None:
        lines = [translate(lang, "orders-help-intro", **args)]
        lines += [translate(lang, f"orders-help-{verb.value}", **args) for verb in HELP_TOPICS]
        lines.append(translate(lang, "orders-help-outro", **args))
    else:
        lines = [
            translate(lang, f"orders-help-{topic.value}", **args),
            translate(lang, f"orders-help-{topic.value}-details", **args),
        ]
    return "\n".join(lines)


def describe_report(
    report: Report[Any],
    lang: str,
    other: Describer | None = None,
    examples: Examples | None = None,
) -> str:
    """What applied, what was refused and why, and what was not tried: one line each."""
    lines = [report_line(lang, "applied", a.line) for a in report.applied]
    lines += [
        report_line(lang, "refused", r.line, describe_refusal(r.error, lang, other, examples))
        for r in report.refused
    ]
    lines += [report_line(lang, "skipped", line) for line in report.skipped]
    return "\n".join(lines)


def report_line(lang: str, outcome: str, line: str, reason: str = "") -> str:
    """One line of a report (``applied``, ``refused`` with its reason, ``skipped``), the
    order as typed shortened so that a huge paste is echoed as one readable line."""
    args: dict[str, Any] = {"line": shorten(line)}
    if outcome == "refused":
        args["reason"] = reason
    return translate(lang, f"orders-report-{outcome}", **args)


def _options(suggestions: tuple[Suggestion, ...], lang: str) -> str:
    shown = []
    for suggestion in suggestions:
        quoted = translate(lang, "orders-quoted", text=suggestion.text)
        if suggestion.name is not None:
            quoted += f" ({suggestion.name.get(lang)})"
        shown.append(quoted)
    return ", ".join(shown)
