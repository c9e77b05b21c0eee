"""The console end to end: the real ``python bot.py --console`` process, a whole game fed
through its standard input, setup to final score; and a game quit half-way and resumed.

The lines fed are worked out beforehand: the same game is played in this process through
the service (same seed, so the same dice), the automatic player taking both sides, and each
of South's actions is written as the order a player would type. The console must read every
line as that action (no line refused) and reach the same final score.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from vahalite_bot.app import GameService
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.console.options import auto_rng, seed_bytes
from vahalite_bot.console.seats import CHANNEL, Seats
from vahalite_bot.rules.actions import (
    Action,
    Advance,
    Attack,
    ChooseDeployOrder,
    Deploy,
    EndTurn,
    Move,
    PlacePassenger,
    PlaceSP,
    PlaceTerrain,
)
from vahalite_bot.rules.engine import acting_side
from vahalite_bot.rules.events import GameEnded
from vahalite_bot.rules.scenario import Side, TerrainKind
from vahalite_bot.rules.state import GameState, Phase
from vahalite_bot.selfplay.greedy import GreedyPlayer
from vahalite_bot.store.database import open_database
from vahalite_bot.verify import check_text

BOT = Path(__file__).resolve().parents[1] / "bot.py"
SEED = 3
POINTS = 500
# The factions' numbers as the Russian console lists them (sorted by Russian name).
SOUTH_FACTION, NORTH_FACTION = "space_marines", "orks"
FINAL = re.compile(r"Итоговый счёт: Юг (\d+) ПО — Север (\d+) ПО\.")

TERRAIN_WORD = {
    TerrainKind.OBSTACLE: "препятствие",
    TerrainKind.WATER: "водоём",
    TerrainKind.HEIGHT: "высота",
    TerrainKind.COVER: "укрытие",
}


@dataclass(frozen=True)
class Script:
    lines: list[str]  # the orders South types, in order, after the lobby's answers
    south: int  # the final VP
    north: int


def order_line(action: Action, state: GameState) -> str:
    """South's action as a player would type it, in Russian."""
    match action:
        case ChooseDeployOrder(_, first):
            return "первым" if first else "вторым"
        case PlaceTerrain(_, kind, cell):
            return f"{TERRAIN_WORD[kind]} {cell.name}"
        case PlaceSP(_, cell):
            return f"сп {cell.name}"
        case Deploy(_, unit, cell):
            return f"поставь {unit} {cell.name}"
        case PlacePassenger(_, unit, cell):
            return f"поставь {unit} {cell.name}"
        case Move(_, unit, path) if state.units[unit].embarked_in is not None:
            return f"высадка {unit} {path[0].name}"
        case Move(_, unit, path):
            return f"ход {unit} " + "-".join(c.name for c in path)
        case Attack(_, unit, target, weapons, melee):
            verb = {None: "атака", True: "руби", False: "стреляй"}[melee]
            numbers = "" if weapons is None else " " + " ".join(str(w + 1) for w in weapons)
            return f"{verb} {unit} {target}{numbers}"
        case Advance(_, _, accept):
            return "вперёд" if accept else "стой"
        case EndTurn():
            return "конец"
    raise AssertionError(f"no order for {action}")


async def _precompute(folder: Path, vs: str | None) -> Script:
    """The game the console should play: the people's orders and the final score."""
    factions = codex_factions()
    db = await open_database(f"sqlite+aiosqlite:///{folder / 'expected.db'}")
    try:
        service = GameService(db, sheets=all_sheets(factions), seeds=lambda: seed_bytes(SEED))
        seats = Seats.new(vs)
        created = await service.create_game(
            seats.actor(Side.SOUTH), CHANNEL, points_limit=POINTS, language="ru"
        )
        game = created.game_id
        await service.join(game, seats.actor(Side.NORTH))
        await service.submit_army(
            game, seats.actor(Side.SOUTH), factions[SOUTH_FACTION].lists[str(POINTS)]
        )
        outcome = await service.submit_army(
            game, seats.actor(Side.NORTH), factions[NORTH_FACTION].lists[str(POINTS)]
        )
        player, lines = GreedyPlayer(), []
        assert outcome.state is not None
        while outcome.state.phase is not Phase.ENDED:
            state = outcome.state
            side = acting_side(state)
            assert side is not None
            action = player.choose(state, auto_rng(SEED, outcome.version))
            if not seats.is_auto(side):
                lines.append(order_line(action, state))
            outcome = await service.act(game, seats.actor(side), action)
            assert outcome.state is not None
        ended = next(e for e in outcome.events if isinstance(e, GameEnded))
        return Script(lines, ended.south.vp, ended.north.vp)
    finally:
        await db.close()


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Script:
    """South played by a person, North by the automatic player."""
    return asyncio.run(_precompute(tmp_path_factory.mktemp("expected"), "greedy"))


def lobby_answers() -> list[str]:
    names = sorted((f.name.ru, f.id) for f in codex_factions().values())
    number = {fid: str(i) for i, (_, fid) in enumerate(names, start=1)}
    # Enter: the standard scenario, no house rules (M); then the points and both armies.
    return ["", "", str(POINTS), number[SOUTH_FACTION], "да", number[NORTH_FACTION], "да"]


def run_console(folder: Path, lines: list[str], *extra: str, vs: str | None = "greedy") -> str:
    """Run the real console in ``folder`` with ``lines`` as its input; its output."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VAHALITE_")}
    env["NO_COLOR"] = "1"
    result = subprocess.run(
        [
            sys.executable,
            str(BOT),
            "--console",
            "--lang",
            "ru",
            "--db",
            f"sqlite+aiosqlite:///{folder / 'console.db'}",
            "--seed",
            str(SEED),
            *(() if vs is None else ("--vs", vs)),
            *extra,
        ],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr
    return result.stdout


def refusals(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("✗")]


def test_console_plays_a_whole_game_from_standard_input(tmp_path: Path, script: Script) -> None:
    """Setup to final score through stdin against the automatic player; questions (help,
    status, the enemy's army) along the way."""
    lines = list(script.lines)
    # A few lines a player would also type, which must change nothing.
    first_turn = next(i for i, line in enumerate(lines) if line.startswith(("ход", "атака")))
    lines[first_turn:first_turn] = ["помощь", "статус", "армия противника", "лог 50", "проверка"]
    output = run_console(tmp_path, lobby_answers() + lines)
    assert refusals(output) == []
    # K2: the log shows each die by its position; "verify" writes the log and checks it.
    assert "кубики (позиция=значение): #0=" in output
    exported = tmp_path / "logs" / "game-1.jsonl"
    assert f"Журнал партии: {Path('logs') / exported.name}" in output
    assert "по порядку" in output  # before the end: the order of the dice, not the values
    scores = FINAL.findall(output)
    assert scores == [(str(script.south), str(script.north))]
    assert "Зерно кубиков:" in output  # K2: revealed at the end
    # Issue 19: the end writes the log again, with the seed (no words: --seed fixes the
    # dice without them), and checks it: every die is recomputed and found right.
    report = check_text(exported.read_text(encoding="utf-8"))
    assert report.verified and report.seed is not None
    assert all(die.expected == die.die.value for die in report.dice)
    ending = output.split("Зерно кубиков:")[1]
    assert f"Журнал партии: {Path('logs') / exported.name}" in ending
    pictures = sorted((tmp_path / "boards").glob("game-*-1-*.png"))
    assert pictures and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pictures)
    assert f"Картинка поля: {Path('boards') / pictures[-1].name}" in output


def test_console_quit_mid_game_resumes_where_it_stopped(tmp_path: Path, script: Script) -> None:
    half = len(script.lines) // 2
    first = run_console(tmp_path, [*lobby_answers(), *script.lines[:half], "выход"])
    assert refusals(first) == []
    assert "Партия №1 сохранена" in first
    assert FINAL.findall(first) == []

    second = run_console(tmp_path, script.lines[half:])
    assert "Продолжаем партию №1." in second
    assert "Армия Юга" not in second  # the lobby is not asked again
    assert refusals(second) == []
    assert FINAL.findall(second) == [(str(script.south), str(script.north))]


def test_console_new_closes_the_unfinished_game(tmp_path: Path, script: Script) -> None:
    run_console(tmp_path, [*lobby_answers(), *script.lines[:3], "выход"])
    output = run_console(tmp_path, [*lobby_answers(), "выход"], "--new")
    assert "Неоконченная партия №1 закрыта" in output
    assert "Партия №2 на 500 очков" in output


def test_console_hot_seat_game_both_sides_typed(tmp_path: Path) -> None:
    """Two people at one keyboard: the prompt names the side to act, each types its orders."""
    script = asyncio.run(_precompute(tmp_path / "expected", None))
    output = run_console(tmp_path, lobby_answers() + script.lines, vs=None)
    assert refusals(output) == []
    assert "Играют двое за одним компьютером" in output
    assert "Север · раунд 1/6 > " in output and "Юг · раунд 1/6 > " in output
    assert FINAL.findall(output) == [(str(script.south), str(script.north))]
    # Issue 12: at each handover the next player is told, and sees the board before typing.
    # (The board may have been the last thing printed just before the handover line.)
    prompts = re.split(r"(?m)^(?:Юг|Север) · раунд \d+/6 > .*$", output)
    handed = [text for text in prompts if "── Передайте клавиатуру: " in text]
    assert len(handed) >= 6
    assert all("┌──" in text for text in handed)
