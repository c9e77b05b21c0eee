"""Persistence: SQLAlchemy models, the append-only game log, snapshots, migrations at start."""

from vahalite_bot.store.database import DEFAULT_URL, Database, configured_url, open_database

__all__ = ["DEFAULT_URL", "Database", "configured_url", "open_database"]
