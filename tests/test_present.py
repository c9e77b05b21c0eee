"""Adapter-neutral presentation (issue 12): no question after the game has ended, the turn
end's picture with the SPs it took, rules answered by ID, and board files that cannot collide."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.builders import Place, c, playing
from vahalite_bot import rulebook
from vahalite_bot.console.pictures import board_file, database_tag
from vahalite_bot.i18n import LANGUAGES, describe_error, translate
from vahalite_bot.present.board import board_text
from vahalite_bot.present.moments import state_at_turn_end
from vahalite_bot.present.narrate import Narrator, is_moot
from vahalite_bot.present.paint import plain
from vahalite_bot.present.rules import rule_reply
from vahalite_bot.rules.actions import Attack, EndTurn
from vahalite_bot.rules.dice import FixedDice
from vahalite_bot.rules.engine import apply
from vahalite_bot.rules.errors import IllegalAction
from vahalite_bot.rules.events import (
    AdvanceOffered,
    AttackResolved,
    Event,
    GameEnded,
    SPCaptured,
    TurnEnded,
)
from vahalite_bot.rules.geometry import has_line_of_sight, sight_blockers
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.sheets import WeaponKind
from vahalite_bot.rules.state import GameState, PendingPlacement, Phase

S, N = Side.SOUTH, Side.NORTH


# -- must-fix 4: no advance question once the game has ended --------------------------------
def last_kill() -> tuple[list[Event], GameState]:
    """A melee kill of North's last unit: the engine offers the advance, then ends the game."""
    state = playing([Place("cap1", "captain", S, "C2"), Place("sla1", "slaves", N, "C3", hp=1)])
    after, events = apply(state, Attack(S, "cap1", "sla1", None, True), FixedDice([6] * 30))
    assert after.phase is Phase.ENDED
    assert [type(e) for e in events][-2:] == [AdvanceOffered, GameEnded]
    return list(events), after


@pytest.mark.parametrize("lang", LANGUAGES)
def test_E10_advance_is_not_offered_in_the_batch_that_ends_the_game(lang: str) -> None:
    events, after = last_kill()
    told = "\n".join(Narrator(lang, plain).tell(events, after))
    offered = Narrator(lang, plain).event(events[-2], after)
    assert offered and offered[0] not in told
    assert is_moot(events[-2], events) and not is_moot(events[-2], events[:-1])


# -- must-fix 5: the turn's last picture shows the SPs the turn end took --------------------
def test_J1_picture_of_the_turn_end_has_the_sp_taken() -> None:
    state = playing(
        [Place("tac1", "tactical", S, "D3"), Place("kab1", "warriors", N, "F6")],
        sps={"D3": N},
    )
    _, events = apply(state, EndTurn(S), FixedDice([]))
    assert SPCaptured(c("D3"), S, "tac1") in events and any(
        isinstance(e, TurnEnded) for e in events
    )
    moment = state_at_turn_end(state, events)
    assert moment.sps[c("D3")].holder is S
    assert state.sps[c("D3")].holder is N  # the state before is not changed


def test_turn_end_without_captures_is_the_state_before() -> None:
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "F6")])
    _, events = apply(state, EndTurn(S), FixedDice([]))
    assert state_at_turn_end(state, events) is state


# -- must-fix 6: board images of different databases do not collide -------------------------
def test_board_files_of_two_databases_differ() -> None:
    sqlite = database_tag("sqlite+aiosqlite:///data/vahalite.db")
    postgres = database_tag("postgresql+asyncpg://postgres@127.0.0.1/vahalite")
    assert sqlite != postgres and len(sqlite) == 8
    folder = Path("boards")
    assert board_file(folder, sqlite, 1, 7) != board_file(folder, postgres, 1, 7)
    assert board_file(folder, sqlite, 1, 7) == folder / f"game-{sqlite}-1-0007.png"
    assert "secret" not in database_tag("postgresql+asyncpg://u:secret@h/db")


# -- the rule order's answer ----------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_rule_reply_shows_the_rule_text(lang: str) -> None:
    text = rulebook.rule_text(lang, "E8")
    assert text is not None
    answer = rule_reply(lang, "E8")
    assert "E8" in answer.splitlines()[0] and text in answer


@pytest.mark.parametrize("lang", LANGUAGES)
def test_M2_rule_typed_in_lower_case_is_headed_by_its_id(lang: str) -> None:
    heading = rule_reply(lang, "m2").splitlines()[0]
    assert "M2" in heading and "m2" not in heading


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rule_reply_for_an_unknown_rule_and_the_list(lang: str) -> None:
    assert "Z9" in rule_reply(lang, "Z9")
    listing = rule_reply(lang, None)
    assert all(rule_id in listing for rule_id in rulebook.rule_ids())


# -- refusals that name what is wrong (issue 12) ----------------------------------------------
def test_E4_line_of_sight_blocked_at_a_corner_names_both_cells() -> None:
    """The blockers named are the ones ``has_line_of_sight`` stops at: a cell the line
    crosses, or both cells meeting at a corner it passes."""
    a1, c3 = c("A1"), c("C3")
    assert sight_blockers(a1, c3, {c("B2"), c("F6")}) == (c("B2"),)
    corner = {c("A2"), c("B1")}
    assert not has_line_of_sight(a1, c3, corner)
    assert sight_blockers(a1, c3, corner) == (c("A2"), c("B1"))
    assert sight_blockers(a1, c3, {c("A2")}) == ()  # one cell at a corner does not block
    assert has_line_of_sight(a1, c3, {c("A2")})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_E4_refusal_text_names_the_blocking_cell(lang: str) -> None:
    state = playing(
        [Place("tac", "tactical", S, "C2"), Place("foe", "warriors", N, "C4")],
        terrain={"C3": TerrainKind.OBSTACLE},
    )
    with pytest.raises(IllegalAction) as caught:
        apply(state, Attack(S, "tac", "foe", None, False), FixedDice([]))
    assert "C3" in describe_error(caught.value, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_B5_cannot_deploy_here_gives_the_one_reason(lang: str) -> None:
    water = IllegalAction(
        "B5", "cannot_deploy_here", unit="tac1", cell="B2", terrain="water", reason="terrain"
    )
    cover = IllegalAction(
        "B5", "cannot_deploy_here", unit="rhi1", cell="B2", terrain="cover", reason="vehicle_cover"
    )
    texts = {describe_error(e, lang) for e in (water, cover)}
    assert len(texts) == 2
    water_text, cover_text = describe_error(water, lang), describe_error(cover, lang)
    assert translate(lang, "terrain-water") in water_text
    assert translate(lang, "terrain-cover") in cover_text
    assert translate(lang, "terrain-water") not in cover_text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_E2_too_close_names_the_real_minimum(lang: str) -> None:
    error = IllegalAction("E2", "too_close", weapon="Mortar", distance=2, minimum=3)
    text = describe_error(error, lang)
    assert "3" in text and "2" in text and " 1 " not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_damaged_profile_is_the_attackers(lang: str) -> None:
    event = AttackResolved(
        attacker="tac1",
        target="kab1",
        kind=WeaponKind.SHOOTING,
        weapons=(),
        damage=0,
        hp_before=3,
        hp_after=3,
        damaged_profile=True,
    )
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C4")])
    first = Narrator(lang, plain).event(event, state)[0]
    damaged = "(damaged profile)" if lang == "en" else "(повреждённый профиль)"
    assert first.index(damaged) < first.index("kab1")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_H5_the_text_board_shows_a_passenger_waiting_to_be_placed(lang: str) -> None:
    state = playing([Place("tac1", "tactical", S, "C2"), Place("kab1", "warriors", N, "C5")])
    state.units["kab1"].cell = None
    state.pending = (PendingPlacement(N, "kab1", (c("C5"), c("D5"))),)
    text = board_text(state, lang, plain)
    waiting = [line for line in text.splitlines() if "kab1" in line]
    assert waiting and "C5, D5" in waiting[0]
