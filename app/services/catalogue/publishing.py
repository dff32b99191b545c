"""Publishing: what the public sees is a published content within its schedule (``Content.shown_at``), judged at
this moment by the one clock, so that a read that is not kept turns at the exact second of its boundary. What is kept
(snapshots, shared responses) turns with the catalogue's generation, which a passed boundary moves
(``boundaries``, app/caching.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, func, select, union_all
from sqlalchemy.sql.elements import ColumnElement

from app import clock
from app.models import Content


def public() -> ColumnElement[bool]:
    """The condition a content the public may see meets now."""
    return Content.shown_at(clock.now())


def off_schedule() -> Select[Any]:
    """The ids of published contents outside their schedule now (not yet, or no longer; each found by its time's
    index): what the search index, which holds every published content, must leave out of an answer."""
    at = clock.now()
    return select(Content.id).where(Content.published, (Content.publish_at > at) | (Content.unpublish_at <= at))


def boundaries(at: datetime) -> Select[Any]:
    """The latest publishing or withdrawal time passed at ``at`` and the next one to come (None: there is none), each
    the end of its time's index: what is kept from before the latest may show a title wrongly, and at the next one
    what is kept turns stale."""
    def edge(pick: Any, compare: str) -> Any:
        times = union_all(*(select(pick(column).label("at")).where(getattr(column, compare)(at))
                            for column in (Content.publish_at, Content.unpublish_at))).subquery()
        return select(pick(times.c.at)).scalar_subquery()
    return select(edge(func.max, "__le__"), edge(func.min, "__gt__"))


def aware(value: Any) -> datetime | None:
    """A time the database handed back through an aggregate (SQLite: its stored text), aware in UTC."""
    if value is None:
        return None
    found = datetime.fromisoformat(value) if isinstance(value, str) else value
    return found.replace(tzinfo=UTC) if found.tzinfo is None else found.astimezone(UTC)
