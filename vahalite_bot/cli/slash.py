"""``vahalite commands sync [--guild ID] | clear [--guild ID]``: the slash commands on Discord.

The bot itself syncs at start, globally, and only when the commands changed since its last
sync (a hash in the data directory): Discord limits how often commands may be registered,
and its clients may take up to an hour to show new global ones. A server sync (``--guild``)
shows at once, which is what one wants while testing; the copies then appear twice in that
server (global and the server's) until ``vahalite commands clear --guild ID``. ``clear``
without ``--guild`` removes the global ones (the next start of the bot sends them again).
"""

from __future__ import annotations

import asyncio
import sys

import discord

from vahalite_bot.cli import logs
from vahalite_bot.cli.common import Common
from vahalite_bot.cli.start import NO_TOKEN, discord_options, load
from vahalite_bot.discord.options import DiscordOptions

EXIT_CONFIG = 2


def main(common: Common, guild: int | None, *, clear: bool) -> int:
    args, chosen = load([], common, prog="vahalite commands")
    logs.configure(chosen.log, secrets=(chosen.token,))
    if not chosen.token:
        print(NO_TOKEN.format(config=chosen.config_file), file=sys.stderr)
        return EXIT_CONFIG
    options = discord_options(chosen, args)
    from vahalite_bot.discord.client import point_at

    point_at(options)
    try:
        names = asyncio.run(_apply(options, guild, clear))
    except discord.LoginFailure:
        print("Discord refused the bot token: check [discord] token.", file=sys.stderr)
        return EXIT_CONFIG
    where = (
        "globally (Discord clients may take up to an hour)"
        if guild is None
        else (f"in server {guild} (at once)")
    )
    if clear:
        print(f"removed the slash commands {where}")
    else:
        print(f"sent {len(names)} command group(s) {where}: {', '.join(names)}")
    return 0


async def _apply(options: DiscordOptions, guild: int | None, clear: bool) -> list[str]:
    from vahalite_bot.app import GameService
    from vahalite_bot.codex.loader import codex_factions
    from vahalite_bot.discord.client import VahaBot
    from vahalite_bot.store.database import open_database

    factions = codex_factions(options.homebrew)
    # The commands do not depend on any game: a database of nothing, never opened.
    db = await open_database("sqlite+aiosqlite:///:memory:", upgrade=False)
    bot = VahaBot(options, GameService(db), factions, message_content=False, serving=False)
    try:
        async with bot:
            await bot.login(options.token)  # REST only: no gateway session
            target = None if guild is None else discord.Object(guild)
            if clear:
                bot.tree.clear_commands(guild=target)
                await bot.tree.sync(guild=target)
                if target is None and options.sync_file is not None:
                    # The next start must send them again.
                    options.sync_file.unlink(missing_ok=True)
                return []
            if target is None:
                await bot.sync_commands(force=True)
            else:
                bot.tree.copy_global_to(guild=target)
                await bot.tree.sync(guild=target)
            return [c.name for c in bot.tree.get_commands()]
    finally:
        await bot.workers.close()
        await db.close()
