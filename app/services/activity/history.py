"""A viewer's history (spec §7 ``POST /contents/{id}/history``, ``/contents/history``, ``/contents/history/search``):
the published contents they opened or played, the latest first, each with where they are in it.

The history is not a second copy of the progress: a content is in it when the viewer recorded a view of it
(``ViewHistory``) or saved progress in one of its episodes (``WatchProgress``), whichever came last; so the hottest
write, a progress save, stays one statement. Per content, the last episode is the one whose position was saved last
(a mark set on an earlier episode never moves it back), and "continue" goes to it while it is unfinished, else to the
next unfinished episode in play order; a content with none left is finished. "Continue watching" is the history's
unfinished items.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, func, literal, select, union_all

from app.clock import now
from app.database import dialect_insert
from app.extensions import db
from app.models import Content, Episode, Season, ViewHistory, WatchProgress
from app.services.activity.progress import require_episode, require_published
from app.services.catalogue.cards import Card, load_cards
from app.services.catalogue.filters import ListRequest
from app.services.catalogue.paging import Page
from app.services.catalogue.publishing import public
from app.services.player.episodes import EpisodeRef, play_order
from app.services.search.query import search


@dataclass(frozen=True)
class Position:
    """Where a viewer is in one content."""

    episode_id: int | None  # the last episode watched (or opened with the view, or marked), None when none is known
    time: int  # where the viewer stopped in it, seconds
    duration: int | None
    is_completed: bool  # that episode is finished
    next_episode_id: int | None  # where "continue" goes; None when every episode is finished
    is_finished: bool


class _Touched(NamedTuple):
    content_id: int
    last: datetime


@dataclass(frozen=True)
class HistoryItem:
    content: Card  # app/services/catalogue/cards.py
    viewed_at: datetime
    position: Position


def record_view(viewer_key: str, content_id: int, episode_id: int | None = None) -> None:
    """The viewer opened the content (and the episode, when said): it goes to the top of their history."""
    if episode_id is None:
        require_published(content_id)
    else:
        require_episode(content_id, episode_id)
    moment = now()
    statement = dialect_insert(db.session, ViewHistory).values(
        viewer_key=viewer_key, content_id=content_id, episode_id=episode_id, viewed_at=moment)
    changes: dict[str, Any] = {"viewed_at": moment}
    if episode_id is not None:
        changes["episode_id"] = episode_id
    db.session.execute(statement.on_conflict_do_update(index_elements=["viewer_key", "content_id"], set_=changes))


def history(viewer_key: str, page: int, page_size: int, unfinished: bool | None = None) -> Page:
    """A page of the viewer's history, the latest first; ``unfinished`` True: only what is left to watch ("continue
    watching"), False: only what is finished."""
    touched = _touched(viewer_key, None)
    if unfinished is None:
        total = db.session.scalar(select(func.count()).select_from(touched)) or 0
        rows = db.session.execute(select(touched.c.content_id, touched.c.last)
                                  .order_by(touched.c.last.desc(), touched.c.content_id.desc())
                                  .limit(page_size).offset((page - 1) * page_size)).all()
        return Page(_with_cards(_positions(viewer_key, rows)), total, page, page_size)
    # Whether a content is finished depends on its episodes' order and the viewer's marks: judged here for the
    # whole history, which is as long as what one viewer watched (three queries for all of it, then the page's cards).
    rows = db.session.execute(select(touched.c.content_id, touched.c.last)
                              .order_by(touched.c.last.desc(), touched.c.content_id.desc())).all()
    kept = [judged for judged in _positions(viewer_key, rows) if judged[2].is_finished is not unfinished]
    start = (page - 1) * page_size
    return Page(_with_cards(kept[start:start + page_size]), len(kept), page, page_size)


def search_history(viewer_key: str, words: str, page: int, page_size: int) -> tuple[Page, str | None]:
    """The contents of the viewer's history that the catalogue's search finds for ``words``, best match first (its
    Russian morphology, typos, transliteration), each with the viewer's position; and the words as searched when a
    typo was corrected."""
    result = search(words, ListRequest(page=page, page_size=page_size),
                    within=select(_touched(viewer_key, None).c.content_id))
    found = [card.id for card in result.page.items]
    if not found:
        return Page([], result.page.total, page, page_size), result.corrected
    touched = _touched(viewer_key, found)
    last: dict[int, datetime] = dict(db.session.execute(select(touched.c.content_id, touched.c.last)).all())
    judged = _positions(viewer_key, [_Touched(content_id, last[content_id]) for content_id in found
                                     if content_id in last])
    cards = {card.id: card for card in result.page.items}
    items = [HistoryItem(cards[content_id], when, position) for content_id, when, position in judged]
    return Page(items, result.page.total, page, page_size), result.corrected


def adopt_device_history(device_key: str, account_key: str) -> None:
    """At sign-in: the device's recorded views join the account's history (the later view of a content wins), in
    one statement."""
    device = select(literal(account_key), ViewHistory.content_id, ViewHistory.episode_id, ViewHistory.viewed_at).where(
        ViewHistory.viewer_key == device_key)
    statement = dialect_insert(db.session, ViewHistory).from_select(
        ["viewer_key", "content_id", "episode_id", "viewed_at"], device)
    db.session.execute(statement.on_conflict_do_update(
        index_elements=["viewer_key", "content_id"],
        set_={"viewed_at": statement.excluded.viewed_at, "episode_id": statement.excluded.episode_id},
        where=ViewHistory.viewed_at < statement.excluded.viewed_at))


def _touched(viewer_key: str, within: Collection[int] | None) -> Any:
    """(content_id, last): each published content the viewer viewed or played, and when last."""
    views = select(ViewHistory.content_id.label("content_id"), ViewHistory.viewed_at.label("at")).where(
        ViewHistory.viewer_key == viewer_key)
    saves = select(WatchProgress.content_id.label("content_id"),
                   func.coalesce(WatchProgress.watched_at, WatchProgress.updated_at).label("at")).where(
        WatchProgress.viewer_key == viewer_key)
    if within is not None:
        views = views.where(ViewHistory.content_id.in_(within))
        saves = saves.where(WatchProgress.content_id.in_(within))
    both = union_all(views, saves).subquery()
    return (select(both.c.content_id, func.max(both.c.at).label("last"))
            .join(Content, and_(Content.id == both.c.content_id, public()))
            .group_by(both.c.content_id).subquery())


def _positions(viewer_key: str, rows: Iterable[Any]) -> list[tuple[int, datetime, Position]]:
    """(content id, last, position) for the (content_id, last) ``rows``: three queries whatever their number."""
    rows = list(rows)
    ids = [row.content_id for row in rows]
    if not ids:
        return []
    saved = defaultdict(list)
    for row in db.session.execute(select(
            WatchProgress.content_id, WatchProgress.episode_id, WatchProgress.time, WatchProgress.completed,
            WatchProgress.watched_at).where(WatchProgress.viewer_key == viewer_key,
                                            WatchProgress.content_id.in_(ids))):
        saved[row.content_id].append(row)
    opened = dict(db.session.execute(select(ViewHistory.content_id, ViewHistory.episode_id).where(
        ViewHistory.viewer_key == viewer_key, ViewHistory.content_id.in_(ids))).all())
    episodes = _episodes(ids)
    return [(row.content_id, row.last, _position(saved[row.content_id], opened.get(row.content_id),
                                                 *episodes.get(row.content_id, ([], {})))) for row in rows]


def _position(saved: list[Any], opened: int | None, ordered: list[EpisodeRef],
              durations: dict[int, int | None]) -> Position:
    rows = {row.episode_id: row for row in saved}
    completed = {row.episode_id for row in saved if row.completed}
    played = [row for row in saved if row.watched_at is not None]
    if played:
        current: int | None = max(played, key=lambda row: (row.watched_at, row.episode_id)).episode_id
    elif opened in durations:
        current = opened
    else:  # only marks: the last one marked, in play order
        current = next((ref.id for ref in reversed(ordered) if ref.id in completed), None)
    following = _continue_at(ordered, current, completed)
    row = rows.get(current) if current is not None else None
    return Position(episode_id=current, time=row.time if row is not None else 0,
                    duration=durations.get(current) if current is not None else None,
                    is_completed=current in completed, next_episode_id=following,
                    is_finished=following is None and bool(ordered))


def _continue_at(ordered: list[EpisodeRef], current: int | None, completed: set[int]) -> int | None:
    """The episode "continue" plays: ``current`` while unfinished, else the first unfinished one after it (then
    before it: a series watched out of order still has its gaps to fill), None when every episode is finished."""
    ids = [ref.id for ref in ordered]
    if current is None or current not in ids:
        return next((i for i in ids if i not in completed), None)
    if current not in completed:
        return current
    at = ids.index(current)
    return next((i for i in ids[at + 1:] + ids[:at] if i not in completed), None)


def _episodes(content_ids: list[int]) -> dict[int, tuple[list[EpisodeRef], dict[int, int | None]]]:
    """Per content, its episodes in play order and their durations: one query."""
    query = (select(Episode.id, Episode.content_id, Episode.order, Episode.duration, Season.order.label("season_order"))
             .outerjoin(Season, Season.id == Episode.season_id)
             .where(Episode.content_id.in_(content_ids)))
    refs: dict[int, list[EpisodeRef]] = defaultdict(list)
    durations: dict[int, dict[int, int | None]] = defaultdict(dict)
    for row in db.session.execute(query):
        refs[row.content_id].append(EpisodeRef(row.id, row.order, row.season_order))
        durations[row.content_id][row.id] = row.duration
    return {content: (play_order(refs[content]), durations[content]) for content in refs}


def _with_cards(judged: list[tuple[int, datetime, Position]]) -> list[HistoryItem]:
    """The items with their contents' cards (one query); a content unpublished since the page was counted is left
    out."""
    ids = [content_id for content_id, _, _ in judged]
    cards = load_cards(ids, public())
    return [HistoryItem(cards[content_id], last, position) for content_id, last, position in judged
            if content_id in cards]
