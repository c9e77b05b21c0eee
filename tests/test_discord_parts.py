"""The Discord adapter's pure parts, without any server: command names and descriptions in
both languages within Discord's limits, autocomplete against the engine's answers, the cut
of long messages, the caller's language, the settings that start the bot."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import discord
import pytest
from discord import app_commands

import bot
from tests.golden.states import mid_game
from vahalite_bot.discord import choices
from vahalite_bot.discord.buttons import VERBS, GameButton, view_of
from vahalite_bot.discord.echoes import EchoFreeState
from vahalite_bot.discord.intents import gateway_intents
from vahalite_bot.discord.translator import FluentTranslator
from vahalite_bot.discord.words import MESSAGE_LIMIT, fit, lang_of
from vahalite_bot.i18n import message_ids, translate
from vahalite_bot.rules import combat, engine, movement
from vahalite_bot.rules.actions import EndTurn
from vahalite_bot.rules.dice import FairDice
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState

# Discord's rule for command and option names (lowercase letters of any script, digits, - _).
NAME = re.compile(r"^[-_\w]{1,32}$")


def playing_state() -> GameState:
    """A busy mid-game board (every terrain kind and unit type), South to move and attack."""
    before = mid_game().before
    assert before is not None
    return before


def _keys(suffix: str) -> list[str]:
    return sorted(
        k
        for k in message_ids("en")
        if k.startswith(("discord-cmd-", "discord-opt-")) and k.endswith(suffix)
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_command_names_and_descriptions_fit_discord(lang: str) -> None:
    names = [k for k in _keys("") if not k.endswith("-desc")]
    assert len(names) > 30
    for key in names:
        name = translate(lang, key)
        assert NAME.match(name) and name == name.lower(), (key, name)
        description = translate(lang, key + "-desc")
        assert 1 <= len(description) <= 100, (key, description)


def test_the_translator_gives_russian_and_leaves_other_locales_to_the_default() -> None:
    translator = FluentTranslator()
    move = app_commands.locale_str("move", key="discord-cmd-move")
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, None
    )

    async def ask(locale: discord.Locale) -> str | None:
        return await translator.translate(move, locale, context)

    assert asyncio.run(ask(discord.Locale.russian)) == "ход"
    assert asyncio.run(ask(discord.Locale.american_english)) == "move"
    assert asyncio.run(ask(discord.Locale.german)) is None


def test_the_callers_language() -> None:
    assert lang_of(discord.Locale.russian) == "ru"
    assert lang_of("en-GB") == "en"
    assert lang_of(discord.Locale.german, "ru") == "ru"
    assert lang_of(None, "en") == "en"


def test_long_messages_are_cut_at_a_line_to_discords_limit() -> None:
    text = "\n".join(f"line {n} " + "x" * 50 for n in range(200))
    cut = fit(text)
    assert len(cut) <= MESSAGE_LIMIT and cut.endswith("\n…")
    assert cut[:-2] == text[: len(cut) - 2] and text[len(cut) - 2] == "\n"
    assert fit("short") == "short"
    assert len(fit("y" * 5000)) <= MESSAGE_LIMIT  # no line break to cut at


def test_autocomplete_offers_exactly_the_engines_moves_and_targets() -> None:
    state = playing_state()
    side = state.active
    assert side is not None
    units = choices.units(state, side, "", "en")
    ready = [
        u
        for u in state.living(side)
        if movement.reachable(state, u) or combat.attack_options(state, u)
    ]
    assert {v for _, v in units} == {u.id for u in ready}
    assert choices.units(state, side.other, "", "en") == []  # not their turn
    for unit in ready:
        cells = {v for _, v in choices.move_cells(state, unit.id, "")}
        assert cells == {c.name for c in movement.reachable(state, unit)}
        targets = choices.targets(state, unit.id, "", "en")
        assert {v for _, v in targets} == {o.target for o in combat.attack_options(state, unit)}
        hurt = [float(n.split("—")[-1].split("%")[0].strip().lstrip("<>") or 0) for n, _ in targets]
        assert hurt == sorted(hurt, reverse=True)  # best first


def test_remembered_acting_units_follow_the_version() -> None:
    state = playing_state()
    side = state.active
    assert side is not None
    remembered = choices.ActingUnits()
    before = remembered.of(3, 40, state, side)
    assert before and set(before) == set(choices.acting_units(state, side))
    ended, _ = engine.apply(state, EndTurn(side), FairDice(b"seed"))
    # The same game one version on: the other side's turn, nothing of this side acts.
    assert remembered.of(3, 41, ended, side) == ()
    assert set(remembered.of(3, 41, ended, side.other)) == set(
        choices.acting_units(ended, side.other)
    )
    assert remembered.of(4, 40, ended, side) == ()  # another game at the same version


def test_autocomplete_filters_by_what_is_typed_and_stops_at_25() -> None:
    state = playing_state()
    side = state.active
    assert side is not None
    unit = next(u for u in state.living(side) if movement.reachable(state, u))
    every = choices.move_cells(state, unit.id, "")
    typed = every[0][1][0]  # a column letter
    some = choices.move_cells(state, unit.id, typed.lower())
    assert some and all(typed in v for _, v in some)
    many = [(f"c{n}", f"c{n}") for n in range(60)]
    assert len(choices._matching(many, "")) == choices.LIMIT


def test_a_token_runs_the_bot_and_the_console_flag_does_not(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[discord]\ntoken = "abc"\napi_base = "http://127.0.0.1:1/api/v10"\nworkers = 3\n'
        "shard_ids = [0, 1]\nshard_count = 4\n"
    )
    args = bot.parse_args(["--config", str(config)])
    chosen = bot.settings(bot.read_config(config), {}, args)
    options = bot.discord_options(chosen, args)
    assert options.token == "abc" and options.api_base.startswith("http://127.0.0.1:1")
    assert options.workers == 3 and options.shard_ids == (0, 1) and options.shard_count == 4
    flagged = bot.parse_args(["--config", str(config), "--shard-ids", "2,3", "--shard-count", "8"])
    again = bot.discord_options(bot.settings(bot.read_config(config), {}, flagged), flagged)
    assert again.shard_ids == (2, 3) and again.shard_count == 8
    env = bot.settings(bot.read_config(config), {"VAHALITE_DISCORD_TOKEN": "xyz"}, args)
    assert env.token == "xyz"


def test_shard_ids_without_a_count_are_refused(tmp_path: Path) -> None:
    args = bot.parse_args(["--config", str(tmp_path / "none.toml"), "--shard-ids", "0"])
    chosen = bot.settings({}, {"VAHALITE_DISCORD_TOKEN": "t"}, args)
    with pytest.raises(SystemExit, match="shard-count"):
        bot.discord_options(chosen, args)


def test_odds_lines_name_every_attack_with_exact_odds() -> None:
    state = playing_state()
    side = state.active
    assert side is not None
    expected = sum(len(combat.attack_options(state, u)) for u in state.living(side))
    lines = choices.odds_lines(state, side, "ru")
    assert len(lines) == expected
    assert all("%" in line for line in lines)
    assert side is Side.SOUTH or side is Side.NORTH


def _echo_state(
    events: list[tuple[str, tuple[object, ...]]], loop: asyncio.AbstractEventLoop
) -> EchoFreeState:
    """The bot's connection state as ``VahaBot`` makes it, logged in as user 1, recording
    what it dispatches."""
    state = EchoFreeState(
        dispatch=lambda event, *args: events.append((event, args)),
        handlers={},
        hooks={},
        http=discord.http.HTTPClient(loop),
        intents=gateway_intents(True),
        max_messages=None,
    )
    state.user = discord.ClientUser(state=state, data=_user(1, bot=True))
    return state


def _user(user: int, *, bot: bool = False) -> dict[str, object]:
    return {
        "id": str(user),
        "username": f"u{user}",
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


def _message(message: int, author: int) -> dict[str, object]:
    return {
        "id": str(message),
        "channel_id": "10",
        "author": _user(author, bot=author == 1),
        "content": "tac1 C4",
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "components": [],
    }


def test_the_bots_own_messages_echoed_by_the_gateway_are_not_parsed() -> None:
    events: list[tuple[str, tuple[object, ...]]] = []
    loop = asyncio.new_event_loop()
    try:
        _feed_echoes(_echo_state(events, loop))
    finally:
        loop.close()
    assert [name for name, _ in events] == ["message", "raw_message_edit"]
    message = events[0][1][0]
    assert isinstance(message, discord.Message) and message.id == 101


def _feed_echoes(state: EchoFreeState) -> None:
    """The bot's own post and its edit, then a player's."""
    state.parsers["MESSAGE_CREATE"](_message(100, author=1))
    state.parsers["MESSAGE_UPDATE"](_message(100, author=1))
    state.parsers["MESSAGE_CREATE"](_message(101, author=2))
    state.parsers["MESSAGE_UPDATE"](_message(101, author=2))


@pytest.mark.parametrize("verbs", [["end", "undo", "board", "odds"], ["ry", "rn"], list(VERBS)])
def test_composed_buttons_are_those_the_dynamic_item_answers(verbs: list[str]) -> None:
    """The rows sent under a post are what discord.py lays out of ``GameButton``s, the items
    that answer the presses: same labels, styles, custom ids, five to a row."""

    async def both() -> tuple[object, object]:
        laid_out = discord.ui.View(timeout=None)
        for verb in verbs:
            laid_out.add_item(GameButton(verb, 12, 40, "ru", 7))
        composed = view_of(verbs, 12, 40, "ru", user=7)
        assert composed is not None
        return composed.to_components(), laid_out.to_components()

    composed, laid_out = asyncio.run(both())
    assert composed == laid_out
