"""The gateway's echo of the bot's own messages, left unparsed.

With the message-content intent Discord sends the bot a MESSAGE_CREATE for every post it
makes itself (each command's answer, each recap) and a MESSAGE_UPDATE for every edit of its
pinned status. discord.py would build a whole ``Message`` of each (author, mentions,
attachments, components) and start the ``on_message`` listeners on it, all to be dropped:
the bot reads players' orders only, keeps no message cache (``max_messages=None``) and
listens to no edit. The state below drops those echoes before any of that; everyone else's
messages go through discord.py unchanged.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.state import AutoShardedConnectionState

# Channels whose last message id discord.py keeps (its own list in ``parse_message_create``).
_TRACKS_LAST = (discord.TextChannel, discord.VoiceChannel, discord.Thread, discord.StageChannel)


class EchoFreeState(AutoShardedConnectionState[Any]):
    """discord.py's sharded state, but the bot's own messages are not parsed."""

    def _own(self, data: Any) -> bool:
        author = data.get("author")
        return author is not None and self.self_id is not None and int(author["id"]) == self.self_id

    def parse_message_create(self, data: Any) -> None:
        if not self._own(data):
            super().parse_message_create(data)
            return
        # What discord.py keeps of a message besides the message itself.
        channel, _ = self._get_guild_channel(data)
        if channel.__class__ in _TRACKS_LAST:
            channel.last_message_id = int(data["id"])

    def parse_message_update(self, data: Any) -> None:
        # A message whose view discord.py tracks updates that view from the edit: that one
        # still goes through (the bot's buttons are dynamic items, never tracked).
        if not self._own(data) or (
            "components" in data and self._view_store.is_message_tracked(_view_key(data))
        ):
            super().parse_message_update(data)


def _view_key(data: Any) -> int:
    """The key discord.py files a message's view under: its interaction's id, else its own."""
    try:
        return int(data["interaction"]["id"])
    except (KeyError, TypeError, ValueError):
        return int(data["id"])
