"""Moments: every time the models keep is an aware UTC datetime, in every database. PostgreSQL's timestamptz does
that itself; SQLite keeps text without a zone and hands back naive datetimes, which would neither compare with
``datetime.now(UTC)`` nor serialise as RFC 3339. ``Moment`` stores UTC (a naive
datetime is taken as UTC) and reads it back aware."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


class Moment(TypeDecorator[datetime]):
    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        aware = value.replace(tzinfo=UTC) if value.tzinfo is None else value  # naive is taken as UTC
        return aware.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
