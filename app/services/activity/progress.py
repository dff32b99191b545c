"""Viewing progress (spec §7 "Catalogue: history and progress"): where each viewer stopped, what they finished.

A viewer is a key (``user:…`` or ``fp:…``, app/http/viewer.py). Each write is one statement (INSERT … ON CONFLICT,
or an UPDATE), so two requests for the same row at the same moment both succeed and leave one row. Times come from
the clock here rather than from the database: SQLite's CURRENT_TIMESTAMP has whole seconds, too coarse to tell which
of two saves in one second came last.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Select, and_, bindparam, case, false, literal, or_, select, update

from app import texts
from app.clock import now
from app.database import dialect_insert
from app.extensions import db
from app.models import Content, Episode, WatchProgress
from app.models.ids import storable_id
from app.models.moments import Moment
from app.services.catalogue.contents import content_not_found
from app.services.catalogue.publishing import public
from app.services.errors import Invalid, NotFound


class LastWatched(NamedTuple):
    episode_id: int
    time: int
    updated_at: datetime  # timezone-aware


def record_time(viewer_key: str, content_id: int, episode_id: int, seconds: int) -> None:
    """Remember where the viewer stopped in the episode: within its length, when the catalogue knows it. The hottest
    write of the service (every playing viewer, every 10 s): one statement that inserts or updates the row only if
    the episode is the content's and the time within it; the reasons for a refusal are looked for only then."""
    moment = now()
    if storable_id(content_id) and storable_id(episode_id):
        at = literal(moment, Moment())
        episode = (select(literal(viewer_key), Episode.content_id, Episode.id, literal(seconds), at, at)
                   .where(Episode.id == episode_id, Episode.content_id == content_id,
                          or_(Episode.duration.is_(None), Episode.duration >= seconds)))
        columns = ["viewer_key", "content_id", "episode_id", "time", "watched_at", "updated_at"]
        statement = dialect_insert(db.session, WatchProgress).from_select(columns, episode)
        saved = db.session.execute(statement.on_conflict_do_update(
            index_elements=["viewer_key", "episode_id"],
            set_={"time": statement.excluded.time, "watched_at": statement.excluded.watched_at,
                  "updated_at": statement.excluded.updated_at},
        ).returning(WatchProgress.id)).first()
        if saved is not None:
            return
    duration = require_episode(content_id, episode_id)  # NotFound, for an unknown content or a foreign episode
    raise Invalid("time_beyond_duration", "Время больше длительности эпизода",
                  {"episodeId": episode_id, "duration": duration})


def set_completed(viewer_key: str, content_id: int, episode_id: int, completed: bool) -> None:
    """Mark the episode finished or not; either may be repeated. Unmarking an unseen episode stores nothing. A mark is
    not a position: the last watched episode, and "continue watching", stay where the viewer last played."""
    require_episode(content_id, episode_id)
    if completed:
        _upsert(viewer_key, content_id, episode_id, completed=True)
        return
    db.session.execute(
        update(WatchProgress)
        .where(
            WatchProgress.viewer_key == viewer_key,
            WatchProgress.episode_id == episode_id,
            WatchProgress.completed.is_(True),
        )
        .values(completed=False, updated_at=now())
    )


def completed_episode_ids(viewer_key: str, content_id: int) -> frozenset[int]:
    return frozenset(db.session.scalars(_COMPLETED, {"viewer_key": viewer_key, "content_id": content_id}))


def committed_completed_episode_ids(viewer_key: str, content_id: int) -> frozenset[int]:
    """The same, as committed, read on a connection of its own: for a request that only reads (the player page, whose
    only statement this is). On PostgreSQL in autocommit, no BEGIN and COMMIT round trips around it; SQLite begins no
    transaction for a read, and switching its connection's mode costs more than the read (250 of 306 µs here). It
    does not see the session's own changes."""
    connection = db.engine.connect()
    if connection.dialect.name == "postgresql":
        connection = connection.execution_options(isolation_level="AUTOCOMMIT")
    with connection:
        return frozenset(connection.scalars(_COMPLETED, {"viewer_key": viewer_key, "content_id": content_id}))


# One range of ``ix_watch_progress_viewer_key_content_id``. Made once: SQLAlchemy memoizes a statement's cache key on
# the statement, so a statement built per call pays for its key every time (a third of the page's lookup).
_COMPLETED: Select[Any] = select(WatchProgress.episode_id).where(
    WatchProgress.viewer_key == bindparam("viewer_key"),
    WatchProgress.content_id == bindparam("content_id"),
    WatchProgress.completed.is_(True),
)


def progress_of(viewer_key: str, content_id: int) -> list[WatchProgress]:
    """The viewer's rows of the content's episodes (the watched marks a site shows), unknown content NotFound."""
    require_published(content_id)
    return list(db.session.scalars(select(WatchProgress).where(
        WatchProgress.viewer_key == viewer_key, WatchProgress.content_id == content_id).order_by(WatchProgress.id)))


def last_watched(viewer_key: str, content_id: int) -> LastWatched | None:
    """The episode of the content whose position this viewer saved last (marks set since do not count), or None.
    NotFound for an unknown content."""
    if not storable_id(content_id):
        raise content_not_found(content_id)
    query = (
        select(WatchProgress.episode_id, WatchProgress.time, WatchProgress.updated_at)
        .where(WatchProgress.viewer_key == viewer_key, WatchProgress.content_id == content_id)
        .where(WatchProgress.watched_at.is_not(None))
        .order_by(WatchProgress.watched_at.desc(), WatchProgress.id.desc())
        .limit(1)
    )
    row = db.session.execute(query).first()
    if row is None:
        if db.session.scalar(select(Content.id).where(Content.id == content_id)) is None:
            raise content_not_found(content_id)
        return None
    episode_id, time, updated_at = row
    return LastWatched(episode_id, time, updated_at)


def require_published(content_id: int) -> None:
    """NotFound ('Контент не доступен') unless the content exists and is published."""
    if not storable_id(content_id) or db.session.scalar(
            select(Content.id).where(Content.id == content_id, public())) is None:
        raise content_not_found(content_id)


def require_episode(content_id: int, episode_id: int) -> int | None:
    """The episode's duration; NotFound unless the content exists and the episode is one of its own. One query."""
    if not storable_id(content_id):
        raise content_not_found(content_id)
    episode_matches = (Episode.id == episode_id) if storable_id(episode_id) else false()  # else it matches none
    query = (
        select(Episode.id, Episode.duration)
        .select_from(Content)
        .outerjoin(Episode, and_(Episode.content_id == Content.id, episode_matches))
        .where(Content.id == content_id)
    )
    row = db.session.execute(query).first()
    if row is None:
        raise content_not_found(content_id)
    if row.id is None:
        details = {"contentId": content_id, "episodeId": episode_id}
        raise NotFound("episode_not_found", texts.CONTENT_NOT_AVAILABLE, details)
    return row.duration


def _upsert(viewer_key: str, content_id: int, episode_id: int, **changes: object) -> None:
    """Insert the viewer's row for the episode with ``changes``, or apply them to the row already there."""
    moment = now()
    statement = (
        dialect_insert(db.session, WatchProgress)
        .values(viewer_key=viewer_key, content_id=content_id, episode_id=episode_id, updated_at=moment, **changes)
        .on_conflict_do_update(index_elements=["viewer_key", "episode_id"], set_={**changes, "updated_at": moment})
    )
    db.session.execute(statement)


def adopt_device_progress(device_key: str, account_key: str) -> None:
    """At sign-in: what the device watched before joins the account's progress, so that nothing watched anonymously
    is lost or doubled: per episode, the position saved later wins (time and when), and a finished mark on either
    side stays. One statement, judged against the account's row as it is at that moment (a save of the account's
    racing the sign-in is never overwritten by an older one). The device keeps its own rows."""
    columns = ["viewer_key", "content_id", "episode_id", "time", "completed", "watched_at", "updated_at"]
    device = select(literal(account_key), WatchProgress.content_id, WatchProgress.episode_id, WatchProgress.time,
                    WatchProgress.completed, WatchProgress.watched_at, WatchProgress.updated_at).where(
        WatchProgress.viewer_key == device_key)
    statement = dialect_insert(db.session, WatchProgress).from_select(columns, device)
    theirs = statement.excluded
    later = or_(and_(theirs.watched_at.is_not(None), WatchProgress.watched_at.is_(None)),
                theirs.watched_at > WatchProgress.watched_at)
    db.session.execute(statement.on_conflict_do_update(index_elements=["viewer_key", "episode_id"], set_={
        "time": case((later, theirs.time), else_=WatchProgress.time),
        "watched_at": case((later, theirs.watched_at), else_=WatchProgress.watched_at),
        "completed": or_(WatchProgress.completed, theirs.completed),
        "updated_at": case((theirs.updated_at > WatchProgress.updated_at, theirs.updated_at),
                           else_=WatchProgress.updated_at),
    }))
