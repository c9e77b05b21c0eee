"""The gateway's echoes of the bot's own posts and edits, dropped before discord.py builds a
``Message`` of them.

Every post of the bot comes back as MESSAGE_CREATE, every edit of the pinned status as
MESSAGE_UPDATE: two events a command that the bot never reads (text orders are people's, and
no message cache is kept). discord.py would build a ``Message`` of each and start a task
per ``on_message`` listener only for them to return at once; that was a good part of the
main process's CPU per command. An edit that carries components still goes through:
discord.py follows the buttons of the messages it tracks from those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Parser = Callable[[Any], None]


def drop_own_echoes(state: Any) -> None:
    """Wrap ``state``'s (discord.py's ``ConnectionState``) parsers of MESSAGE_CREATE and
    MESSAGE_UPDATE, in place: the gateway reads that very mapping."""
    parsers: dict[str, Parser] = state.parsers

    def own(data: Any) -> bool:
        author = data.get("author")
        me = state.self_id
        return author is not None and me is not None and author.get("id") == str(me)

    def wrap(parse: Parser, keep: Callable[[Any], bool]) -> Parser:
        def parser(data: Any) -> None:
            if own(data) and not keep(data):
                return
            parse(data)

        return parser

    parsers["MESSAGE_CREATE"] = wrap(parsers["MESSAGE_CREATE"], lambda data: False)
    parsers["MESSAGE_UPDATE"] = wrap(
        parsers["MESSAGE_UPDATE"], lambda data: bool(data.get("components"))
    )
