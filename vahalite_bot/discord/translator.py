"""Slash-command names and descriptions in each user's client language (Fluent catalogues)."""

from __future__ import annotations

from discord import Locale, app_commands

from vahalite_bot.i18n import MissingMessage, translate

# Discord locales we have a catalogue for; English is the commands' default text already.
_LOCALES = {Locale.russian: "ru", Locale.american_english: "en", Locale.british_english: "en"}


class FluentTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = _LOCALES.get(locale)
        key = string.extras.get("key")
        if lang is None or key is None:
            return None
        try:
            return translate(lang, key)
        except MissingMessage:
            return None
