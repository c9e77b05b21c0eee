"""The answer to ``rule E8`` / ``правило E8``: a rule of the project's rules reference.

The text comes from ``vahalite_bot.rulebook``; only the heading and the refusals are
catalogue messages (``orders-rule-*``). Every adapter prints the same answer.
"""

from __future__ import annotations

import difflib

from vahalite_bot import rulebook
from vahalite_bot.i18n import shorten, translate

SUGGESTIONS = 3


def rule_reply(lang: str, rule_id: str | None) -> str:
    """Rule ``rule_id`` with its heading; every ID for None; near IDs for an unknown one."""
    if rule_id is None:
        return translate(lang, "orders-rule-list", ids=", ".join(rulebook.rule_ids()))
    text = rulebook.rule_text(lang, rule_id)
    if text is None:
        near = difflib.get_close_matches(rule_id, rulebook.rule_ids(), SUGGESTIONS, 0.5)
        options = ", ".join(translate(lang, "orders-quoted", text=r) for r in near)
        return translate(
            lang, "orders-rule-unknown", rule=shorten(rule_id), count=len(near), options=options
        )
    title = rulebook.rule_title(lang, rule_id) or rule_id
    # ``rule m2`` finds M2: the heading names the rule as the book does.
    shown = rulebook.normalise_id(rule_id) or rule_id
    heading = translate(lang, "orders-rule-heading", rule=shown, title=title)
    return f"{heading}\n{text}"
