"""The one error handler: refusals become ephemeral messages in the user's language that say
what to type instead; anything else gets a short error id, and its traceback is logged with
that id. Nothing a user does can stop the bot or break a game.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from vahalite_bot.app import ServiceError
from vahalite_bot.discord.retry import PostFailed, retried
from vahalite_bot.discord.words import fit, lang_of, say
from vahalite_bot.orders import OrderProblem, describe_refusal
from vahalite_bot.rules.errors import IllegalAction

log = logging.getLogger(__name__)


class Refusal(Exception):
    """A refusal of the adapter's own (``discord-<key>``), e.g. no game in this channel."""

    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key)
        self.key, self.args_ = key, args

    def describe(self, lang: str) -> str:
        return say(lang, self.key, **self.args_)


REFUSALS = (ServiceError, IllegalAction, OrderProblem, Refusal, PostFailed)


def describe(error: Exception, lang: str) -> str:
    """A refusal in ``lang``: the service's, the engine's, the orders' or the adapter's."""

    def other(error: Exception, lang: str) -> str:
        if isinstance(error, ServiceError | Refusal | PostFailed):
            return error.describe(lang)
        return str(error)

    return describe_refusal(error, lang, other)


async def report(interaction: discord.Interaction[Any], error: Exception) -> None:
    """Tell the user (ephemerally) what went wrong."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.original if isinstance(error.original, Exception) else error  # type: ignore[union-attr]
    lang = lang_of(interaction.locale)
    if isinstance(error, REFUSALS):
        text = describe(error, lang)
    else:
        ident = secrets.token_hex(4)
        log.error("error %s in interaction %s", ident, interaction.id, exc_info=error)
        text = say(lang, "unexpected", id=ident)
    await tell(interaction, text)


async def tell(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was deferred."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    files = [kwargs["file"]] if "file" in kwargs else []
    try:
        if interaction.response.is_done():
            followup = interaction.followup
            await retried(
                lambda: followup.send(fit(text), ephemeral=True, **kwargs), "an answer", files
            )
        else:
            await interaction.response.send_message(fit(text), ephemeral=True, **kwargs)
    except (discord.HTTPException, PostFailed):
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


class VahaTree(app_commands.CommandTree[Any]):
    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)
