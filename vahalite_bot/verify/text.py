"""A check's report in the reader's language (verify.ftl)."""

from __future__ import annotations

from collections.abc import Mapping

from vahalite_bot.i18n import translate
from vahalite_bot.verify.check import CheckedDie, Report


def report_lines(report: Report, lang: str, every_die: bool = False) -> list[str]:
    """The summary, each problem, and (``every_die``) one line per die to check by hand."""
    lines = [
        translate(
            lang,
            "verify-game",
            game="?" if report.game is None else str(report.game),
            commitment=report.commitment,
        )
    ]
    for side, word in sorted(report.words.items()):
        lines.append(translate(lang, "verify-word", side=side, word=word))
    if every_die:
        lines.extend(die_line(d, lang) for d in report.dice)
    lines.extend(translate(lang, p.code, **_shown(p.args)) for p in report.problems)
    if report.seed is None:
        lines.append(translate(lang, "verify-no-seed", count=len(report.dice)))
    elif report.problems:
        lines.append(translate(lang, "verify-failed", count=len(report.problems)))
    else:
        lines.append(translate(lang, "verify-ok", count=len(report.dice), seed=report.seed))
    return lines


def die_line(checked: CheckedDie, lang: str) -> str:
    die = checked.die
    args = _shown(
        {"seq": checked.seq, "position": die.position, "purpose": die.purpose, "value": die.value}
    )
    if checked.expected is None:
        return translate(lang, "verify-die", **args)
    return translate(lang, "verify-die-checked", **args, expected=str(checked.expected))


def _shown(args: Mapping[str, int | str]) -> dict[str, int | str]:
    """Numbers that name things (entries, positions) as plain digits: Fluent would group
    them (11,353), and a player copies a position into a command to check it."""
    return {k: v if k == "count" else str(v) for k, v in args.items()}
