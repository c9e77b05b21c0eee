"""M1-M9 and L seen by players: a whole game with every house rule on, on every scenario, is
told in both languages (every event, every turn's recap) and drawn (every turn's image, the
replay), with no event left untold.

The games are self-play games (greedy players, fixed seeds), so they hold the house rules'
events as they really come: orders, reserves, charges, fall backs, Overwatch, damage steps
and initiative rolls.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image

from vahalite_bot.i18n import LANGUAGES
from vahalite_bot.present.narrate import Narrator
from vahalite_bot.present.recap import recap_text
from vahalite_bot.render import render_replay, render_turn
from vahalite_bot.render.replay import Step, steps
from vahalite_bot.rules import events as ev
from vahalite_bot.rules.dice import FairDice
from vahalite_bot.rules.house import HouseRule
from vahalite_bot.rules.scenario import Side
from vahalite_bot.scenarios import shipped_scenarios
from vahalite_bot.selfplay.game import GameRecord, game_seed, play_game
from vahalite_bot.selfplay.greedy import GreedyPlayer

ALL = frozenset(HouseRule)
# Events that are questions or bookkeeping: answered or shown by the adapters, not narrated.
SILENT = (ev.TurnStarted, ev.SetupStep)


def plain(lang: str, text: str) -> str:
    return text


def all_rules_game(scenario: str, index: int = 0) -> GameRecord:
    players = {side: GreedyPlayer() for side in Side}
    return play_game(
        players,
        game_seed(13, index),
        index,
        house=ALL,
        scenario=shipped_scenarios()[scenario],
    )


def turns(record: GameRecord) -> Iterator[list[Step]]:
    """The steps of every played turn of the game (setup steps with the first turn)."""
    log = list(steps(record.initial, record.actions, FairDice(record.seed)))
    start = 0
    for index, step in enumerate(log):
        if step.ends_turn is not None or index == len(log) - 1:
            yield log[start : index + 1]
            start = index + 1


@pytest.mark.parametrize("scenario", sorted(shipped_scenarios()))
def test_M_every_event_of_an_all_rules_game_is_told_in_both_languages(scenario: str) -> None:
    record = all_rules_game(scenario)
    assert record.finished
    kinds = {type(e) for e in record.events}
    assert {ev.OrdersGiven, ev.DamageStep} <= kinds  # the house rules really played
    for lang in LANGUAGES:
        narrator = Narrator(lang, plain)
        for event in record.events:
            if isinstance(event, SILENT):
                continue
            lines = narrator.event(event, record.final)
            assert any(line.strip() for line in lines), f"{lang}: {event!r} is told as nothing"
            assert not any("{" in line or "}" in line for line in lines), lines


@pytest.mark.parametrize("scenario", sorted(shipped_scenarios()))
def test_M_L_every_turn_of_an_all_rules_game_has_a_recap_and_an_image(scenario: str) -> None:
    record = all_rules_game(scenario)
    count = 0
    for turn in turns(record):
        first, last = turn[0], turn[-1]
        events = [e for step in turn for e in step.events]
        for lang in LANGUAGES:
            lines = recap_text(first.before, last.after, events, lang, plain)
            assert len(lines) >= 2
        png = render_turn(first.before, last.after, events, lang="ru")
        image = Image.open(io.BytesIO(png))
        assert image.width > 0 and image.height > 0
        count += 1
    assert count >= 2 * record.final.round - 1


def test_M_the_replay_of_an_all_rules_game_is_drawn() -> None:
    record = all_rules_game("river-crossing")
    gif = render_replay(record.initial, record.actions, FairDice(record.seed), size=320)
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and getattr(image, "n_frames", 1) > len(record.actions) // 2
