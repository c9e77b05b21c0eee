"""The cyclic collector stays out of the hard player's setup decisions and of a self-play
run's long-lived objects, so that a full pass does not land in a decision's budget."""

from __future__ import annotations

import gc

import pytest

from tests.test_selfplay import run
from vahalite_bot.rules.actions import Action
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay import hard
from vahalite_bot.selfplay.game import game_seed, play_game
from vahalite_bot.selfplay.gc_pause import paused_gc
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.selfplay.hard import HardPlayer
from vahalite_bot.selfplay.players import Player


def test_paused_gc_restores_the_collector_as_it_found_it() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause does not switch it on under the outer
    assert gc.isenabled()
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_hard_players_setup_decisions_run_without_the_collector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[Phase, set[bool]] = {}
    for name in ("deploy_by_simulation", "place_by_simulation"):
        real = getattr(hard, name)

        def spy(state: GameState, *args: object, _real: object = real) -> Action:
            seen.setdefault(state.phase, set()).add(gc.isenabled())
            return _real(state, *args)  # type: ignore[operator, no-any-return]

        monkeypatch.setattr(hard, name, spy)
    players: dict[Side, Player] = {
        Side.SOUTH: HardPlayer(node_limit=20),
        Side.NORTH: GreedyPlayer(),
    }
    play_game(players, game_seed(3, 0), max_actions=60)
    assert seen == {Phase.TERRAIN: {False}, Phase.SP: {False}, Phase.DEPLOYMENT: {False}}
    assert gc.isenabled()


def test_a_self_play_run_freezes_what_it_loaded_and_thaws_it_after(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    frozen: list[int] = []
    real = play_game

    def counting(*args: object, **kwargs: object) -> object:
        frozen.append(gc.get_freeze_count())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("vahalite_bot.selfplay.cli.play_game", counting)
    code, _ = run(capsys, "--games", "1", "--seed", "4")
    assert code == 0
    assert frozen and frozen[0] > 1000
    assert gc.get_freeze_count() == 0
