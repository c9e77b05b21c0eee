"""The terminal game as issue 12's new player met it: a huge line, resigning by mistake, the
language switch, choosing a faction by its nickname, the hot-seat handover."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.test_console_game import lobby_answers, refusals, run_console
from vahalite_bot.codex.loader import codex_factions
from vahalite_bot.console.lobby import Lobby
from vahalite_bot.console.seats import Seats
from vahalite_bot.console.terminal import Terminal

HUGE = "reap1 > twar1 " * 400


def test_a_new_players_session(tmp_path: Path) -> None:
    """One session (each start of the real console is slow): the language switch on the
    first screen, a huge line and a typo refused without a crash, resigning asked first."""
    output = run_console(tmp_path, [*lobby_answers(), HUGE, "укрыте C3", "сдаюсь", "нет", "выход"])
    assert "--lang en" in output.split("очки >")[0]
    # The huge line used to end the game with MissingMessage (Fluent's 1000-character limit).
    refused = refusals(output)
    assert len(refused) == 2
    assert len(refused[0]) < 400 and "…" in refused[0]
    assert "«укрытие»" in refused[1]
    assert "сдаться и закончить партию поражением? (да/нет)" in output
    assert "Партия продолжается." in output
    assert "Партия окончена" not in output and "Партия №1 сохранена" in output
    output = run_console(tmp_path, ["сдаюсь", "да"])
    assert "соперник сдался" in output


@pytest.mark.parametrize(("typed", "faction"), [("гвардия", "imperial_guard"), ("тау", "tau")])
def test_a_faction_is_chosen_by_its_russian_nickname(typed: str, faction: str) -> None:
    factions = codex_factions()
    terminal = Terminal(io.StringIO(), io.StringIO())
    lobby = Lobby(None, terminal, "ru", factions, Seats.new(None))  # type: ignore[arg-type]
    chosen = lobby._faction(typed)
    assert chosen is not None and chosen.id == faction
