"""The Discord adapter: thin cogs over the GameService, the way the console uses it.

Nothing outside this package imports discord. The pieces:

- ``options``: what the bot is started with; ``client``: the bot itself (intents, the command
  tree, the worker pool, the cogs) and ``run_discord``;
- ``cogs/``: one cog per area (``lobby``, ``play``, ``info``), each a few lines per command;
- ``room``: what is posted in a game's thread or forum post (the outcome of every change with
  its board image, the pinned status, forum tags, missing permissions);
- ``buttons``: persistent buttons whose custom ids carry the game id and version;
- ``choices``: autocomplete from the engine's own answers;
- ``identity``: who calls (an ``Actor`` tied to the server it speaks for) and in which language;
- ``translator``: command names and descriptions from the Fluent catalogues;
- ``tree``: the one error handler; ``workers``: the pool for CPU work (images, the bot player),
  ``worker`` what runs in each of its processes;
- ``health``: the event loop's stall watch; ``eventloop``: which loop runs (uvloop's).
"""

from vahalite_bot.discord.options import DiscordOptions

__all__ = ["DiscordOptions", "run_discord"]


def run_discord(options: DiscordOptions) -> int:
    """Run the bot until it is stopped; 2 for a bad token or a refused intent."""
    from vahalite_bot.discord.client import run

    return run(options)
