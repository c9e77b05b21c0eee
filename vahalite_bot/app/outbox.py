"""The outbox of the deadline loop (rulebook N1): every announcement the service commits (a
reminder, an expired turn, a forfeit) is a row written in the same transaction, so that a
crash between the commit and the post loses nothing.

A process claims rows for a while (``FOR UPDATE SKIP LOCKED`` on PostgreSQL: two processes
never claim one row at once), posts each with its nonce (Discord keeps one message per
nonce: a post whose mark was lost to a crash is not made twice), and marks them posted.
A claim whose holder died runs out, and the row is claimed again.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from vahalite_bot.app.book import Book
from vahalite_bot.app.commands import Commands
from vahalite_bot.app.deadlines import Expiry
from vahalite_bot.app.results import EXPIRED, REMINDER, Announcement
from vahalite_bot.rules.scenario import Side
from vahalite_bot.store import repository as repo
from vahalite_bot.store.models import Announcement as Row

# How long a claim holds: longer than a post takes, short enough that a crashed process's
# announcements go out soon after it restarts (or from another process).
CLAIM_SECONDS = 30
# A posted announcement is kept this long (to see what went out, in the database), then
# dropped, so that a bot running for months keeps no ever-growing outbox.
KEEP_POSTED = timedelta(days=30)


class Outbox(Commands):
    async def claim_announcements(
        self, now: datetime, *, limit: int = 20, seconds: int = CLAIM_SECONDS
    ) -> list[Announcement]:
        """Announcements to post now, oldest first, held by this caller for ``seconds``."""
        async with self.db.write() as session:
            rows = await repo.claim_announcements(
                session, now, now + timedelta(seconds=seconds), limit
            )
            return [_announcement(row) for row in rows]

    async def mark_announced(self, ids: list[int], now: datetime) -> None:
        """Posted: never claimed again (and dropped after ``KEEP_POSTED``)."""
        if ids:
            async with self.db.write() as session:
                await repo.mark_announced(session, ids, now)
                await repo.prune_announcements(session, now - KEEP_POSTED)


async def add_expiry(book: Book, expiry: Expiry) -> None:
    """The expiry's announcement, in the transaction of the expiry (after ``book.flush``)."""
    user = book.user_of(expiry.side)
    assert user is not None
    data = {
        "side": expiry.side.value,
        "user": user,
        "missed": expiry.missed,
        "forfeit": expiry.forfeit,
        "setup": expiry.setup,
    }
    await _add(
        book.session, book.game_id, EXPIRED, book.loaded.version, book.version, data, book.now
    )


async def add_reminder(
    session: AsyncSession,
    now: datetime,
    game_id: int,
    version: int,
    side: Side,
    user: str,
    due_at: datetime,
) -> None:
    """A reminder's announcement, in the transaction that claims the reminder."""
    data = {"side": side.value, "user": user, "due_at": due_at.isoformat()}
    await _add(session, game_id, REMINDER, version, version, data, now)


async def _add(
    session: AsyncSession,
    game_id: int,
    kind: str,
    since: int,
    version: int,
    data: dict[str, Any],
    now: datetime,
) -> None:
    values = {
        "game_id": game_id,
        "kind": kind,
        "version_from": since,
        "version": version,
        "data": data,
        "created_at": now,
    }
    await repo.add_announcement(session, values)


def _announcement(row: Row) -> Announcement:
    data = row.data
    due = data.get("due_at")
    return Announcement(
        id=row.id,
        game_id=row.game_id,
        kind=row.kind,
        version_from=row.version_from,
        version=row.version,
        side=Side(data["side"]),
        user=data["user"],
        due_at=None if due is None else datetime.fromisoformat(due),
        missed=int(data.get("missed", 0)),
        forfeit=bool(data.get("forfeit", False)),
        setup=bool(data.get("setup", False)),
    )
