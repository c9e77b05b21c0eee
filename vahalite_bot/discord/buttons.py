"""Persistent buttons: each custom id carries the verb, the game id and the version it was
drawn for (``vl:end:12:40``), so a press works after a restart and a press on an old message
is told the game moved on. discord.py matches them by template (``DynamicItem``), whatever
process posted them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from vahalite_bot.app import GameStatus
from vahalite_bot.app.results import ENDED, LOBBY
from vahalite_bot.discord import decisions
from vahalite_bot.discord.words import say
from vahalite_bot.rules.scenario import Side
from vahalite_bot.rules.state import Phase

if TYPE_CHECKING:
    from vahalite_bot.discord.client import VahaBot

# verb -> (label message, style)
VERBS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "join": ("btn-join", discord.ButtonStyle.success),
    "bot": ("btn-bot", discord.ButtonStyle.secondary),
    "end": ("btn-end", discord.ButtonStyle.primary),
    "undo": ("btn-undo", discord.ButtonStyle.secondary),
    "board": ("btn-board", discord.ButtonStyle.secondary),
    "odds": ("btn-odds", discord.ButtonStyle.secondary),
    "ua": ("btn-accept", discord.ButtonStyle.success),  # an undo request: accept
    "ud": ("btn-decline", discord.ButtonStyle.danger),  # ... decline
    "agree": ("btn-agree", discord.ButtonStyle.success),  # a pause (or resume) request
    "ry": ("btn-yes", discord.ButtonStyle.danger),  # resign: yes
    "rn": ("btn-no", discord.ButtonStyle.secondary),  # resign: no
    decisions.ALL_ADVANCE: ("btn-all-advance", discord.ButtonStyle.primary),  # M3
    decisions.NO_RESERVES: ("btn-no-reserves", discord.ButtonStyle.primary),  # M5
}
# A question for one user (resign: Yes/No) also carries who asked: only they may answer.
TEMPLATE = (
    r"vl:(?P<verb>[a-z]+):(?P<game>[0-9]{1,12}):(?P<version>[0-9]{1,12})"
    r"(?::(?P<user>[0-9]{1,20}))?"
)


def custom_id(verb: str, game: int, version: int, user: int | None = None) -> str:
    return f"vl:{verb}:{game}:{version}" + ("" if user is None else f":{user}")


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(
        self, verb: str, game: int, version: int, lang: str = "en", user: int | None = None
    ) -> None:
        label, style = VERBS[verb]
        super().__init__(
            discord.ui.Button(
                label=say(lang, label),
                style=style,
                custom_id=custom_id(verb, game, version, user),
            )
        )
        self.verb, self.game, self.version, self.user = verb, game, version, user

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        verb = match["verb"]
        if verb not in VERBS:
            raise ValueError(f"unknown button verb {verb!r}")
        user = None if match["user"] is None else int(match["user"])
        return cls(verb, int(match["game"]), int(match["version"]), user=user)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: VahaBot = interaction.client
        await bot.presses.press(interaction, self.verb, self.game, self.version, self.user)


class Buttons(discord.ui.View):
    """Buttons as Discord's component rows, composed directly. A press finds its
    ``GameButton`` by the custom id's template (registered once, at start), so nothing of the
    view is kept after it is sent; building a ``GameButton`` of each (its component, a
    template check of its custom id, a place in a row) cost more than the post's text."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self._rows


# Discord's buttons in one action row, at most.
ROW_WIDTH = 5


def view_of(
    verbs: list[str], game: int, version: int, lang: str, *, user: int | None = None
) -> discord.ui.View | None:
    """The buttons ``verbs``; with ``user``, a question only that user may answer."""
    if not verbs:
        return None
    items = [_button(verb, custom_id(verb, game, version, user), lang) for verb in verbs]
    rows = [
        {"type": discord.ComponentType.action_row.value, "components": items[i : i + ROW_WIDTH]}
        for i in range(0, len(items), ROW_WIDTH)
    ]
    return Buttons(rows)


def _button(verb: str, custom: str, lang: str) -> dict[str, Any]:
    """A button as ``GameButton`` draws it."""
    label, style = VERBS[verb]
    return {
        "type": discord.ComponentType.button.value,
        "style": style.value,
        "disabled": False,
        "label": say(lang, label),
        "custom_id": custom,
    }


def turn_view(status: GameStatus, lang: str, *, asked: bool = False) -> discord.ui.View | None:
    """The buttons of the moment under a game's post (``asked``: a player has just asked to
    pause or resume, and the other may agree)."""
    return view_of(turn_verbs(status, asked), status.game_id, status.version, lang)


def turn_verbs(status: GameStatus, asked: bool = False) -> list[str]:
    if asked:
        return ["agree", "board"]
    if status.status == LOBBY:
        return ["join", "bot"] if Side.NORTH not in {p.side for p in status.players} else []
    if status.status == ENDED or status.state is None:
        return ["board"]
    if status.undo_request is not None:
        return ["ua", "ud", "board"]
    if status.state.phase is Phase.PLAYING:
        return decisions.decision_verbs(status.state) or ["end", "undo", "board", "odds"]
    return ["board"]
