"""The adapter's words: ``discord-*`` messages, the caller's language, localized command text."""

from __future__ import annotations

from typing import Any

from discord import Locale, app_commands

from vahalite_bot.i18n import DEFAULT_LANGUAGE, translate

# Discord's message limit; replies are cut to fit with a mark, never refused by Discord.
MESSAGE_LIMIT = 2000


def say(lang: str, key: str, **args: Any) -> str:
    """The message ``discord-<key>``."""
    return translate(lang, f"discord-{key}", **args)


def lang_of(locale: Locale | str | None, fallback: str = DEFAULT_LANGUAGE) -> str:
    """The catalogue language for a Discord client locale: Russian or English."""
    if locale is None:
        return fallback
    value = locale.value if isinstance(locale, Locale) else str(locale)
    if value.startswith("ru"):
        return "ru"
    if value.startswith("en"):
        return "en"
    return fallback


def text(key: str) -> app_commands.locale_str:
    """A command's name or description: English by default, every language by the translator."""
    return app_commands.locale_str(translate("en", f"discord-{key}"), key=f"discord-{key}")


def fit(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` cut to Discord's limit, at a line break where there is one."""
    if len(message) <= limit:
        return message
    cut = message.rfind("\n", 0, limit - 2)
    if cut < limit // 2:
        cut = limit - 2
    return message[:cut] + "\n…"
