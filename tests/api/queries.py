"""Counting SQL: the statements an application runs inside a block (the query-count tests of the list calls)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from sqlalchemy import event

from app.extensions import db
from app.services.catalogue.known import known


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements run inside the block, but the cache's reads of its counters (app/caching.py: without
    Redis, the catalogue's generation from the database, at most once a second, whatever the call) and of the
    publishing schedule (its boundaries, as often); the small tables a process reads once per catalogue generation
    (app/services/catalogue/known.py) are read before it, as a running process holds them."""
    with app.app_context():
        engine = db.engine
        known()
        db.session.remove()
    seen: list[str] = []
    block = threading.get_ident()  # not a background job's (app/http/background.py), which runs on a thread of its own

    def record(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        if ("FROM cache_counters" not in statement and "max(contents.publish_at)" not in statement
                and threading.get_ident() == block):
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)
