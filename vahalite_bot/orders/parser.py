"""Text to ``Order`` values: the syntax layer, which knows words but not the game.

A line is a verb (``lexicon.VERBS``: one to three words) and its arguments. Per verb:

======================  =================================================================
``move``                ``move tac1 C4`` (destination), ``move tac1 C2-C3-C4`` (path, may
                        start on the unit's cell), ``move C2 C4`` / ``move C2-C4`` (the unit
                        on C2); link words are ignored (``иди tac1 на C4``)
``attack`` / shoot /    ``attack tac1 kab1``, ``attack tac1 > kab1``, ``стреляй tac1 по
fight                   kab1``, ``attack C2 D4``; numbers are weapons (``attack tac1 kab1 1
                        3``); ``melee`` / ``рукопашная`` or ``ranged`` / ``стрельба`` pick
                        the weapons' kind; ``shoot`` / ``стреляй`` mean ranged, ``fight`` /
                        ``руби`` melee
``embark``              ``embark tac1 rhi1``, ``embark tac1`` (the only transport in reach)
``disembark``           ``disembark tac1 C3``, ``disembark C2 C3`` (out of the transport on
                        C2), ``disembark tac1`` (the only free cell)
``end undo board``      no arguments, but ``end turn`` / ``конец хода``, ``undo 2``,
``status log army``     ``log 20``, ``army enemy`` / ``армия противника``
``odds``                as ``attack``
``help``                ``help``, ``help attack``
setup                   ``roll``; ``first`` / ``second`` (``deploy first``); ``terrain cover
                        C2`` or just ``cover C2``; ``sp C3``; ``deploy tac1 C2``, ``deploy
                        tac1 rhi1`` (start embarked)
decisions               ``advance`` [yes|no], ``stay``; a wrecked transport's passenger is
                        placed with ``deploy``/``place`` (``place tac1 C3``)
``orders`` (M3)         ``orders war1 assault, dev aimed`` / ``приказ war1 штурм, dev
                        прицельная``; ``orders`` alone: every unit Advance
``reserve`` (M5)        ``reserve bik1`` / ``резерв bik1``, ``reserve tac1 rhi1`` (inside a
                        transport held back); ``arrive bik1 B2`` / ``прибыть bik1 B2``;
                        ``done`` brings no more this turn
``resign``              no arguments
``rule``                ``rule E8`` / ``правило Е8`` (a rule of the rules reference), ``rule``
                        alone lists the rules' IDs
======================  =================================================================

Without a verb (as forum posts were written):

* ``tac1 C4``, ``tac1 C3-C4``, ``C2-C4``, ``C2-C3-C4``: a move (the first cell of a chain
  of cells is the unit's);
* ``tac1 > kab1``, ``C2>D4``, ``tac1 > Kabalite Warriors 1``: an attack;
* ``cover C2``: terrain; ``first`` / ``второй``: the deploy order;
* ``tac1 kab1`` is refused with both readings offered (attack it, or embark in it).

The unit before the cells or the ``>`` is one word then (a handle, a one-word name prefix
or a cell); a name of several words needs a verb (``move Tactical Squad C4``). Between two
units of several words, ``>``, ``-`` or a link word (``на``, ``по``, ``в``, ``at``, ``in``
...) marks where the first ends; two single words need nothing (``attack tac1 kab1``).

Any text at all gives an ``Order`` or an ``OrderSyntaxError``; nothing here raises.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence

from vahalite_bot.orders import lexicon
from vahalite_bot.orders.lexicon import VERBS
from vahalite_bot.orders.model import (
    AdvanceOrder,
    ArmyOrder,
    ArriveOrder,
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
    Order,
    OrderEntry,
    OrderSyntaxError,
    Ref,
    ReserveOrder,
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
from vahalite_bot.orders.tokens import Kind, Token, tokenize
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.order import Order as TurnOrder

Parsed = Order | OrderSyntaxError


class _Refused(Exception):
    """Internal: carries a syntax error out of nested helpers; never leaves this module."""

    def __init__(self, error: OrderSyntaxError) -> None:
        super().__init__(error.code)
        self.error = error


def _fail(code: str, suggestions: tuple[Suggestion, ...] = (), **params: object) -> _Refused:
    return _Refused(OrderSyntaxError(code, suggestions, **params))


# -- the entry points --------------------------------------------------------------------
def split_lines(text: str) -> list[str]:
    """The lines of a message that may carry an order: empty ones and separators (``---``,
    ``***``) go; any other line is answered, even one of signs alone (issue 19: every
    part of ``!@#;,./`` gets an answer). ``;`` separates orders as a new line does, and
    so does a comma between orders (``cover D3, height B2``)."""
    lines = text.replace(";", "\n").splitlines()
    kept = [line.strip() for line in lines if not set(line) <= _SEPARATOR]
    return [part for line in kept for part in _comma_orders(line)]


# What a line that only separates may be made of: spaces and rules (``---``, ``___``).
_SEPARATOR = frozenset(" \t-–—=_*~.·•")


def _comma_orders(line: str) -> list[str]:
    """``укрытие D3, высота B2``: a line that does not read as one order but whose parts
    between commas each do is several orders. (A comma inside one order, ``attack tac1 kab1
    1, 2``, leaves the line whole: it reads as it is.)"""
    if "," not in line or not isinstance(parse_line(line), OrderSyntaxError):
        return [line]
    parts = [part.strip() for part in line.split(",") if _carries_words(tokenize(part))]
    if len(parts) < 2 or any(isinstance(parse_line(p), OrderSyntaxError) for p in parts):
        return [line]
    return parts


def _carries_words(tokens: list[Token]) -> bool:
    return any(t.kind in (Kind.WORD, Kind.NUMBER, Kind.QUESTION) for t in tokens)


def parse_message(text: str) -> list[Parsed]:
    """One ``Order`` or ``OrderSyntaxError`` per line that carries anything."""
    return [parse_line(line) for line in split_lines(text)]


def parse_line(text: str) -> Parsed:
    tokens = tokenize(text)
    if not text.strip():
        return OrderSyntaxError("empty")
    if not _carries_words(tokens):  # signs alone: no order in them to read
        return OrderSyntaxError("no_order", line=" ".join(text.split()))
    try:
        verb, word, size = match_verb(tokens)
        if verb is None:
            return _verbless(tokens)
        return _ARGUMENTS[verb](tokens[size:], word)
    except _Refused as refused:
        return refused.error


def match_verb(tokens: Sequence[Token]) -> tuple[Verb | None, str, int]:
    """The verb the line starts with, the words that said it, and how many tokens they take."""
    for size in range(min(lexicon.LONGEST_VERB, len(tokens)), 0, -1):
        head = tokens[:size]
        if any(t.kind not in (Kind.WORD, Kind.QUESTION) for t in head):
            continue
        phrase = " ".join(t.text for t in head)
        if phrase in VERBS:
            return VERBS[phrase][0], phrase, size
    return None, "", 0


# -- without a verb ----------------------------------------------------------------------
def _verbless(tokens: list[Token]) -> Parsed:
    first = tokens[0]
    tokens = [first, *_without(tokens[1:], Kind.QUESTION)]
    if first.kind is Kind.WORD and first.text in lexicon.TERRAIN_WORDS:
        return _terrain(tokens, "")
    if any(t.kind is Kind.ARROW for t in tokens):
        arrow = next(i for i, t in enumerate(tokens) if t.kind is Kind.ARROW)
        if arrow != 1:
            raise _unknown_verb(first) if arrow > 1 else _fail("missing_unit", verb=Verb.ATTACK)
        return _attack(tokens, "")
    cells_after = all(t.kind is Kind.DASH or t.cell is not None for t in tokens[1:])
    if first.kind is Kind.WORD and cells_after:
        if len(tokens) == 1:
            raise _fail("unit_without_order", unit=first.text)
        return _move(tokens, "")
    error = _unknown_verb(first)
    handle_like = (
        first.kind is Kind.WORD
        and first.cell is None
        and any(ch.isdigit() for ch in first.text)
        and any(ch.isalpha() for ch in first.text)
    )
    if not error.error.suggestions and handle_like and len(tokens) == 2:
        raise _fail("missing_verb", unit=first.text, other=tokens[1].text)
    raise error


def _unknown_verb(token: Token) -> _Refused:
    words = [w for w in VERBS if " " not in w and len(w) > 1]
    close = difflib.get_close_matches(token.text, words, n=3, cutoff=0.75)
    return _fail("unknown_verb", tuple(Suggestion(w) for w in close), word=token.text)


# -- argument readers, one per verb ------------------------------------------------------
def _move(args: list[Token], word: str) -> Parsed:
    head, cells = _ref_then_cells(args, Verb.MOVE)
    if not head:
        if len(cells) >= 2:
            return MoveOrder(_cell_ref(cells[0]), tuple(cells[1:]))
        raise _fail("missing_unit", verb=Verb.MOVE)
    if not cells:
        raise _fail("missing_destination", unit=_ref(head).text, verb=Verb.MOVE)
    return MoveOrder(_ref(head), tuple(cells))


def _fall_back(args: list[Token], word: str) -> Parsed:
    """M6: as ``move`` (``fall back tac1 B2``, ``отступить tac1 C3-B3-B2``)."""
    head, cells = _ref_then_cells(args, Verb.FALL_BACK)
    if not head:
        if len(cells) >= 2:
            return FallBackOrder(_cell_ref(cells[0]), tuple(cells[1:]))
        raise _fail("missing_unit", verb=Verb.FALL_BACK)
    if not cells:
        raise _fail("missing_destination", unit=_ref(head).text, verb=Verb.FALL_BACK)
    return FallBackOrder(_ref(head), tuple(cells))


def _charge(args: list[Token], word: str) -> Parsed:
    """M8: ``charge asl1 kab1 C4``; a last cell after two units is where the charge ends."""
    kept = _without(args, Kind.QUESTION)
    named = [i for i, t in enumerate(kept) if not _is_link(t) and t.kind is Kind.WORD]
    cell = None
    if len(named) >= 3 and kept[named[-1]].cell is not None and named[-1] == len(kept) - 1:
        cell = kept[named[-1]].cell
        kept = kept[: named[-1]]
    unit, target = _two_refs(kept, Verb.CHARGE)
    if unit is None:
        raise _fail("missing_unit", verb=Verb.CHARGE)
    if target is None:
        raise _fail("missing_target", unit=unit.text, verb=Verb.CHARGE)
    return ChargeOrder(unit, target, cell)


def _orders(args: list[Token], word: str) -> Parsed:
    """M3: ``orders war1 assault, dev aimed``: each unit's words, then its order's words;
    ``orders`` alone gives every unit Advance (commas are not needed between entries)."""
    kept = [t for t in args if t.kind is not Kind.QUESTION and not _is_link(t)]
    entries: list[OrderEntry] = []
    unit: list[Token] = []
    index = 0
    while index < len(kept):
        found = _turn_order_at(kept, index)
        if found is None:
            unit.append(kept[index])
            index += 1
            continue
        order, size = found
        if not unit:
            raise _fail("order_without_unit", order=kept[index].text, verb=Verb.ORDERS)
        entries.append(OrderEntry(_ref(unit), order))
        unit = []
        index += size
    if unit:
        raise _fail("unit_without_turn_order", unit=_ref(unit).text, verb=Verb.ORDERS)
    return GiveOrdersOrder(tuple(entries))


def _turn_order_at(tokens: list[Token], index: int) -> tuple[TurnOrder, int] | None:
    """The order named at ``tokens[index]`` (one or two words) and its length."""
    for size in range(lexicon.LONGEST_TURN_ORDER, 0, -1):
        head = tokens[index : index + size]
        if len(head) < size or any(t.kind is not Kind.WORD for t in head):
            continue
        order = lexicon.TURN_ORDER_WORDS.get(" ".join(t.text for t in head))
        if order is not None:
            return order, size
    return None


def _reserve(args: list[Token], word: str) -> Parsed:
    """M5: ``reserve bik1``; ``reserve tac1 rhi1`` holds tac1 back inside rhi1."""
    unit, transport = _two_refs(_without(args, Kind.QUESTION), Verb.RESERVE)
    if unit is None:
        raise _fail("missing_unit", verb=Verb.RESERVE)
    return ReserveOrder(unit, transport)


def _arrive(args: list[Token], word: str) -> Parsed:
    """M5: ``arrive bik1 B2`` (without a cell: the only cell open to it)."""
    head, cells = _ref_then_cells(args, Verb.ARRIVE)
    if not head:
        raise _fail("missing_unit", verb=Verb.ARRIVE)
    if len(cells) > 1:
        raise _fail("arrive_one_cell", unit=_ref(head).text, verb=Verb.ARRIVE)
    return ArriveOrder(_ref(head), cells[0] if cells else None)


def _disembark(args: list[Token], word: str) -> Parsed:
    head, cells = _ref_then_cells(args, Verb.DISEMBARK)
    if not head:
        if not cells:
            raise _fail("missing_unit", verb=Verb.DISEMBARK)
        head_ref, cells = _cell_ref(cells[0]), cells[1:]
    else:
        head_ref = _ref(head)
    if len(cells) > 1:
        raise _fail("disembark_one_cell", unit=head_ref.text, verb=Verb.DISEMBARK)
    return DisembarkOrder(head_ref, cells[0] if cells else None)


def _attack(args: list[Token], word: str) -> Parsed:
    unit, target, weapons, melee = _attack_parts(args, word, Verb.ATTACK)
    return AttackOrder(unit, target, weapons, melee)


def _odds(args: list[Token], word: str) -> Parsed:
    unit, target, weapons, melee = _attack_parts(args, word, Verb.ODDS)
    return OddsOrder(unit, target, weapons, melee)


def _attack_parts(
    args: list[Token], word: str, verb: Verb
) -> tuple[Ref, Ref, tuple[int, ...] | None, bool | None]:
    melee = VERBS[word][1] if word else None
    weapons: list[int] = []
    kept: list[Token] = []
    for token in args:
        if token.kind is Kind.NUMBER:
            if token.number is None or token.number < 1:
                raise _fail("bad_weapon_number", number=token.text, verb=verb)
            weapons.append(token.number)
        elif token.kind is Kind.WORD and token.text in lexicon.MELEE_WORDS | lexicon.RANGED_WORDS:
            wanted = token.text in lexicon.MELEE_WORDS
            if melee is not None and melee is not wanted:
                raise _fail("mixed_attack_kinds", verb=verb)
            melee = wanted
        elif token.kind is not Kind.QUESTION:
            kept.append(token)
    unit, target = _two_refs(kept, verb)
    if unit is None:
        raise _fail("missing_unit", verb=verb)
    if target is None:
        raise _fail("missing_target", unit=unit.text, verb=verb)
    return unit, target, tuple(weapons) or None, melee


def _embark(args: list[Token], word: str) -> Parsed:
    unit, transport = _two_refs(_without(args, Kind.QUESTION), Verb.EMBARK)
    if unit is None:
        raise _fail("missing_unit", verb=Verb.EMBARK)
    return EmbarkOrder(unit, transport)


def _deploy(args: list[Token], word: str) -> Parsed:
    args = _without(args, Kind.QUESTION)
    if len(args) == 1 and args[0].text in lexicon.FIRST_WORDS | lexicon.SECOND_WORDS:
        return DeployOrderChoice(first=args[0].text in lexicon.FIRST_WORDS)
    words = [t for t in args if not _is_link(t) and t.kind is not Kind.DASH]
    if len(words) >= 2 and words[-1].cell is not None:
        unit: Ref | None = _ref(words[:-1])
        at: Ref | None = _cell_ref(words[-1].cell, words[-1].text)
    else:
        unit, at = _two_refs(args, Verb.DEPLOY)
    if unit is None:
        raise _fail("missing_unit", verb=Verb.DEPLOY)
    if at is None:
        raise _fail("missing_destination", unit=unit.text, verb=Verb.DEPLOY)
    return DeployOrder(unit, at)


def _deploy_order(args: list[Token], word: str) -> Parsed:
    _no_more(args, Verb.DEPLOY_ORDER, allowed=frozenset({"deploy", "расстановка"}))
    return DeployOrderChoice(first=word in lexicon.FIRST_WORDS)


def _terrain(args: list[Token], word: str) -> Parsed:
    cells = [t.cell for t in args if t.cell is not None]
    words = [t for t in args if t.kind is Kind.WORD and t.cell is None and not _is_link(t)]
    others = [t for t in args if t.kind in (Kind.NUMBER, Kind.ARROW)]
    if others or len(cells) > 1 or len(words) > 1:
        extra = [t.text for t in others] + [t.text for t in words[1:]]
        extra += [c.name for c in cells[1:]]
        raise _fail("unexpected", words=" ".join(extra), verb=Verb.TERRAIN)
    if not words:
        raise _fail("missing_terrain_kind", verb=Verb.TERRAIN)
    typed = words[0].text
    kind = lexicon.terrain_kind(typed)
    if kind is None:
        named = lexicon.terrain_words(typed)
        if named:
            raise _fail("ambiguous_terrain", tuple(Suggestion(w) for w in named), word=typed)
        close = difflib.get_close_matches(typed, list(lexicon.TERRAIN_WORDS), 3, 0.6)
        raise _fail(
            "unknown_terrain", tuple(Suggestion(w) for w in close), word=typed, verb=Verb.TERRAIN
        )
    if not cells:
        raise _fail("missing_cell", verb=Verb.TERRAIN)
    return TerrainOrder(kind, cells[0])


def _sp(args: list[Token], word: str) -> Parsed:
    cells = [t.cell for t in args if t.cell is not None]
    _no_more([t for t in args if t.cell is None], Verb.SP)
    if not cells:
        raise _fail("missing_cell", verb=Verb.SP)
    if len(cells) > 1:
        raise _fail("unexpected", words=" ".join(c.name for c in cells[1:]), verb=Verb.SP)
    return SPOrder(cells[0])


def _help(args: list[Token], word: str) -> Parsed:
    words = [t.text for t in args if t.kind is not Kind.QUESTION and not _is_link(t)]
    if not words:
        return HelpOrder()
    phrase = " ".join(words)
    if phrase in VERBS:
        return HelpOrder(VERBS[phrase][0])
    if phrase in lexicon.TERRAIN_WORDS:
        return HelpOrder(Verb.TERRAIN)
    close = difflib.get_close_matches(phrase, [w for w in VERBS if len(w) > 1], 3, 0.7)
    raise _fail("unknown_help_topic", tuple(Suggestion(w) for w in close), word=phrase)


def _counted(
    make: Callable[[int | None], Order], verb: Verb
) -> Callable[[list[Token], str], Parsed]:
    def read(args: list[Token], word: str) -> Parsed:
        numbers = [t for t in args if t.kind is Kind.NUMBER]
        _no_more([t for t in args if t.kind is not Kind.NUMBER], verb)
        if not numbers:
            return make(None)
        if len(numbers) > 1:
            raise _fail("unexpected", words=" ".join(t.text for t in numbers[1:]), verb=verb)
        number = numbers[0].number
        if number is None or number < 1:
            raise _fail("bad_count", number=numbers[0].text, verb=verb)
        return make(number)

    return read


def _bare(
    order: Order, verb: Verb, allowed: frozenset[str] = frozenset()
) -> Callable[[list[Token], str], Parsed]:
    def read(args: list[Token], word: str) -> Parsed:
        _no_more(args, verb, allowed)
        return order

    return read


def _army(args: list[Token], word: str) -> Parsed:
    words = {t.text for t in args if t.kind is Kind.WORD}
    _no_more(args, Verb.ARMY, allowed=lexicon.ENEMY_WORDS | lexicon.OWN_WORDS)
    return ArmyOrder(enemy=bool(words & lexicon.ENEMY_WORDS))


def _rule(args: list[Token], word: str) -> Parsed:
    """One rule ID, however typed: ``E8``, ``e8``, ``Е8`` (Cyrillic), ``E 8``."""
    words = [t for t in args if t.kind is not Kind.QUESTION and not _is_link(t)]
    if not words:
        return RuleOrder()
    typed = "".join(t.text for t in words)
    rule_id = lexicon.latin_letters(typed).upper()
    if not _RULE_ID.fullmatch(rule_id):
        raise _fail("bad_rule_id", word=" ".join(t.text for t in words), verb=Verb.RULE)
    return RuleOrder(rule_id)


_RULE_ID = re.compile(r"[A-Z][0-9]{1,2}")


def _advance(args: list[Token], word: str) -> Parsed:
    _no_more(args, Verb.ADVANCE, allowed=lexicon.YES_WORDS | lexicon.NO_WORDS)
    said = {t.text for t in args}
    accept = VERBS[word][1] is not False
    if said & lexicon.NO_WORDS:
        accept = not accept
    return AdvanceOrder(accept)


_ARGUMENTS: dict[Verb, Callable[[list[Token], str], Parsed]] = {
    Verb.MOVE: _move,
    Verb.ATTACK: _attack,
    Verb.EMBARK: _embark,
    Verb.DISEMBARK: _disembark,
    Verb.END: _bare(EndTurnOrder(), Verb.END, lexicon.TURN_WORDS),
    Verb.UNDO: _counted(lambda n: UndoOrder(n or 1), Verb.UNDO),
    Verb.BOARD: _bare(BoardOrder(), Verb.BOARD),
    Verb.STATUS: _bare(StatusOrder(), Verb.STATUS),
    Verb.ODDS: _odds,
    Verb.ARMY: _army,
    Verb.LOG: _counted(LogOrder, Verb.LOG),
    Verb.HELP: _help,
    Verb.ROLL: _bare(RollOffOrder(), Verb.ROLL),
    Verb.DEPLOY_ORDER: _deploy_order,
    Verb.TERRAIN: _terrain,
    Verb.SP: _sp,
    Verb.DEPLOY: _deploy,
    Verb.ADVANCE: _advance,
    Verb.RESIGN: _bare(ResignOrder(), Verb.RESIGN),
    Verb.RULE: _rule,
    Verb.VERIFY: _bare(VerifyOrder(), Verb.VERIFY),
    Verb.HINT: _bare(HintOrder(), Verb.HINT),
    Verb.FALL_BACK: _fall_back,
    Verb.CHARGE: _charge,
    Verb.ORDERS: _orders,
    Verb.RESERVE: _reserve,
    Verb.ARRIVE: _arrive,
}


# -- helpers -----------------------------------------------------------------------------
def _is_link(token: Token) -> bool:
    return token.kind is Kind.WORD and token.text in lexicon.LINK_WORDS


def _without(tokens: list[Token], kind: Kind) -> list[Token]:
    return [t for t in tokens if t.kind is not kind]


def _no_more(args: Sequence[Token], verb: Verb, allowed: frozenset[str] = frozenset()) -> None:
    extra = [t.text for t in args if t.kind is not Kind.QUESTION and t.text not in allowed]
    if extra:
        raise _fail("unexpected", words=" ".join(extra), verb=verb)


def read_ref(text: str) -> Ref:
    """A unit named in a slash command's option, read as a line of orders reads it."""
    return _ref(tokenize(text))


def _ref(tokens: Sequence[Token]) -> Ref:
    if len(tokens) == 1 and tokens[0].cell is not None:
        return _cell_ref(tokens[0].cell, tokens[0].text)
    return Ref(" ".join(t.text for t in tokens))


def _cell_ref(cell: Cell, text: str | None = None) -> Ref:
    """A reference typed as a cell; its text in Latin letters (``с2`` is ``c2``)."""
    return Ref(lexicon.latin_letters(text) if text else cell.name.lower(), cell)


def _ref_then_cells(args: list[Token], verb: Verb) -> tuple[list[Token], list[Cell]]:
    """Split ``<unit words> <cell>[-<cell>...]``; a chain of cells only gives no words.

    Link words and the ``>`` sign are ignored here; anything after the last cell is refused.
    """
    kept = [t for t in args if not _is_link(t) and t.kind not in (Kind.QUESTION, Kind.ARROW)]
    last = max((i for i, t in enumerate(kept) if t.cell is not None), default=-1)
    if last < 0:
        return [t for t in kept if t.kind is not Kind.DASH], []
    if last + 1 < len(kept):
        raise _fail("unexpected", words=" ".join(t.text for t in kept[last + 1 :]), verb=verb)
    start = last + 1
    while start > 0 and (kept[start - 1].kind is Kind.DASH or kept[start - 1].cell is not None):
        start -= 1
    head = [t for t in kept[:start] if t.kind is not Kind.DASH]
    cells = [t.cell for t in kept[start:] if t.cell is not None]
    return head, cells


def _two_refs(tokens: list[Token], verb: Verb) -> tuple[Ref | None, Ref | None]:
    """Two unit references: split at ``>`` if there is one, else at ``-`` or a link word,
    else two single words. (A link word can be part of a name: Heavy Weapons Squad.)"""
    arrow = any(t.kind is Kind.ARROW for t in tokens)
    groups: list[list[Token]] = [[]]
    for token in tokens:
        if token.kind is Kind.ARROW or (not arrow and (token.kind is Kind.DASH or _is_link(token))):
            groups.append([])
        elif token.kind is not Kind.DASH and not _is_link(token):
            groups[-1].append(token)
    parts = [g for g in groups if g]
    if not parts:
        return None, None
    if len(parts) == 1:
        (only,) = parts
        if len(only) == 1:
            return _ref(only), None
        if len(only) == 2:
            return _ref(only[:1]), _ref(only[1:])
        raise _fail("where_target_starts", words=" ".join(t.text for t in only), verb=verb)
    if len(parts) > 2:
        raise _fail("unexpected", words=" ".join(t.text for t in parts[2][:3]), verb=verb)
    return _ref(parts[0]), _ref(parts[1])
