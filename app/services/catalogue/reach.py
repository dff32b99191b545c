"""Where the API plays a content, and the lists' "available here" filter (docs/search.md).

A content plays for an API caller in country C when it has media (an episode with a master file) and its rules let C
through (app/services/player/availability.py with no embedding domain: a title licensed to named sites plays only in
the frames of those sites, never from an API answer, docs/licences.md). ``GET /contents/{id}`` says so for the one
title from its snapshot (``playability``); a list asks it of every title, so each content keeps the part that does not
depend on the viewer in ``contents.reach`` (a ``Reach``):

* ``nowhere``: no episode with a master path, or an ``allow_domain`` rule;
* ``by_country``: media and country rules: its ``availability_rules`` rows decide, for those contents only;
* ``everywhere``: media, no rule that stops an API caller (a ``block_domain`` rule does not: no domain is judged).

The filter is then a comparison on the row, and for the few ``by_country`` contents a look at their rules by the rules'
(content_id, kind, value) key: a list pages and counts in the database as with any other filter. The column is kept by
a flush that adds, changes or removes an episode or a rule (``listen``), and written for every content by the migration
and after bulk writes outside the ORM (``refresh_reach``: ``flask demo catalogue``, ``flask search reindex``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, case, event, exists, func, inspect, not_, or_, update
from sqlalchemy.orm import Session

from app.models import AvailabilityRule, Content, Episode, Reach, RuleKind, Season
from app.services.player.availability import check_availability

NO_MEDIA = "no_media"  # the reason beside the verdicts' blocked_country and blocked_domain
CHUNK = 500  # contents per UPDATE after a flush


@dataclass(frozen=True)
class PlaysHere:
    """The "available here" filter: the contents the API plays for a viewer in ``country`` (None: unknown)."""

    country: str | None


def playability(master_paths: Iterable[str | None], rules: Iterable[tuple[RuleKind | str, str]],
                country: str | None) -> str | None:
    """Why a content does not play for an API caller in ``country``: ``no_media``, ``blocked_country`` or
    ``blocked_domain``; None when it plays. The same judgement as ``reach`` and ``plays_here`` make in the database."""
    if not any(master_paths):
        return NO_MEDIA
    verdict = check_availability(rules, country=country, domain=None)
    return None if verdict.available else verdict.value


def _rule(*kinds: RuleKind) -> Any:
    return exists().where(AvailabilityRule.content_id == Content.id, AvailabilityRule.kind.in_(kinds))


def reach() -> Any:
    """A content's ``Reach`` from its episodes and rules, as a correlated expression on ``contents``."""
    media = exists().where(Episode.content_id == Content.id, Episode.master_file_path.is_not(None),
                           Episode.master_file_path != "")
    return case((not_(media), Reach.NOWHERE.value), (_rule(RuleKind.ALLOW_DOMAIN), Reach.NOWHERE.value),
                (_rule(RuleKind.ALLOW_COUNTRY, RuleKind.BLOCK_COUNTRY), Reach.BY_COUNTRY.value),
                else_=Reach.EVERYWHERE.value)


def plays_here(here: PlaysHere) -> ColumnElement[bool]:
    """Whether a content plays for an API caller in ``here.country``: its reach, and for a ``by_country`` one its
    rules, compared as app/services/player/availability.py compares them (trimmed, lower case)."""
    def rule(kind: RuleKind, country: str | None = None) -> Any:
        found = exists().where(AvailabilityRule.content_id == Content.id, AvailabilityRule.kind == kind)
        return found.where(func.lower(func.trim(AvailabilityRule.value)) == country) if country else found

    country = here.country
    allowed = not_(rule(RuleKind.ALLOW_COUNTRY)) if country is None else and_(
        not_(rule(RuleKind.BLOCK_COUNTRY, country)),
        or_(not_(rule(RuleKind.ALLOW_COUNTRY)), rule(RuleKind.ALLOW_COUNTRY, country)))
    return or_(Content.reach == Reach.EVERYWHERE.value, and_(Content.reach == Reach.BY_COUNTRY.value, allowed))


def refresh_reach(session: Any, content_ids: Sequence[int] | None = None) -> None:
    """``contents.reach`` written again from the episodes and rules: of ``content_ids``, or of every content (one
    UPDATE; the time each content was changed is left as it was)."""
    table = Content.__table__
    statement = update(table).values(reach=reach(), updated_at=table.c.updated_at)
    if content_ids is None:
        session.execute(statement)
        return
    ids = sorted(set(content_ids))
    for start in range(0, len(ids), CHUNK):
        session.execute(statement.where(table.c.id.in_(ids[start:start + CHUNK])))


def _touched(session: Session) -> set[int]:
    """The contents whose reach this flush may have changed: those it added, and those of every episode, season and
    rule it added, changed or removed (before and after a move to another content)."""
    ids: set[int] = set()
    for item in (*session.new, *session.dirty, *session.deleted):
        if isinstance(item, Content) and item in session.new:
            ids.add(item.id)
        elif isinstance(item, Episode | AvailabilityRule | Season):
            ids.add(item.content_id)
            ids.update(inspect(item).attrs.content_id.history.deleted or ())
    ids.discard(None)
    return ids


def _flushed(session: Session, _context: Any) -> None:
    touched = _touched(session)
    if touched:
        refresh_reach(session.connection(), sorted(touched))


def listen() -> None:
    """Once per process: every session keeps the reach of the contents whose episodes or rules it flushes."""
    if not event.contains(Session, "after_flush", _flushed):
        event.listen(Session, "after_flush", _flushed)
