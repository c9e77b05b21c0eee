"""A line the parser could not read as an order, answered as the game's phase needs it.

The parser reads a line without the game; a word alone (``clear``, ``tac1``, ``Z9``) reads
as a unit without an order, which in play asks "move it where, or attack whom?". In the
setup that question is beside the point, and a cell off the board is no unit at all
(issue 19): the runner, which has the state, asks here for the answer that fits.
"""

from __future__ import annotations

import difflib

from vahalite_bot.orders import lexicon
from vahalite_bot.orders.model import OrderSyntaxError, Suggestion, Verb
from vahalite_bot.orders.tokens import read_cell
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.state import GameState, Phase

# The rule a cell belongs to in each phase that names cells (B3-B5, then D1 for moves).
_OFF_BOARD_RULE = {Phase.TERRAIN: "B3", Phase.SP: "B4", Phase.DEPLOYMENT: "B5"}


def fit_to_phase(error: OrderSyntaxError, state: GameState) -> OrderSyntaxError | IllegalAction:
    """``error`` itself, or the refusal a word alone deserves in ``state``'s phase."""
    if error.code != "unit_without_order":
        return error
    word = str(error.params.get("unit", ""))
    cell = read_cell(word)
    if cell is not None and not state.scenario.on_board(cell):
        return IllegalAction(_OFF_BOARD_RULE.get(state.phase, "D1"), "off_board", cell=cell.name)
    if state.phase is Phase.PLAYING:
        return error
    match state.phase:
        case Phase.TERRAIN if cell is None:
            close = difflib.get_close_matches(word, list(lexicon.TERRAIN_WORDS), 3, 0.6)
            suggestions = tuple(Suggestion(w) for w in close)
            return OrderSyntaxError("unknown_terrain", suggestions, word=word, verb=Verb.TERRAIN)
        case Phase.TERRAIN:
            return OrderSyntaxError("missing_terrain_kind", verb=Verb.TERRAIN)
        case Phase.SP:
            return OrderSyntaxError("sp_without_verb", word=word if cell is None else cell.name)
        case Phase.DEPLOYMENT if cell is not None:
            return OrderSyntaxError("missing_unit", verb=Verb.DEPLOY)
        case Phase.DEPLOYMENT if word in state.units:
            return OrderSyntaxError("deploy_without_cell", unit=word)
    return OrderSyntaxError("unknown_verb", word=word)
