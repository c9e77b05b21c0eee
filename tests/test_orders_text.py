"""Order refusals, help and examples in both languages, checked against the parser."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from vahalite_bot.i18n import LANGUAGES, translate
from vahalite_bot.orders import (
    AdvanceOrder,
    ArmyOrder,
    AttackOrder,
    BoardOrder,
    ChargeOrder,
    DeployOrder,
    DeployOrderChoice,
    DisembarkOrder,
    EmbarkOrder,
    EndTurnOrder,
    FallBackOrder,
    GiveOrdersOrder,
    HelpOrder,
    HintOrder,
    LogOrder,
    MoveOrder,
    OddsOrder,
    OrderError,
    OrderProblem,
    OrderSyntaxError,
    ResignOrder,
    RollOffOrder,
    RuleOrder,
    SPOrder,
    StatusOrder,
    Suggestion,
    TerrainOrder,
    UndoOrder,
    Verb,
    VerifyOrder,
    describe,
    help_text,
    parse_line,
)
from vahalite_bot.orders.lexicon import VERBS
from vahalite_bot.orders.model import ArriveOrder, ReserveOrder
from vahalite_bot.orders.text import HELP_TOPICS, example
from vahalite_bot.rules.sheets import Names

ORDERS_DIR = Path(__file__).resolve().parents[1] / "vahalite_bot" / "orders"

ORDER_OF_VERB: dict[Verb, type] = {
    Verb.MOVE: MoveOrder,
    Verb.ATTACK: AttackOrder,
    Verb.EMBARK: EmbarkOrder,
    Verb.DISEMBARK: DisembarkOrder,
    Verb.END: EndTurnOrder,
    Verb.UNDO: UndoOrder,
    Verb.BOARD: BoardOrder,
    Verb.STATUS: StatusOrder,
    Verb.ODDS: OddsOrder,
    Verb.ARMY: ArmyOrder,
    Verb.LOG: LogOrder,
    Verb.HELP: HelpOrder,
    Verb.ROLL: RollOffOrder,
    Verb.DEPLOY_ORDER: DeployOrderChoice,
    Verb.TERRAIN: TerrainOrder,
    Verb.SP: SPOrder,
    Verb.DEPLOY: DeployOrder,
    Verb.ADVANCE: AdvanceOrder,
    Verb.RESIGN: ResignOrder,
    Verb.RULE: RuleOrder,
    Verb.VERIFY: VerifyOrder,
    Verb.HINT: HintOrder,
    Verb.FALL_BACK: FallBackOrder,
    Verb.CHARGE: ChargeOrder,
    Verb.ORDERS: GiveOrdersOrder,
    Verb.RESERVE: ReserveOrder,
    Verb.ARRIVE: ArriveOrder,
}

_MAKERS: dict[str, type[OrderProblem]] = {
    "_fail": OrderSyntaxError,
    "OrderSyntaxError": OrderSyntaxError,
    "OrderError": OrderError,
}


def raised_codes() -> list[tuple[str, type[OrderProblem], str, tuple[str, ...]]]:
    """Every literal refusal the orders package makes: file, kind, code, parameter names."""
    found = []
    for path in sorted(ORDERS_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") in _MAKERS):
                continue
            if not node.args or not isinstance(node.args[0], ast.Constant):
                continue
            names = tuple(k.arg for k in node.keywords if k.arg is not None)
            kind = _MAKERS[getattr(node.func, "id", "")]
            found.append((path.name, kind, str(node.args[0].value), names))
    return found


def test_the_scan_finds_the_refusals() -> None:
    assert len(raised_codes()) > 30


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_has_a_message_with_its_parameters(lang: str) -> None:
    missing = []
    for file, kind, code, names in raised_codes():
        params: dict[str, Any] = {n: Verb.MOVE if n == "verb" else "C3" for n in names}
        for suggestions in ((), (Suggestion("tac1", Names("Отряд", "Squad")),)):
            try:
                text = describe(kind(code, suggestions, **params), lang)
            except KeyError as exc:
                missing.append(f"{file}: {code}: {exc}")
                continue
            if "{" in text or "}" in text:
                missing.append(f"{file}: {code}: unfilled {text!r}")
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_refusal_with_a_verb_ends_with_an_example_of_that_order(lang: str) -> None:
    error = parse_line("move tac1")
    assert isinstance(error, OrderSyntaxError)
    move = example(lang, Verb.MOVE)
    assert describe(error, lang).endswith(translate(lang, "orders-for-example", example=move))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("verb", list(Verb))
def test_every_example_parses_to_its_order(lang: str, verb: Verb) -> None:
    parsed = parse_line(example(lang, verb))
    assert isinstance(parsed, ORDER_OF_VERB[verb])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_lists_every_order(lang: str) -> None:
    assert set(HELP_TOPICS) == set(Verb)
    text = help_text(lang)
    for verb in Verb:
        assert help_text(lang, verb).splitlines()[0] in text
    assert len(text.splitlines()) == len(Verb) + 2


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("verb", list(Verb))
def test_help_on_each_order_and_every_quoted_order_in_it_parses(lang: str, verb: Verb) -> None:
    """Each quoted snippet in the help is an order as written, or an order's bare name."""
    text = help_text(lang, verb)
    assert text.startswith(help_text(lang).splitlines()[HELP_TOPICS.index(verb) + 1])
    quoted = re.findall(r"[“«]([^”»]+)[”»]", text)
    assert quoted, "the help shows how to type it"
    wrong = []
    for snippet in [q for q in quoted if any(ch.isalnum() for ch in q)]:  # not "“>”"
        parsed = parse_line(snippet)
        if (
            isinstance(parsed, OrderSyntaxError)
            and snippet.casefold().replace("ё", "е") not in VERBS
        ):
            wrong.append((snippet, parsed.code))
    assert wrong == []
