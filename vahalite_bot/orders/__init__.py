"""Text orders, Russian and English, the way players wrote forum posts (issue 6).

Two layers, as python-chess separates syntax from legality:

* ``parse_line(text) -> Order | OrderSyntaxError`` reads words only (``parser``: the
  grammar per verb; ``lexicon``: every synonym; ``tokens``: normalising the text);
* ``resolve(order, state, side) -> Action | Request`` names the units and finds paths in a
  game (``resolver``, ``refs``), raising ``OrderError``; what the rules forbid is left to
  the engine's ``IllegalAction``.

``run_orders`` applies a message of several lines through the caller's callback and
reports what applied and what did not (``runner``); ``text`` turns refusals, help and the
report into the player's language.
"""

from vahalite_bot.orders.examples import Examples, examples_for
from vahalite_bot.orders.model import (
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
    LogOrder,
    MoveOrder,
    OddsOrder,
    Order,
    OrderEntry,
    OrderError,
    OrderProblem,
    OrderSyntaxError,
    Ref,
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
)
from vahalite_bot.orders.parser import parse_line, parse_message, read_ref, split_lines
from vahalite_bot.orders.requests import (
    ArmyRequest,
    BoardRequest,
    HelpRequest,
    LogRequest,
    OddsRequest,
    Request,
    Resolved,
    RuleRequest,
    StatusRequest,
    UndoRequest,
    VerifyRequest,
)
from vahalite_bot.orders.resolver import resolve
from vahalite_bot.orders.runner import (
    Applied,
    Refused,
    Report,
    Step,
    declines_advance,
    engine_step,
    run_orders,
    run_orders_async,
)
from vahalite_bot.orders.text import (
    describe,
    describe_refusal,
    describe_report,
    help_text,
    report_line,
)

__all__ = [
    "AdvanceOrder",
    "Applied",
    "ArmyOrder",
    "ArmyRequest",
    "AttackOrder",
    "BoardOrder",
    "BoardRequest",
    "ChargeOrder",
    "DeployOrder",
    "DeployOrderChoice",
    "DisembarkOrder",
    "EmbarkOrder",
    "EndTurnOrder",
    "Examples",
    "FallBackOrder",
    "GiveOrdersOrder",
    "HelpOrder",
    "HelpRequest",
    "LogOrder",
    "LogRequest",
    "MoveOrder",
    "OddsOrder",
    "OddsRequest",
    "Order",
    "OrderEntry",
    "OrderError",
    "OrderProblem",
    "OrderSyntaxError",
    "Ref",
    "Refused",
    "Report",
    "Request",
    "ResignOrder",
    "Resolved",
    "RollOffOrder",
    "RuleOrder",
    "RuleRequest",
    "SPOrder",
    "StatusOrder",
    "StatusRequest",
    "Step",
    "Suggestion",
    "TerrainOrder",
    "UndoOrder",
    "UndoRequest",
    "Verb",
    "VerifyOrder",
    "VerifyRequest",
    "declines_advance",
    "describe",
    "describe_refusal",
    "describe_report",
    "engine_step",
    "examples_for",
    "help_text",
    "parse_line",
    "parse_message",
    "read_ref",
    "report_line",
    "resolve",
    "run_orders",
    "run_orders_async",
    "split_lines",
]
