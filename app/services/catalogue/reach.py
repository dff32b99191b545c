"""Where the API plays a content, and the lists' "available here" filter (docs/search.md).

A content plays for an API caller in country C when it has media (an episode with a master file) and its rules let C
through (app/services/player/availability.py with no embedding domain: a title licensed to named sites plays only in
the frames of those sites, never from an API answer, docs/licences.md). ``GET /contents/{id}`` says so for the one
title from its snapshot (``playability``); a list asks it of every title, so each content keeps the part that does not
depend on the viewer in ``contents.reach`` (a ``Reach``):

* ``nowhere``: no episode with a master path, or an ``allow_domain`` rule;
* ``only_countries``: media and an ``allow_country`` list: it plays in a country the list names and no
  ``block_country`` rule does;
* ``except_countries``: media and ``block_country`` rules only: it plays in a country none names;
* ``everywhere``: media, no rule that stops an API caller (a ``block_domain`` rule does not: no domain is judged).

The filter is then a comparison on the row, and for the contents with country rules whether the viewer's country is
named by them: the rules naming one country are an index range (ix_availability_rules_kind_value), read once per
query into a hash. A list pages and counts in the database as with any other filter. The column is kept by
a flush that adds, changes or removes an episode or a rule (``listen``), and written for every content by the migration
and after bulk writes outside the ORM (``refresh_reach``: ``flask demo catalogue``, ``flask search reindex``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, case, event, exists, inspect, not_, or_, select, update
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
                (_rule(RuleKind.ALLOW_COUNTRY), Reach.ONLY_COUNTRIES.value),
                (_rule(RuleKind.BLOCK_COUNTRY), Reach.EXCEPT_COUNTRIES.value), else_=Reach.EVERYWHERE.value)


def plays_here(here: PlaysHere) -> ColumnElement[bool]:
    """Whether a content plays for an API caller in ``here.country``: its reach, and for one with country rules
    whether they name the country (rule values are stored trimmed and in lower case, as the country is). Uncorrelated
    ``IN`` subqueries, which PostgreSQL reads once each into a hash: correlated EXISTS were costed so high that they
    set off its JIT compiler (0.6 s of a 0.8 s count of 100,000 titles)."""
    country = here.country
    if country is None:  # no rule names an unknown country: an allow list keeps it out, a block list lets it in
        return Content.reach.in_((Reach.EVERYWHERE.value, Reach.EXCEPT_COUNTRIES.value))

    def naming(kind: RuleKind) -> Any:
        return select(AvailabilityRule.content_id).where(AvailabilityRule.kind == kind,
                                                          AvailabilityRule.value == country)

    not_blocked = Content.id.not_in(naming(RuleKind.BLOCK_COUNTRY))
    return or_(Content.reach == Reach.EVERYWHERE.value,
               and_(Content.reach == Reach.EXCEPT_COUNTRIES.value, not_blocked),
               and_(Content.reach == Reach.ONLY_COUNTRIES.value, Content.id.in_(naming(RuleKind.ALLOW_COUNTRY)),
                    not_blocked))


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
