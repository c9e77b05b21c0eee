"""Every message the bot can compose fits Discord's limits, in both languages, with the
worst arguments a game can give (the longest unit and player names, 20-digit mentions,
long logs, 25-entry lists): content is cut to 2,000 characters at a line, never over; every
forum tag, thread name, button label, modal text, command and choice fits as it is.

The command tree checked is the real one discord.py would sync, translations included, and
it is judged by the stand-in's own rules (tests/standin/contract.py), the same ones the
end-to-end tests meet.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fluent.syntax import FluentParser, ast
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.golden.states import mid_game
from tests.standin import contract
from vahalite_bot.app import GameService
from vahalite_bot.codex.loader import all_sheets, codex_factions
from vahalite_bot.discord import buttons, choices
from vahalite_bot.discord.house import house_suggestions, scenario_suggestions
from vahalite_bot.discord.words import MESSAGE_LIMIT, fit
from vahalite_bot.i18n import LANGUAGES, LOCALES, translate
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import GameState
from vahalite_bot.scenarios.loader import load_scenarios

LANGS = st.sampled_from(LANGUAGES)
DISPLAY_NAME = 32  # Discord's longest display name


@cache
def _variables() -> dict[str, tuple[str, ...]]:
    """Every message id with the variables its text uses in either language (the
    catalogues hold the same ids: tests/test_i18n.py)."""
    found: dict[str, set[str]] = {}
    for lang in LANGUAGES:
        for path in sorted((LOCALES / lang).glob("*.ftl")):
            resource = FluentParser().parse(path.read_text(encoding="utf-8"))
            for entry in resource.body:
                if isinstance(entry, ast.Message) and entry.value is not None:
                    _collect(entry.value, found.setdefault(entry.id.name, set()))

    def closed(key: str, seen: frozenset[str] = frozenset()) -> set[str]:
        # "@other-message" stands for a message the text refers to: its variables count.
        names = {n for n in found.get(key, set()) if not n.startswith("@")}
        for ref in (n[1:] for n in found.get(key, set()) if n.startswith("@")):
            if ref not in seen:
                names |= closed(ref, seen | {key})
        return names

    return {key: tuple(sorted(closed(key))) for key in found}


def _collect(node: Any, names: set[str]) -> None:
    if isinstance(node, ast.VariableReference):
        names.add(node.id.name)
    if isinstance(node, ast.MessageReference):
        names.add("@" + node.id.name)
    if isinstance(node, ast.BaseNode):
        for value in vars(node).values():
            for child in value if isinstance(value, list) else [value]:
                _collect(child, names)


@cache
def _longest_unit_names() -> list[str]:
    names = [
        sheet.name.get(lang)
        for sheet in all_sheets(codex_factions()).values()
        for lang in LANGUAGES
    ]
    return sorted(names, key=len, reverse=True)[:3]


def _worst() -> st.SearchStrategy[Any]:
    """Arguments as a game gives them at their longest (and some plain text and numbers)."""
    mention = "<@" + "9" * 20 + ">"
    return st.one_of(
        st.sampled_from(
            [
                *_longest_unit_names(),
                "W" * DISPLAY_NAME,
                mention,
                "\n".join([mention + " " + _longest_unit_names()[0]] * 25),
                "x" * 900,
            ]
        ),
        st.text(max_size=120),
        st.integers(min_value=0, max_value=10**6),
    )


@st.composite
def composed(draw: st.DrawFn) -> tuple[str, str, str]:
    """(lang, message id, the message with worst-case arguments)."""
    table = _variables()
    key = draw(st.sampled_from(sorted(table)))
    lang = draw(LANGS)
    args = {name: draw(_worst()) for name in table[key]}
    return lang, key, translate(lang, key, **args)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(composed(), min_size=1, max_size=60))
def test_any_post_of_any_messages_is_cut_to_discords_limit_at_a_line(
    parts: list[tuple[str, str, str]],
) -> None:
    """A post joins messages line by line (narration, a long log, a 25-entry list); the bot
    cuts whatever it composed (room._send, tree.tell) with ``fit``."""
    text = "\n".join(message for _, _, message in parts)
    sent = fit(text)
    assert len(sent) <= MESSAGE_LIMIT
    if len(text) <= MESSAGE_LIMIT:
        assert sent == text
    else:
        kept = sent.removesuffix("\n…")
        assert text.startswith(kept) and sent.endswith("…")


# -- texts that are never cut: they must fit as written ----------------------------------------
def _single(lang: str, key: str, **args: Any) -> str:
    return translate(lang, key, **args)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_forum_tags_thread_names_buttons_and_the_modal_fit(lang: str) -> None:
    for status in ("open", "playing", "finished"):
        tag = _single(lang, f"discord-tag-{status}")
        assert 1 <= len(tag) <= contract.FORUM_TAG_NAME, tag
    thread = _single(lang, "discord-thread-name", creator="W" * DISPLAY_NAME)
    assert 1 <= len(thread) <= contract.THREAD_NAME
    for label, _ in buttons.VERBS.values():
        assert 1 <= len(_single(lang, f"discord-{label}")) <= contract.BUTTON_LABEL, label
    assert len(_single(lang, "discord-modal-title")) <= contract.MODAL_TITLE
    assert len(_single(lang, "discord-modal-label")) <= contract.INPUT_LABEL
    assert len(_single(lang, "discord-modal-placeholder")) <= contract.PLACEHOLDER
    post_failed = _single(lang, "discord-post-failed", status=503)
    assert len(post_failed) <= MESSAGE_LIMIT


def test_every_custom_id_fits() -> None:
    longest = buttons.custom_id("no-reserves", 10**12 - 1, 10**12 - 1)
    assert len(longest) <= contract.CUSTOM_ID
    assert len(f"vl:army:{10**12 - 1}") <= contract.CUSTOM_ID


# -- the command tree discord.py would sync ------------------------------------------------------
async def test_the_real_command_tree_with_its_translations_is_what_discord_accepts(
    tmp_path: Path,
) -> None:
    from vahalite_bot.discord.client import VahaBot
    from vahalite_bot.discord.cogs.info import InfoCog
    from vahalite_bot.discord.cogs.lobby import LobbyCog
    from vahalite_bot.discord.cogs.play import PlayCog
    from vahalite_bot.discord.cogs.referee import RefereeCog
    from vahalite_bot.discord.options import DiscordOptions
    from vahalite_bot.discord.translator import FluentTranslator
    from vahalite_bot.store.database import open_database

    url = f"sqlite+aiosqlite:///{tmp_path / 'v.db'}"
    db = await open_database(url)
    factions = codex_factions()
    service = GameService(db, sheets=all_sheets(factions))
    bot = VahaBot(DiscordOptions("token", url, workers=1), service, factions, message_content=True)
    try:
        translator = FluentTranslator()
        await bot.tree.set_translator(translator)
        bot.lobby = LobbyCog(bot)
        for cog in (bot.lobby, PlayCog(bot), InfoCog(bot), RefereeCog(bot)):
            await bot.add_cog(cog)
        bot.tree.add_command(bot.vl)
        payloads = [
            await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands()
        ]
        assert contract.command_problems(payloads) == {}
        # The checks bite: the whole tree is there, Russian names and all.
        subcommands = payloads[0]["options"]
        assert len(subcommands) > 20
        assert all(s["name_localizations"].get("ru") for s in subcommands)
    finally:
        await bot.workers.close()
        await db.close()


# -- autocomplete -------------------------------------------------------------------------------
def _fits(found: list[tuple[str, str]]) -> None:
    assert len(found) <= contract.CHOICES
    for name, value in found:
        assert 1 <= len(name) <= contract.CHOICE_NAME, name
        assert len(value) <= contract.CHOICE_VALUE, value


def _state() -> GameState:
    state = mid_game().before
    assert state is not None
    return state


TYPED = st.one_of(st.text(max_size=40), st.sampled_from(["", "a", "A1", "м", "tac", "M", ","]))


@settings(max_examples=150, deadline=None)
@given(typed=TYPED, lang=LANGS)
def test_autocomplete_answers_fit_whatever_is_typed(typed: str, lang: str) -> None:
    _fits(house_suggestions(typed, lang))
    _fits(house_suggestions(",".join(["M1"] * 9 + [typed]), lang))
    _fits(scenario_suggestions(typed, lang, load_scenarios()))
    state = _state()
    for side in Side:
        _fits(choices.units(state, side, typed, lang))
        _fits(choices.all_units(state, typed, lang, side))
    for unit in _units(state):
        _fits(choices.move_cells(state, unit, typed))
        _fits(choices.targets(state, unit, typed, lang))
        _fits(choices.transports(state, unit, typed, lang))


def _units(state: GameState) -> Iterator[str]:
    yield from (u.id for u in state.units.values() if not u.destroyed)
