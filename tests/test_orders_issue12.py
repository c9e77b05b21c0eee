"""Messages a player can act on (issue 12): typos in setup, commas, signs alone, nicknames,
examples naming the player's own units, grammar, and the ``rule E8`` order."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.builders import SHEETS, Place, playing
from tests.test_codex_loader import base, refused, write
from vahalite_bot.app.errors import NotAllowed
from vahalite_bot.codex.loader import all_sheets, codex_factions, load_faction
from vahalite_bot.i18n import LANGUAGES, translate
from vahalite_bot.orders import (
    Examples,
    OrderError,
    OrderSyntaxError,
    RuleOrder,
    RuleRequest,
    Verb,
    describe,
    engine_step,
    examples_for,
    help_text,
    parse_line,
    resolve,
    run_orders,
    split_lines,
)
from vahalite_bot.orders.model import Ref
from vahalite_bot.orders.refs import find_unit
from vahalite_bot.rules.actions import ChooseDeployOrder, RollOff
from vahalite_bot.rules.dice import FairDice, FixedDice
from vahalite_bot.rules.engine import acting_side, apply
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.scenario import STANDARD, Side
from vahalite_bot.rules.state import GameState, Phase, new_game
from vahalite_bot.selfplay.greedy import GreedyPlayer

S, N = Side.SOUTH, Side.NORTH


def setup_at(phase: Phase) -> GameState:
    state = new_game(
        STANDARD,
        {
            S: [("tac1", SHEETS["tactical"]), ("cap1", SHEETS["captain"])],
            N: [("kab1", SHEETS["warriors"]), ("sla1", SHEETS["slaves"])],
        },
    )
    state, _ = apply(state, RollOff(), FixedDice([1]))
    state, _ = apply(state, ChooseDeployOrder(N, False), FixedDice([]))
    player = GreedyPlayer()
    while state.phase is not phase:
        state, _ = apply(state, player.choose(state, random.Random(0)), FixedDice([]))
    return state


def refusal_of(text: str, state: GameState) -> Exception:
    side = acting_side(state) or S
    report = run_orders(state, side, text, engine_step(FairDice(b"issue12")))
    assert report.refused, text
    return report.refused[0].error


# -- setup typos: the right word is offered, not only units ---------------------------------
@pytest.mark.parametrize(("typed", "meant"), [("укрыте C3", "укрытие"), ("covr B2", "cover")])
def test_B3_terrain_typo_offers_the_terrain_word(typed: str, meant: str) -> None:
    error = refusal_of(typed, setup_at(Phase.TERRAIN))
    assert isinstance(error, OrderError) and error.code == "unknown_word"
    assert error.suggestions[0].text == meant
    for lang in LANGUAGES:
        assert meant in describe(error, lang)


def test_verb_typo_in_play_offers_the_verb() -> None:
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")])
    error = refusal_of("atack C3", state)
    assert isinstance(error, OrderError) and "attack" in [s.text for s in error.suggestions]


def test_a_unit_name_is_still_a_unit_not_a_typo() -> None:
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")])
    assert resolve(parse_line("tact C3"), state, S).unit == "tac1"  # type: ignore[arg-type, union-attr]


@pytest.mark.parametrize(("text", "rule"), [("cover Z9", "B3"), ("укрытие Z9", "B3")])
def test_B3_cell_off_the_board_is_called_so(text: str, rule: str) -> None:
    error = refusal_of(text, setup_at(Phase.TERRAIN))
    assert isinstance(error, IllegalAction)
    assert (error.rule, error.code, error.params["cell"]) == (rule, "off_board", "Z9")


def test_B4_and_B5_cells_off_the_board_are_called_so() -> None:
    error = refusal_of("sp Z9", setup_at(Phase.SP))
    assert isinstance(error, IllegalAction) and (error.rule, error.code) == ("B4", "off_board")
    error = refusal_of("deploy tac1 Z9", setup_at(Phase.DEPLOYMENT))
    assert isinstance(error, IllegalAction) and (error.rule, error.code) == ("B5", "off_board")


def test_commas_separate_orders_that_each_read_alone() -> None:
    assert split_lines("укрытие D3, высота B2") == ["укрытие D3", "высота B2"]
    assert split_lines("cover D3; height B2") == ["cover D3", "height B2"]
    # A comma inside one order keeps it whole.
    assert split_lines("attack tac1 kab1 1, 2") == ["attack tac1 kab1 1, 2"]
    assert split_lines("move tac1 C4, please") == ["move tac1 C4, please"]


# -- input that used to get no answer at all -------------------------------------------------
@pytest.mark.parametrize("text", [">", "-", "→", "🙂", "-> >"])
def test_signs_alone_are_answered(text: str) -> None:
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")])
    error = refusal_of(text, state)
    assert isinstance(error, OrderSyntaxError) and error.code == "no_order"
    for lang in LANGUAGES:
        assert text.split()[0] in describe(error, lang)


@pytest.mark.parametrize(
    "text",
    [
        "!@#$%^&*()_+-=[]{}|\\;',./<>?",
        '~`!@#$%^&*()_+{}|:"<>?\\;,./',
        "!@#;tac1 C3",
        "tac1 C3; ,./",
    ],
)
def test_every_segment_of_a_message_gets_an_answer(text: str) -> None:
    """Issue 19: in ``!@#…\\;,./`` only the part before ``;`` was answered, the rest
    dropped without a word."""
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")])
    report = run_orders(state, S, text, engine_step(FixedDice([])))
    answered = [r.line for r in report.refused] + list(report.skipped)
    answered += [a.line for a in report.applied]
    assert sorted(answered) == sorted(part.strip() for part in text.split(";"))
    assert all(isinstance(r.error, OrderSyntaxError) for r in report.refused)


def test_a_separator_line_is_still_no_order() -> None:
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")])
    report = run_orders(state, S, "tac1 C3\n---\n;", engine_step(FixedDice([])))
    assert [a.line for a in report.applied] == ["tac1 C3"] and report.refused == ()


# -- issue 19: a word alone is answered as the phase needs ------------------------------------
def test_B3_a_word_alone_in_terrain_placement_is_answered_about_terrain() -> None:
    """``clear`` got "where should clear go, or whom should it attack" while terrain is
    being placed."""
    error = refusal_of("clear", setup_at(Phase.TERRAIN))
    assert isinstance(error, OrderSyntaxError) and error.code == "unknown_terrain"
    assert "препятствие" in describe(error, "ru") and "obstacle" in describe(error, "en")


def test_B5_a_handle_alone_in_deployment_asks_for_its_cell() -> None:
    error = refusal_of("tac1", setup_at(Phase.DEPLOYMENT))
    assert isinstance(error, OrderSyntaxError) and error.code == "deploy_without_cell"
    assert "deploy tac1 B2" in describe(error, "en")
    assert "расстановка tac1 B2" in describe(error, "ru")
    assert "kab1" not in describe(error, "en")  # nothing about attacking now


@pytest.mark.parametrize(
    ("phase", "rule"), [(Phase.TERRAIN, "B3"), (Phase.DEPLOYMENT, "B5"), (Phase.PLAYING, "D1")]
)
def test_a_cell_off_the_board_alone_is_called_so(phase: Phase, rule: str) -> None:
    """``Z9`` alone got "what should z9 do?"; ``dred1 Z9`` was told Z9 is off the board."""
    state = (
        setup_at(phase)
        if phase is not Phase.PLAYING
        else playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")])
    )
    error = refusal_of("Z9", state)
    assert isinstance(error, IllegalAction) and (error.rule, error.code) == (rule, "off_board")


def test_a_handle_alone_in_play_still_asks_what_to_do() -> None:
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")])
    error = refusal_of("tac1", state)
    assert isinstance(error, OrderSyntaxError) and error.code == "unit_without_order"


def test_blank_input_is_still_nothing() -> None:
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")])
    report = run_orders(state, S, "   \n", engine_step(FixedDice([])))
    assert report.refused == () and report.applied == ()


# -- Russian nicknames from the codex ---------------------------------------------------------
def codex_state() -> GameState:
    sheets = all_sheets(codex_factions())
    return playing(
        [
            Place("boss1", sheets["warboss"], N, "C5"),
            Place("kop1", sheets["deffkoptas"], N, "D5"),
            Place("tac1", sheets["tactical"], S, "C2"),
        ]
    )


@pytest.mark.parametrize(
    ("typed", "handle"),
    [("босс", "boss1"), ("боссу", "boss1"), ("коптеры", "kop1"), ("коптеров", "kop1")],
)
def test_units_are_found_by_their_russian_nicknames(typed: str, handle: str) -> None:
    assert find_unit(codex_state(), Ref(typed), S).id == handle


def test_nicknames_are_loaded_and_checked(tmp_path: Path) -> None:
    data = base()
    data["nicknames"] = ["тестеры"]
    data["sheet"][0]["nicknames"] = ["главный"]
    faction = load_faction(write(tmp_path, data))
    assert faction.nicknames == ("тестеры",)
    assert faction.sheets["boss"].nicknames == ("главный",)
    # A nickname that is another sheet's name would make orders ambiguous.
    other_name = base()["sheet"][1]["name"]["ru"]
    error = refused(tmp_path, lambda d: d["sheet"][0].update(nicknames=[other_name]))
    assert "nickname" in error.reason and error.field.endswith("nicknames")


def test_every_codex_faction_has_russian_nicknames() -> None:
    factions = codex_factions()
    assert factions["imperial_guard"].nicknames[0] == "гвардия"
    assert all(f.nicknames or f.id == "orks" for f in factions.values())


# -- examples name units of the player's game -------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_examples_use_the_games_handles(lang: str) -> None:
    state = codex_state()
    text = help_text(lang, examples=examples_for(state, S))
    assert "tac1" in text and "boss1" in text
    assert "kab1" not in text and "rhi1" not in text
    # North has no transport; its examples use one of the units it has.
    north = help_text(lang, Verb.ATTACK, examples_for(state, N))
    assert "boss1 > tac1" in north


@pytest.mark.parametrize("lang", LANGUAGES)
def test_refusal_example_uses_the_games_handles(lang: str) -> None:
    error = parse_line("move")
    assert isinstance(error, OrderSyntaxError)
    text = describe(error, lang, examples_for(codex_state(), N))
    assert "boss1 C4" in text and "tac1" not in text


def test_examples_without_a_game_are_the_training_units() -> None:
    args = Examples().args("en")
    assert (args["ex_unit"], args["ex_target"], args["ex_prefix"]) == ("tac1", "kab1", "tact")


# -- grammar ------------------------------------------------------------------------------
def test_unexpected_words_name_the_order_without_a_wrong_article() -> None:
    error = parse_line("end now")
    assert isinstance(error, OrderSyntaxError)
    assert "in the order “end”" in describe(error, "en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_nothing_to_undo_does_not_say_only_zero(lang: str) -> None:
    text = NotAllowed("nothing_to_undo", count=1, available=0).describe(lang)
    assert " 0 " not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_undone_action_is_one_entry(lang: str) -> None:
    text = translate(lang, "console-ev-undone", count=1, seqs="43")
    assert "entries" not in text and "записи" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_weapon_messages_need_no_verb_agreement(lang: str) -> None:
    """ "Bolters reaches 2", "Болтеры бьёт": the weapon is no longer the verb's subject."""
    text = translate(lang, "error-out_of_range", weapon="Bolters", range=2, distance=3)
    assert "reaches" not in text and "бьёт" not in text


# -- the rule order ----------------------------------------------------------------------
def test_rule_order_reads_and_resolves() -> None:
    assert parse_line("rule E8") == RuleOrder("E8")
    assert parse_line("правило е8") == RuleOrder("E8")
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")])
    assert resolve(RuleOrder("E8"), state, S) == RuleRequest("E8")
    error = parse_line("rule what")
    assert isinstance(error, OrderSyntaxError) and error.code == "bad_rule_id"
