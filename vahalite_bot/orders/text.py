"""Player-facing text for orders: refusals, help and a message's report, from the catalogues.

Every refusal ends with what to type instead: a near miss ("did you mean ...") when there
is one, and an example of the order meant when the refusal knows which order that was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from vahalite_bot.i18n import describe_error, localised_args, translate
from vahalite_bot.orders.lexicon import VERB_WORD
from vahalite_bot.orders.model import OrderProblem, Suggestion, Verb
from vahalite_bot.orders.runner import Report
from vahalite_bot.rules.errors import IllegalAction

# Refusals whose message lists the choices itself (instead of "did you mean").
_CHOICES = frozenset(
    {"ambiguous_unit", "ambiguous_terrain", "which_transport", "which_cell", "no_path"}
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
    Verb.RESIGN,
)

Describer = Callable[[Exception, str], str]


def describe(problem: OrderProblem, lang: str) -> str:
    """An order refused before the engine: why, and what to type instead."""
    args: dict[str, Any] = {
        key: VERB_WORD[lang][value] if isinstance(value, Verb) else value
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
        text += " " + translate(lang, "orders-for-example", example=example(lang, verb))
    return text


def describe_refusal(error: Exception, lang: str, other: Describer | None = None) -> str:
    """Any refusal a report holds; ``other`` describes the caller's own error types."""
    if isinstance(error, OrderProblem):
        return describe(error, lang)
    if isinstance(error, IllegalAction):
        return describe_error(error, lang)
    if other is not None:
        return other(error, lang)
    return str(error)


def example(lang: str, verb: Verb) -> str:
    return translate(lang, f"orders-example-{verb.value}")


def help_text(lang: str, topic: Verb | None = None) -> str:
    """Every order with an example (``help``), or one order in detail (``help attack``)."""
    if topic is None:
        lines = [translate(lang, "orders-help-intro")]
        lines += [translate(lang, f"orders-help-{verb.value}") for verb in HELP_TOPICS]
        lines.append(translate(lang, "orders-help-outro"))
    else:
        lines = [
            translate(lang, f"orders-help-{topic.value}"),
            translate(lang, f"orders-help-{topic.value}-details"),
        ]
    return "\n".join(lines)


def describe_report(report: Report[Any], lang: str, other: Describer | None = None) -> str:
    """What applied, what was refused and why, and what was not tried: one line each."""
    lines = [translate(lang, "orders-report-applied", line=a.line) for a in report.applied]
    lines += [
        translate(
            lang,
            "orders-report-refused",
            line=r.line,
            reason=describe_refusal(r.error, lang, other),
        )
        for r in report.refused
    ]
    lines += [translate(lang, "orders-report-skipped", line=line) for line in report.skipped]
    return "\n".join(lines)


def _options(suggestions: tuple[Suggestion, ...], lang: str) -> str:
    shown = []
    for suggestion in suggestions:
        quoted = translate(lang, "orders-quoted", text=suggestion.text)
        if suggestion.name is not None:
            quoted += f" ({suggestion.name.get(lang)})"
        shown.append(quoted)
    return ", ".join(shown)
