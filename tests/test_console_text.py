"""The console's text: the board grid, every dice explanation (rulebook E14) in Russian with
its plurals and in English, the hints' examples, the settings and the seats."""

from __future__ import annotations

import argparse
import io
import random
import re
from pathlib import Path

import pytest

from bot import parse_args, settings
from tests.builders import SHEETS, Place, c, playing, sheet
from vahalite_bot.console.pictures import boards_dir
from vahalite_bot.console.seats import Seats
from vahalite_bot.console.terminal import Terminal, ansi
from vahalite_bot.console.words import is_quit
from vahalite_bot.i18n import LANGUAGES, message_ids
from vahalite_bot.orders import (
    ArmyOrder,
    AttackOrder,
    EndTurnOrder,
    OddsOrder,
    OrderSyntaxError,
    Request,
    declines_advance,
    parse_line,
    resolve,
)
from vahalite_bot.present.board import board_text
from vahalite_bot.present.hints import hint_text
from vahalite_bot.present.narrate import Narrator
from vahalite_bot.present.paint import plain
from vahalite_bot.rules.actions import Advance, ChooseDeployOrder, EndTurn, Move, RollOff
from vahalite_bot.rules.dice import Die, FixedDice
from vahalite_bot.rules.engine import acting_side, apply
from vahalite_bot.rules.events import (
    AttackResolved,
    GameEnded,
    MoraleTested,
    Score,
    UnitDestroyed,
    WeaponRolled,
)
from vahalite_bot.rules.queries import is_legal
from vahalite_bot.rules.scenario import STANDARD, Side, TerrainKind
from vahalite_bot.rules.sheets import Names, WeaponKind
from vahalite_bot.rules.state import GameState, PendingAdvance, Phase, new_game
from vahalite_bot.selfplay.greedy import GreedyPlayer

S, N = Side.SOUTH, Side.NORTH
PACKAGE = Path(__file__).resolve().parents[1] / "vahalite_bot"
# The console and the adapter-neutral presentation both speak console.ftl.
CONSOLE_SOURCES = (PACKAGE / "console", PACKAGE / "present")


def dice(*values: int) -> tuple[Die, ...]:
    return tuple(Die(i, "test", v) for i, v in enumerate(values))


def board_state() -> GameState:
    return playing(
        [
            Place("tac1", "tactical", S, "C2"),
            Place("rhi1", "rhino", S, "E2"),
            Place("cap1", "captain", S, "rhi1"),
            Place("kab1", sheet("warriors", name=Names(ru="Воины", en="Warriors")), N, "C4", hp=3),
        ],
        terrain={"C3": TerrainKind.HEIGHT, "B4": TerrainKind.WATER, "D4": TerrainKind.COVER},
        sps={"B2": S, "D5": N},
    )


# -- the board ---------------------------------------------------------------------------
def test_board_grid_shows_coordinates_terrain_units_and_sps() -> None:
    text = board_text(board_state(), "ru", plain)
    lines = text.splitlines()
    walls = {line.rindex(ch) for line in lines for ch in "│┐┤┘" if ch in line}
    assert len(walls) == 1, "the right edge is straight"
    row = {int(line[0]): line for line in lines if line[:1].isdigit()}
    below = {n: lines[lines.index(row[n]) + 1] for n in row}
    cells = {n: below[n].split("│")[1:-1] for n in row}
    assert cells[2][2].split() == ["●", "tac1", "5"]  # C2: side, handle, HP
    assert cells[2][4].split() == ["●", "rhi1+", str(SHEETS["rhino"].max_hp)]  # loaded
    # North is ○, not the letter С, which reads as column C (issue 12).
    assert cells[4][2].split() == ["○", "kab1", "3"]
    assert row[3].split("│")[3].split() == ["▲"]  # C3: a Height
    assert set(cells[4][1]) == {"≈"}  # B4: Water fills the empty cell
    assert row[4].split("│")[4].split() == ["♣3+"]  # D4: Cover 3+
    assert row[2].split("│")[2].split() == ["◆●"]  # B2: South's SP
    assert row[5].split("│")[4].split() == ["◆○"]
    assert lines[1].split() == list("ABCDEF")
    assert "В транспортах: rhi1 → cap1" in lines
    assert lines[0] == "Раунд 1 из 6 · ход Юга · ПО сейчас: Юг 2, Север 2"


def test_board_legend_only_when_asked() -> None:
    state = board_state()
    assert "▲ высота" in board_text(state, "ru", plain)
    assert "▲ высота" not in board_text(state, "ru", plain, legend=False)
    assert "▲ height" in board_text(state, "en", plain)


def test_board_colours_sides_only_when_painting() -> None:
    state = board_state()
    assert "\x1b[" not in board_text(state, "ru", plain)
    coloured = board_text(state, "ru", ansi)
    assert "\x1b[1;34m● tac1\x1b[0m" in coloured  # South in blue
    assert "\x1b[1;31m○ kab1\x1b[0m" in coloured  # North in red
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == board_text(state, "ru", plain)


# -- E14: every die told -----------------------------------------------------------------
def attack(rerolls: tuple[Die, ...] = (), cover: int | None = None) -> AttackResolved:
    bolters = WeaponRolled(
        weapon=Names(ru="Болтеры", en="Bolters"),
        kind=WeaponKind.SHOOTING,
        strength=1,
        dice_count=5,
        models=5,
        defense=5,
        needed=4,
        dice=dice(6, 3, 4, 1, 5),
        successes=3,
        cover_value=cover,
        rerolls=rerolls,
        damage=2 if cover else 3,
    )
    damage = bolters.damage
    return AttackResolved(
        "tac1", "kab1", WeaponKind.SHOOTING, (bolters,), False, damage, 5, 5 - damage
    )


def test_E14_attack_with_cover_tells_every_die_in_russian() -> None:
    state = board_state()
    lines = Narrator("ru", plain).tell([attack(dice(2, 5, 6), cover=3)], state)
    assert lines == [
        "tac1 (Тактическое отделение) стреляет по kab1 (Воины):",
        "  Болтеры (5 моделей): 5 кубиков, нужно 4+ (защита 5 − сила +1): 6 3 4 1 5 → 3 успеха;"
        " укрытие 3+: переброс 2 5 6 → 2 раны",
        "  Итого: kab1 −2 HP (5 → 3).",
    ]


def test_E14_attack_in_english() -> None:
    lines = Narrator("en", plain).tell([attack(dice(2, 5, 6), cover=3)], board_state())
    assert lines[1] == (
        "  Bolters (5 models): 5 dice, 4+ needed (Defense 5 − strength +1): 6 3 4 1 5 → "
        "3 successes; cover 3+: re-roll 2 5 6 → 2 damage"
    )


@pytest.mark.parametrize(
    ("count", "word"), [(1, "1 кубик"), (2, "2 кубика"), (5, "5 кубиков"), (21, "21 кубик")]
)
def test_E14_russian_plurals_of_dice(count: int, word: str) -> None:
    event = MoraleTested("kab1", "half", 4, dice(*([3] * count)), 0, 5)
    (line,) = Narrator("ru", plain).tell([event], board_state())
    assert f": {word}, каждый ниже 4" in line


def test_G2_morale_and_death_are_told() -> None:
    state = board_state()
    lines = Narrator("ru", plain).tell(
        [
            MoraleTested("kab1", "half", 4, dice(1, 5, 2), 2, 1),
            UnitDestroyed("kab1", N, "tac1", "attack"),
        ],
        state,
    )
    assert lines == [
        "Мораль kab1 (потеряна половина HP): 3 кубика, каждый ниже 4 — минус модель: 1 5 2 →"
        " минус 2 модели, осталось 1 HP.",
        "✖ kab1 (Воины) уничтожен (это сделал tac1).",
    ]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ru", "tac пытается выйти из рукопашной: C3 → C2 → C1"),
        ("en", "tac tries to leave melee: C3 → C2 → C1"),
    ],
)
def test_D5_a_unit_that_flees_leaving_melee_says_where_it_tried_to_go(lang: str, said: str) -> None:
    """Issue 19: "kop1 flees the field" with no word of the move that made it test."""
    state = playing(
        [
            Place("tac", "tactical", S, "C3", hp=1),
            Place("pal", "scouts", S, "A1"),
            Place("foe", "warriors", N, "D3"),
        ]
    )
    after, events = apply(state, Move(S, "tac", (c("C2"), c("C1"))), FixedDice([2]))
    assert after.units["tac"].destroyed
    lines = Narrator(lang, plain).tell(events, after)
    assert lines[0].startswith(said), lines
    assert "✖ tac" in lines[-1]


def test_J2_final_score_line() -> None:
    ended = GameEnded(
        S, "score", Score(sp=3, kills=2, hq_kills=1), Score(sp=1, kills=1, hq_kills=0)
    )
    lines = Narrator("ru", plain).tell([ended], board_state())
    assert lines[-1] == "Итоговый счёт: Юг 10 ПО — Север 3 ПО."
    assert "победа Юга (по очкам)" in lines[1]


# -- hints: the example given is an order the rules accept ---------------------------------
def setup_states() -> list[GameState]:
    """The state at the start of each setup step of a game, both sides."""
    state = new_game(
        STANDARD,
        {
            S: [
                ("tac1", SHEETS["tactical"]),
                ("rhi1", SHEETS["rhino"]),
                ("cap1", SHEETS["captain"]),
            ],
            N: [
                ("kab1", SHEETS["warriors"]),
                ("sla1", SHEETS["slaves"]),
                ("arc1", SHEETS["archon"]),
            ],
        },
    )
    state, _ = apply(state, RollOff(), FixedDice([1]))
    state, _ = apply(state, ChooseDeployOrder(N, False), FixedDice([]))
    seen, player = [], GreedyPlayer()
    while state.phase is not Phase.PLAYING:
        seen.append(state)
        state, _ = apply(state, player.choose(state, random.Random(0)), FixedDice([]))
    seen.append(state)
    return seen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hint_examples_are_legal_orders(lang: str) -> None:
    checked = 0
    for state in setup_states():
        side = acting_side(state)
        assert side is not None
        text = hint_text(state, side, lang, plain, full=True)
        assert text is not None
        examples = re.findall(r"[«\"]([^»\"]+)[»\"]", text)
        assert examples, text
        for example in examples:
            order = parse_line(example)
            assert not isinstance(order, OrderSyntaxError), example
            if isinstance(order, EndTurnOrder | OddsOrder | ArmyOrder | AttackOrder):
                continue  # questions, and the attack on the nearest enemy, in reach or not
            action = resolve(order, state, side)
            assert not isinstance(action, Request)
            assert is_legal(state, action), (example, state.phase)
            checked += 1
    assert checked >= 12


# -- E10 at the console: another order declines the advance -------------------------------
def test_E10_another_order_declines_only_the_own_advance() -> None:
    state = board_state()
    state.pending = (PendingAdvance(S, "tac1", c("C3")),)
    assert declines_advance(state, S, EndTurn(S))
    assert not declines_advance(state, S, Advance(S, "tac1", True))
    assert not declines_advance(state, N, EndTurn(N))
    state.pending = ()
    assert not declines_advance(state, S, EndTurn(S))


# -- settings, seats, words ----------------------------------------------------------------
def args(*argv: str) -> argparse.Namespace:
    return parse_args(list(argv))


def test_settings_come_from_config_then_environment_then_flags() -> None:
    config = {
        "discord": {"token": "from-config"},
        "database": {"url": "sqlite+aiosqlite:///config.db"},
        "game": {"language": "en", "default_deadline_hours": 24},
    }
    chosen = settings(config, {}, args())
    assert (chosen.token, chosen.database_url, chosen.language) == (
        "from-config",
        "sqlite+aiosqlite:///config.db",
        "en",
    )
    assert chosen.deadline_hours == 24
    env = {
        "VAHALITE_DISCORD_TOKEN": "from-env",
        "VAHALITE_DATABASE_URL": "sqlite+aiosqlite:///env.db",
        "VAHALITE_LANG": "ru",
    }
    chosen = settings(config, env, args())
    assert (chosen.token, chosen.database_url, chosen.language) == (
        "from-env",
        "sqlite+aiosqlite:///env.db",
        "ru",
    )
    chosen = settings(config, env, args("--db", "sqlite+aiosqlite:///flag.db", "--lang", "en"))
    assert (chosen.database_url, chosen.language) == ("sqlite+aiosqlite:///flag.db", "en")
    # Unset everywhere: the SQLite file in the data folder, data/ of this checkout wherever
    # the command is started from.
    checkout_data = Path(__file__).resolve().parents[1] / "data"
    assert (
        settings({}, {}, args()).database_url == f"sqlite+aiosqlite:///{checkout_data}/vahalite.db"
    )


def test_settings_name_the_homebrew_folder() -> None:
    """CODEX homebrew: a referee's folder of extra faction files, from config or environment."""
    config = {"codex": {"homebrew_dir": "from-config"}}
    assert settings({}, {}, args()).homebrew is None
    assert settings(config, {}, args()).homebrew == Path("from-config")
    env = {"VAHALITE_HOMEBREW_DIR": "from-env"}
    assert settings(config, env, args()).homebrew == Path("from-env")


def test_seats_remember_the_automatic_player() -> None:
    seats = Seats.new("greedy")
    users = {side: seats.user(side) for side in Side}
    assert Seats.of_users(users) == seats
    assert Seats.of_users(users).is_auto(N) and not seats.is_auto(S)
    hotseat = Seats.new(None)
    assert Seats.of_users({side: hotseat.user(side) for side in Side}).vs is None


def test_board_images_go_beside_the_database() -> None:
    assert boards_dir("sqlite+aiosqlite:///data/vahalite.db") == Path("data/boards")
    assert boards_dir("sqlite+aiosqlite:////tmp/x/game.db") == Path("/tmp/x/boards")
    assert boards_dir("postgresql+asyncpg://u@h/db") == Path("data/boards")


def test_quit_words_in_both_languages() -> None:
    assert is_quit("выход") and is_quit("Quit") and is_quit(" exit ")
    assert not is_quit("высадка tac1 C3") and not is_quit("exit tac1 C3")


def test_colours_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert Terminal(io.StringIO(), Tty()).paint is ansi
    assert Terminal(io.StringIO(), io.StringIO()).paint is plain
    monkeypatch.setenv("NO_COLOR", "1")
    assert Terminal(io.StringIO(), Tty()).paint is plain


def test_every_console_message_the_code_uses_is_in_both_catalogues() -> None:
    used: set[str] = set()
    for path in (p for folder in CONSOLE_SOURCES for p in folder.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'say\(\s*(?:self\.)?lang,\s*"([a-z0-9-]+)"', source))
    assert len(used) > 60
    for lang in LANGUAGES:
        known = message_ids(lang)
        missing = {key for key in used if f"console-{key}" not in known}
        assert missing == set(), lang
