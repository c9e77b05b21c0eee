"""INSERTs whose rows nobody reads back, queued straight on the SQLite driver.

A command's key, log entries and snapshots are written before the game's update and ride in
its trip (``sqlite_driver.LATER``). Through SQLAlchemy each still cost a whole statement's
execution (its context, cursor, result and three greenlet switches): two thirds of a move's
statements, for SQL that only waits in a queue. Here each table's INSERT is compiled once
per dialect and set of columns, its values converted by the columns' own bind processors
(what SQLAlchemy would send), and queued on the driver as SQLAlchemy's run would queue it.
On any other driver (PostgreSQL) it is SQLAlchemy's execution as before.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Insert, Table, insert
from sqlalchemy.engine import Connection, Dialect

from vahalite_bot.store.sqlite_driver import LATER, OneTripConnection

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    names: tuple[str, ...]  # the parameters in the SQL's order
    processors: tuple[Processor, ...]

    def values(self, row: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(
            row[name] if process is None else process(row[name])
            for name, process in zip(self.names, self.processors, strict=True)
        )


class LaterInsert:
    """``INSERT /* later */ INTO table``, for rows all with the same columns."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.statement: Insert = insert(table).prefix_with(LATER)
        # Per dialect (an engine's: its JSON serializer is its own), then per column set.
        self._compiled: weakref.WeakKeyDictionary[Dialect, dict[tuple[str, ...], _Compiled]] = (
            weakref.WeakKeyDictionary()
        )

    def run(self, connection: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Write ``rows`` in ``connection``'s transaction (on SQLite, with its next trip)."""
        if not rows:
            return
        driver = connection.connection.driver_connection
        if not isinstance(driver, OneTripConnection):
            connection.execute(self.statement, dict(rows[0]) if len(rows) == 1 else list(rows))
            return
        compiled = self._compile(connection.dialect, tuple(rows[0]))
        if len(rows) == 1:
            driver.defer(compiled.sql, compiled.values(rows[0]), many=False)
        else:
            driver.defer(compiled.sql, [compiled.values(row) for row in rows], many=True)

    def _compile(self, dialect: Dialect, columns: tuple[str, ...]) -> _Compiled:
        by_columns = self._compiled.setdefault(dialect, {})
        compiled = by_columns.get(columns)
        if compiled is None:
            sql = self.statement.compile(dialect=dialect, column_keys=list(columns))
            names = tuple(sql.positiontup or ())
            assert sorted(names) == sorted(columns), (names, columns)
            processors = tuple(
                self.table.c[name].type.dialect_impl(dialect).bind_processor(dialect)
                for name in names
            )
            compiled = by_columns[columns] = _Compiled(sql.string, names, processors)
        return compiled
