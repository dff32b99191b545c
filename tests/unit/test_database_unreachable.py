"""Which of PostgreSQL's failures count as the database away (the breaker opens, the pool is dropped) and which are
the database answering about one statement (it fails alone): app/database.py ``_unreachable``."""

from __future__ import annotations

import sqlite3

import psycopg
import pytest
from psycopg import errors

from app.database import _unreachable

AWAY = [errors.ConnectionTimeout("connection timeout expired"),
        psycopg.OperationalError("server closed the connection unexpectedly"),
        psycopg.InterfaceError("the connection is closed"),
        errors.ConnectionFailure("08006"), errors.AdminShutdown("57P01"), errors.CrashShutdown("57P02"),
        errors.CannotConnectNow("57P03"), errors.TooManyConnections("53300"), ConnectionRefusedError(111, "refused")]
ANSWERED = [errors.DeadlockDetected("40P01"), errors.LockNotAvailable("55P03"), errors.SerializationFailure("40001"),
            errors.QueryCanceled("57014"), errors.DiskFull("53100"), errors.UniqueViolation("23505")]


@pytest.mark.parametrize("error", AWAY, ids=lambda error: type(error).__name__)
def test_the_database_away(error):
    assert _unreachable(error, "postgresql")


@pytest.mark.parametrize("error", ANSWERED, ids=lambda error: type(error).__name__)
def test_the_database_answering_about_one_statement(error):
    assert not _unreachable(error, "postgresql")


@pytest.mark.parametrize(("text", "away"), [("unable to open database file", True), ("disk I/O error", True),
                                             ("database is locked", False), ("no such table: contents", False)])
def test_sqlite(text, away):
    assert _unreachable(sqlite3.OperationalError(text), "sqlite") is away
