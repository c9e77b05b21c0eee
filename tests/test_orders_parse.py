"""The order language, syntax layer: every verb and form in Russian and English."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    Order,
    OrderEntry,
    OrderSyntaxError,
    Ref,
    ResignOrder,
    RollOffOrder,
    RuleOrder,
    SPOrder,
    StatusOrder,
    TerrainOrder,
    UndoOrder,
    Verb,
    VerifyOrder,
    lexicon,
    parse_line,
    parse_message,
)
from vahalite_bot.orders.model import ArriveOrder, ReserveOrder
from vahalite_bot.orders.tokens import read_cell
from vahalite_bot.rules.geometry import Cell
from vahalite_bot.rules.order import Order as TurnOrder
from vahalite_bot.rules.scenario import TerrainKind

T = TerrainKind
AIMED = TurnOrder.AIMED_FIRE


def c(name: str) -> Cell:
    return Cell.parse(name)


def cells(*names: str) -> tuple[Cell, ...]:
    return tuple(c(n) for n in names)


def unit(text: str) -> Ref:
    return Ref(text)


def at(name: str) -> Ref:
    """A reference typed as a cell."""
    return Ref(name.lower(), c(name))


TAC, KAB = unit("tac1"), unit("kab1")

# (text, the order it means): every verb, its synonyms and forms, in both languages.
TABLE: list[tuple[str, Order]] = [
    # move
    ("move tac1 C4", MoveOrder(TAC, cells("C4"))),
    ("mv tac1 C4", MoveOrder(TAC, cells("C4"))),
    ("go tac1 to C4", MoveOrder(TAC, cells("C4"))),
    ("ход tac1 C4", MoveOrder(TAC, cells("C4"))),
    ("иди tac1 на C4", MoveOrder(TAC, cells("C4"))),
    ("двигай tac1 C4", MoveOrder(TAC, cells("C4"))),
    ("Ход TAC1 c4", MoveOrder(TAC, cells("C4"))),
    ("move tac1 C2-C3-C4", MoveOrder(TAC, cells("C2", "C3", "C4"))),
    ("move tac1 C2 C3 C4", MoveOrder(TAC, cells("C2", "C3", "C4"))),
    ("move tac1 C2 → C3 -> C4", MoveOrder(TAC, cells("C2", "C3", "C4"))),
    ("move tac1 C2–C3—C4", MoveOrder(TAC, cells("C2", "C3", "C4"))),
    ("move C2 C4", MoveOrder(at("C2"), cells("C4"))),
    ("move C2-C4", MoveOrder(at("C2"), cells("C4"))),
    ("move Tactical Squad C4", MoveOrder(unit("tactical squad"), cells("C4"))),
    ("ход тактическое отделение на C4", MoveOrder(unit("тактическое отделение"), cells("C4"))),
    ("move tac 1 C4", MoveOrder(unit("tac 1"), cells("C4"))),
    # move without a verb
    ("tac1 C4", MoveOrder(TAC, cells("C4"))),
    ("tac1 C3-C4", MoveOrder(TAC, cells("C3", "C4"))),
    ("tac1 → C4", MoveOrder(TAC, cells("C4"))),
    ("tac1 C4?", MoveOrder(TAC, cells("C4"))),
    ("такт C4", MoveOrder(unit("такт"), cells("C4"))),
    ("C2-C4", MoveOrder(at("C2"), cells("C4"))),
    ("c2-c4", MoveOrder(at("C2"), cells("C4"))),
    ("C2 - C4", MoveOrder(at("C2"), cells("C4"))),
    ("C2-C3-C4", MoveOrder(at("C2"), cells("C3", "C4"))),
    ("C2→C4", MoveOrder(at("C2"), cells("C4"))),
    ("С2-С4", MoveOrder(at("C2"), cells("C4"))),  # Cyrillic С
    ("а1-в1", MoveOrder(at("A1"), cells("B1"))),  # Cyrillic а, в
    ("Д2-Е2", MoveOrder(at("D2"), cells("E2"))),  # Cyrillic Д, Е
    ("ф6-Ф5", MoveOrder(at("F6"), cells("F5"))),  # Cyrillic ф, Ф
    # attack
    ("attack tac1 kab1", AttackOrder(TAC, KAB)),
    ("att tac1 kab1", AttackOrder(TAC, KAB)),
    ("hit tac1 kab1", AttackOrder(TAC, KAB)),
    ("attack tac1 > kab1", AttackOrder(TAC, KAB)),
    ("attack tac1 at kab1", AttackOrder(TAC, KAB)),
    ("attack C2 D4", AttackOrder(at("C2"), at("D4"))),
    ("attack C2-D4", AttackOrder(at("C2"), at("D4"))),
    ("attack tac1 kab1 1 3", AttackOrder(TAC, KAB, (1, 3))),
    ("attack tac1 kab1 1,3", AttackOrder(TAC, KAB, (1, 3))),
    ("attack tac1 kab1 with #2", AttackOrder(TAC, KAB, (2,))),
    ("attack tac1 kab1 melee", AttackOrder(TAC, KAB, melee=True)),
    ("attack tac1 kab1 ranged", AttackOrder(TAC, KAB, melee=False)),
    ("shoot tac1 kab1", AttackOrder(TAC, KAB, melee=False)),
    ("fire tac1 kab1 2", AttackOrder(TAC, KAB, (2,), melee=False)),
    ("fight tac1 kab1", AttackOrder(TAC, KAB, melee=True)),
    ("melee tac1 kab1", AttackOrder(TAC, KAB, melee=True)),
    ("атака tac1 kab1", AttackOrder(TAC, KAB)),
    ("атакуй tac1 kab1", AttackOrder(TAC, KAB)),
    ("бей tac1 kab1", AttackOrder(TAC, KAB)),
    ("в атаку tac1 kab1", AttackOrder(TAC, KAB)),
    ("В атаку: tac1 > kab1!", AttackOrder(TAC, KAB)),
    ("стреляй tac1 по kab1", AttackOrder(TAC, KAB, melee=False)),
    ("огонь tac1 kab1 оружием 2", AttackOrder(TAC, KAB, (2,), melee=False)),
    ("руби tac1 kab1", AttackOrder(TAC, KAB, melee=True)),
    ("атака tac1 kab1 рукопашная", AttackOrder(TAC, KAB, melee=True)),
    ("атака tac1 kab1 стрельбой", AttackOrder(TAC, KAB, melee=False)),
    (
        "attack Tactical Squad > Kabalite Warriors 2",
        AttackOrder(unit("tactical squad"), unit("kabalite warriors"), (2,)),
    ),
    ("атака тактическое на рабов", AttackOrder(unit("тактическое"), unit("рабов"))),
    # attack without a verb
    ("tac1 > kab1", AttackOrder(TAC, KAB)),
    ("tac1>kab1", AttackOrder(TAC, KAB)),
    ("C2>D4", AttackOrder(at("C2"), at("D4"))),
    ("C2 > D4", AttackOrder(at("C2"), at("D4"))),
    ("С2>Д4", AttackOrder(at("C2"), at("D4"))),
    ("tac1 > kab1 2", AttackOrder(TAC, KAB, (2,))),
    ("tac1 > Kabalite Warriors", AttackOrder(TAC, unit("kabalite warriors"))),
    # embark
    ("embark tac1 rhi1", EmbarkOrder(TAC, unit("rhi1"))),
    ("embark tac1 into rhi1", EmbarkOrder(TAC, unit("rhi1"))),
    ("get in tac1 rhi1", EmbarkOrder(TAC, unit("rhi1"))),
    ("mount tac1", EmbarkOrder(TAC)),
    ("посадка tac1 в rhi1", EmbarkOrder(TAC, unit("rhi1"))),
    ("садись tac1 носорог", EmbarkOrder(TAC, unit("носорог"))),
    ("посадка tac1", EmbarkOrder(TAC)),
    ("embark Tactical Squad in Rhino", EmbarkOrder(unit("tactical squad"), unit("rhino"))),
    # disembark
    ("disembark tac1 C3", DisembarkOrder(TAC, c("C3"))),
    ("dismount tac1 to C3", DisembarkOrder(TAC, c("C3"))),
    ("get out tac1 C3", DisembarkOrder(TAC, c("C3"))),
    ("disembark tac1", DisembarkOrder(TAC)),
    ("disembark C2 C3", DisembarkOrder(at("C2"), c("C3"))),
    ("disembark C2-C3", DisembarkOrder(at("C2"), c("C3"))),
    ("высадка tac1 C3", DisembarkOrder(TAC, c("C3"))),
    ("высадись tac1 на С3", DisembarkOrder(TAC, c("C3"))),
    ("выйти C2", DisembarkOrder(at("C2"))),
    # end of turn
    ("end", EndTurnOrder()),
    ("end turn", EndTurnOrder()),
    ("end-turn", EndTurnOrder()),
    ("done", EndTurnOrder()),
    ("pass", EndTurnOrder()),
    ("конец", EndTurnOrder()),
    ("конец хода", EndTurnOrder()),
    ("Конец хода.", EndTurnOrder()),
    ("ход окончен", EndTurnOrder()),
    ("готово", EndTurnOrder()),
    ("всё", EndTurnOrder()),
    # undo
    ("undo", UndoOrder()),
    ("undo 2", UndoOrder(2)),
    ("отмена", UndoOrder()),
    ("отменить 3", UndoOrder(3)),
    # board, status
    ("board", BoardOrder()),
    ("map", BoardOrder()),
    ("карта", BoardOrder()),
    ("поле", BoardOrder()),
    ("status", StatusOrder()),
    ("статус", StatusOrder()),
    ("состояние", StatusOrder()),
    # odds
    ("odds tac1 kab1", OddsOrder(TAC, KAB)),
    ("odds tac1 > kab1 2", OddsOrder(TAC, KAB, (2,))),
    ("odds C2>D4 melee", OddsOrder(at("C2"), at("D4"), melee=True)),
    ("шансы tac1 kab1", OddsOrder(TAC, KAB)),
    ("шансы tac1 по kab1 рукопашная", OddsOrder(TAC, KAB, melee=True)),
    # army, log, help
    ("army", ArmyOrder()),
    ("army enemy", ArmyOrder(enemy=True)),
    ("армия", ArmyOrder()),
    ("армия противника", ArmyOrder(enemy=True)),
    ("log", LogOrder()),
    ("log 20", LogOrder(20)),
    ("лог", LogOrder()),
    ("журнал 5", LogOrder(5)),
    ("help", HelpOrder()),
    ("?", HelpOrder()),
    ("help attack", HelpOrder(Verb.ATTACK)),
    ("help shoot", HelpOrder(Verb.ATTACK)),
    ("? move", HelpOrder(Verb.MOVE)),
    ("help first", HelpOrder(Verb.DEPLOY_ORDER)),
    ("помощь", HelpOrder()),
    ("справка", HelpOrder()),
    ("помощь атака", HelpOrder(Verb.ATTACK)),
    ("помощь укрытие", HelpOrder(Verb.TERRAIN)),
    # setup
    ("roll", RollOffOrder()),
    ("roll-off", RollOffOrder()),
    ("roll off", RollOffOrder()),
    ("бросок", RollOffOrder()),
    ("жребий", RollOffOrder()),
    ("first", DeployOrderChoice(first=True)),
    ("second", DeployOrderChoice(first=False)),
    ("deploy first", DeployOrderChoice(first=True)),
    ("deploy second", DeployOrderChoice(first=False)),
    ("первым", DeployOrderChoice(first=True)),
    ("вторым", DeployOrderChoice(first=False)),
    ("расстановка первым", DeployOrderChoice(first=True)),
    ("terrain cover C2", TerrainOrder(T.COVER, c("C2"))),
    ("terrain C2 cover", TerrainOrder(T.COVER, c("C2"))),
    ("terrain hei B3", TerrainOrder(T.HEIGHT, c("B3"))),
    ("cover C2", TerrainOrder(T.COVER, c("C2"))),
    ("obstacle A3", TerrainOrder(T.OBSTACLE, c("A3"))),
    ("water D2", TerrainOrder(T.WATER, c("D2"))),
    ("hill E1", TerrainOrder(T.HEIGHT, c("E1"))),
    ("местность укрытие C2", TerrainOrder(T.COVER, c("C2"))),
    ("местность выс B3", TerrainOrder(T.HEIGHT, c("B3"))),
    ("укрытие С2", TerrainOrder(T.COVER, c("C2"))),
    ("препятствие A3", TerrainOrder(T.OBSTACLE, c("A3"))),
    ("водоём D2", TerrainOrder(T.WATER, c("D2"))),
    ("высота Е1", TerrainOrder(T.HEIGHT, c("E1"))),
    ("sp C3", SPOrder(c("C3"))),
    ("SP c3", SPOrder(c("C3"))),
    ("objective C3", SPOrder(c("C3"))),
    ("сп С3", SPOrder(c("C3"))),
    ("СП B2", SPOrder(c("B2"))),
    ("точка B2", SPOrder(c("B2"))),
    ("deploy tac1 B2", DeployOrder(TAC, at("B2"))),
    ("place tac1 on B2", DeployOrder(TAC, at("B2"))),
    ("deploy tac1 rhi1", DeployOrder(TAC, unit("rhi1"))),
    ("deploy tac1 in rhi1", DeployOrder(TAC, unit("rhi1"))),
    ("deploy Tactical Squad B2", DeployOrder(unit("tactical squad"), at("B2"))),
    ("расстановка tac1 B2", DeployOrder(TAC, at("B2"))),
    ("поставь tac1 на В2", DeployOrder(TAC, at("B2"))),
    (
        "расставить тактическое отделение в носорог",
        DeployOrder(unit("тактическое отделение"), unit("носорог")),
    ),
    # decisions
    # M6 fall back and M8 charge
    ("fall back tac1 B2", FallBackOrder(TAC, cells("B2"))),
    ("retreat tac1 C3-B3-B2", FallBackOrder(TAC, cells("C3", "B3", "B2"))),
    ("отступить tac1 на B2", FallBackOrder(TAC, cells("B2"))),
    ("отход C3 B2", FallBackOrder(at("C3"), cells("B2"))),
    ("charge tac1 kab1 C4", ChargeOrder(TAC, KAB, c("C4"))),
    ("charge tac1 > kab1", ChargeOrder(TAC, KAB)),
    ("натиск tac1 на kab1 C4", ChargeOrder(TAC, KAB, c("C4"))),
    ("рывок C2 C5 C4", ChargeOrder(at("C2"), at("C5"), c("C4"))),
    # M5 reserves
    ("reserve tac1", ReserveOrder(TAC)),
    ("резерв tac1 в kab1", ReserveOrder(TAC, KAB)),
    ("arrive tac1 B2", ArriveOrder(TAC, c("B2"))),
    ("прибыть tac1", ArriveOrder(TAC)),
    # M3 orders
    ("orders", GiveOrdersOrder()),
    (
        "orders tac1 assault, kab1 aimed fire",
        GiveOrdersOrder((OrderEntry(TAC, TurnOrder.ASSAULT), OrderEntry(KAB, AIMED))),
    ),
    (
        "приказ tac1 штурм, kab1 прицельная",
        GiveOrdersOrder((OrderEntry(TAC, TurnOrder.ASSAULT), OrderEntry(KAB, AIMED))),
    ),
    (
        "приказы тактическое отделение прицельный огонь",
        GiveOrdersOrder((OrderEntry(unit("тактическое отделение"), TurnOrder.AIMED_FIRE),)),
    ),
    ("advance", AdvanceOrder(True)),
    ("advance yes", AdvanceOrder(True)),
    ("advance no", AdvanceOrder(False)),
    ("stay", AdvanceOrder(False)),
    ("вперёд", AdvanceOrder(True)),
    ("вперед да", AdvanceOrder(True)),
    ("вперёд нет", AdvanceOrder(False)),
    ("занять", AdvanceOrder(True)),
    ("стой", AdvanceOrder(False)),
    # resign
    ("resign", ResignOrder()),
    ("surrender", ResignOrder()),
    ("сдаюсь", ResignOrder()),
    # a rule of the rules reference (issue 12)
    ("rule E8", RuleOrder("E8")),
    ("rule e 8", RuleOrder("E8")),
    ("rules", RuleOrder()),
    ("правило Е8", RuleOrder("E8")),  # Cyrillic Е
    ("правило е10", RuleOrder("E10")),
    # K2: check the game's dice (issue 10)
    ("verify", VerifyOrder()),
    ("проверка", VerifyOrder()),
    ("проверить", VerifyOrder()),
    # issue 22: the search player's best actions (games against the bot)
    ("hint", HintOrder()),
    ("подсказка", HintOrder()),
    # slash-command habits
    ("/move tac1 C4", MoveOrder(TAC, cells("C4"))),
    ("!конец", EndTurnOrder()),
    ("  ＭＯＶＥ tac1 C4  ", MoveOrder(TAC, cells("C4"))),  # full-width letters
]


@pytest.mark.parametrize(("text", "order"), TABLE, ids=[t for t, _ in TABLE])
def test_parse_every_verb_and_form(text: str, order: Order) -> None:
    assert parse_line(text) == order


def test_table_covers_every_verb_in_both_languages() -> None:
    """Each verb appears in the table under an English and a Russian word."""
    seen: dict[Verb, set[str]] = {}
    for text, _ in TABLE:
        words = text.strip("/! ").split()
        for size in (3, 2, 1):
            phrase = lexicon.fold(" ".join(words[:size]))
            if phrase in lexicon.VERBS:
                script = "ru" if any("а" <= ch <= "я" for ch in phrase) else "en"
                seen.setdefault(lexicon.VERBS[phrase][0], set()).add(script)
                break
    missing = [v for v in Verb if seen.get(v) != {"ru", "en"}]
    assert missing == []


# -- syntax errors -----------------------------------------------------------------------
ERRORS: list[tuple[str, str]] = [
    ("   ", "empty"),
    ("fly tac1 C4", "unknown_verb"),
    ("atack tac1 kab1", "unknown_verb"),
    ("tac1", "unit_without_order"),
    ("tac1 kab1", "missing_verb"),
    ("atack tac1", "unknown_verb"),
    ("move C4", "missing_unit"),
    ("move tac1", "missing_destination"),
    ("move tac1 C4 now", "unexpected"),
    ("attack tac1", "missing_target"),
    ("attack", "missing_unit"),
    ("attack tactical squad kabalite", "where_target_starts"),
    ("attack tac1 kab1 0", "bad_weapon_number"),
    ("attack tac1 kab1 9999999", "bad_weapon_number"),
    ("shoot tac1 kab1 melee", "mixed_attack_kinds"),
    ("attack a > b > c", "unexpected"),
    ("disembark tac1 C3 C4", "disembark_one_cell"),
    ("disembark", "missing_unit"),
    ("end tac1", "unexpected"),
    ("undo 0", "bad_count"),
    ("undo 1 2", "unexpected"),
    ("board now", "unexpected"),
    ("terrain C2", "missing_terrain_kind"),
    ("terrain lava C2", "unknown_terrain"),
    ("terrain укр C2", "ambiguous_terrain"),
    ("terrain cover", "missing_cell"),
    ("terrain cover C2 C3", "unexpected"),
    ("sp", "missing_cell"),
    ("sp C3 C4", "unexpected"),
    ("help fly", "unknown_help_topic"),
    ("deploy tac1", "missing_destination"),
    ("> kab1", "missing_unit"),
    ("Tactical Squad > kab1", "unknown_verb"),
    ("12 C4", "unknown_verb"),
    ("advance maybe", "unexpected"),
    ("army blue", "unexpected"),
]


@pytest.mark.parametrize(("text", "code"), ERRORS, ids=[t for t, _ in ERRORS])
def test_syntax_errors_are_values_with_a_reason(text: str, code: str) -> None:
    result = parse_line(text)
    assert isinstance(result, OrderSyntaxError)
    assert result.code == code


def test_near_miss_verb_is_suggested() -> None:
    result = parse_line("atack tac1 kab1")
    assert isinstance(result, OrderSyntaxError)
    assert "attack" in [s.text for s in result.suggestions]
    result = parse_line("атакa tac1 kab1")  # a Latin "a" at the end
    assert isinstance(result, OrderSyntaxError)
    assert "атака" in [s.text for s in result.suggestions]


def test_handle_that_reads_as_a_cell_stays_a_unit_reference() -> None:
    assert parse_line("move u1 C4") == MoveOrder(Ref("u1", c("U1")), cells("C4"))


# -- cells, tokens, lexicon --------------------------------------------------------------
@pytest.mark.parametrize(
    ("word", "cell"),
    [
        ("c2", "C2"),
        ("C2", "C2"),
        ("с2", "C2"),  # Cyrillic look-alike
        ("С2", "C2"),
        ("а1", "A1"),
        ("в3", "B3"),
        ("е6", "E6"),
        ("б4", "B4"),  # Б sounds as B
        ("д4", "D4"),  # Д sounds as D
        ("ф5", "F5"),  # Ф sounds as F
        ("z26", "Z26"),
    ],
)
def test_cells_accept_cyrillic_letters(word: str, cell: str) -> None:
    assert read_cell(lexicon.fold(word)) == c(cell)


@pytest.mark.parametrize("word", ["c0", "c", "2c", "tac1", "ж2", "c123", "c²"])
def test_not_cells(word: str) -> None:
    assert read_cell(word) is None


def test_no_word_means_two_things() -> None:
    """A verb word is neither a link word nor a terrain word; none names two verbs."""
    listed = [word for word, _ in lexicon.VERB_ENTRIES]
    assert sorted(w for w in set(listed) if listed.count(w) > 1) == []
    verbs = set(lexicon.VERBS)
    assert verbs & lexicon.LINK_WORDS == set()
    assert verbs & set(lexicon.TERRAIN_WORDS) == set()
    assert set(lexicon.TERRAIN_WORDS) & lexicon.LINK_WORDS == set()
    assert [word for word in verbs if read_cell(word) is not None] == []


def test_verb_words_are_folded() -> None:
    assert all(word == lexicon.fold(word) for word in lexicon.VERBS)
    assert all(word == lexicon.fold(word) for word in lexicon.TERRAIN_WORDS)


def test_message_is_one_order_per_line_blank_lines_ignored() -> None:
    parsed = parse_message("move tac1 C4\n\n   \n/attack tac1 kab1\nnonsense here\n---\n")
    assert parsed[:2] == [MoveOrder(TAC, cells("C4")), AttackOrder(TAC, KAB)]
    assert isinstance(parsed[2], OrderSyntaxError)
    assert len(parsed) == 3


# -- never an exception ------------------------------------------------------------------
ORDER_WORDS = [
    *lexicon.VERBS,
    *lexicon.TERRAIN_WORDS,
    *lexicon.LINK_WORDS,
    *lexicon.MELEE_WORDS,
    *lexicon.YES_WORDS,
    "tac1",
    "kab1",
    "такт",
    "Tactical Squad",
    "C2",
    "С2",
    "Д4",
    "Z99",
    "A0",
    "0",
    "1",
    "99999999999",
    "-",
    "—",
    "→",
    ">",
    "->",
    "?",
    "/",
    "!",
    ",",
    "\n",
]


@st.composite
def order_like(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(ORDER_WORDS) | st.text(max_size=4), max_size=8))
    seps = draw(st.lists(st.sampled_from(["", " ", "  ", "\t"]), min_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps, strict=False))


@settings(max_examples=400, deadline=None)
@given(st.text() | order_like())
def test_any_text_parses_to_orders_or_syntax_errors(text: str) -> None:
    for result in parse_message(text):
        assert isinstance(result, (OrderSyntaxError, *get_args(Order)))
