"""One cog per area; their commands all live under the one ``/vl`` group.

discord.py gives each cog its own top-level commands (or its own group, with ``GroupCog``);
``AreaCog`` instead hands its bound commands to the bot's shared ``/vl`` group, so three
small cogs make one command group.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

if TYPE_CHECKING:
    from vahalite_bot.discord.client import VahaBot


class AreaCog(commands.Cog):
    def __init__(self, bot: VahaBot) -> None:
        self.bot = bot
        for command in self.__cog_app_commands__:
            bot.vl.add_command(command)
        # Nothing left for discord.py to add at the top level.
        self.__cog_app_commands__ = []
