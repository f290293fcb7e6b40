"""The database handle: one engine per process, sessions as transactions."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from cutline.store.tables import Base


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            path = url.removeprefix("sqlite:///")
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
            _configure_sqlite(self.engine)
            # Write transactions take SQLite's write lock up front (BEGIN IMMEDIATE): a deferred
            # transaction that reads and then writes can fail at once with "database is locked".
            write_engine: Engine = self.engine.execution_options(cutline_write=True)
        else:
            self.engine = create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)
            write_engine = self.engine
        self._read = sessionmaker(self.engine, expire_on_commit=False)
        self._write = sessionmaker(write_engine, expire_on_commit=False)

    def create_all(self) -> None:
        Base.metadata.create_all(self.engine)

    @contextmanager
    def session(self, *, write: bool = False) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        factory = self._write if write else self._read
        with factory() as session, session.begin():
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control from pysqlite so BEGIN is ours to emit.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        immediate = connection.get_execution_options().get("cutline_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
