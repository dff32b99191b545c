"""A change made to many contents at once (the admin's bulk edit, issue 31): genres and categories added or removed,
an availability rule added or removed, published or not. Through the ORM, object by object, so that the audit trail
(app/services/editorial/audit.py) records each content as a form's save would; it flushes, the request commits once.

A category added takes the last place of its category's order (after the contents it already has)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from app import clock
from app.extensions import db
from app.models import Category, Content, Genre
from app.models.catalogue import AvailabilityRule, RuleKind
from app.models.taxonomy import ContentCategory
from app.services.errors import Invalid

MAX_CONTENTS = 20_000  # one save: about a minute on the slowest database we run


@dataclass(frozen=True)
class BulkChange:
    add_genres: Sequence[int] = ()
    remove_genres: Sequence[int] = ()
    add_categories: Sequence[int] = ()
    remove_categories: Sequence[int] = ()
    add_rule: tuple[RuleKind, str] | None = None
    remove_rule: tuple[RuleKind, str] | None = None
    published: bool | None = None

    def is_empty(self) -> bool:
        return not (self.add_genres or self.remove_genres or self.add_categories or self.remove_categories
                    or self.add_rule or self.remove_rule or self.published is not None)


def apply_bulk(content_ids: Sequence[int], change: BulkChange) -> int:
    """Applies ``change`` to every content of ``content_ids``; returns how many of them it changed."""
    if change.is_empty():
        raise Invalid("bulk_nothing", "Выберите, что изменить.")
    if len(content_ids) > MAX_CONTENTS:
        raise Invalid("bulk_too_many",
                      f"За один раз можно изменить не больше {MAX_CONTENTS} записей: сузьте выбор фильтрами.")
    if set(change.add_genres) & set(change.remove_genres) or set(change.add_categories) & set(change.remove_categories):
        raise Invalid("bulk_both_ways", "Один и тот же жанр или категорию нельзя и добавить, и убрать.")
    genres_in = _rows(Genre, change.add_genres)
    genres_out = set(change.remove_genres)
    categories_in = _rows(Category, change.add_categories)
    categories_out = set(change.remove_categories)
    last = dict(db.session.execute(select(ContentCategory.category_id, func.max(ContentCategory.position))
                                   .where(ContentCategory.category_id.in_([c.id for c in categories_in]))
                                   .group_by(ContentCategory.category_id)).all())
    changed = 0
    contents = db.session.scalars(select(Content).where(Content.id.in_(list(content_ids))).order_by(Content.id)
                                  .options(selectinload(Content.genres), selectinload(Content.category_links),
                                           selectinload(Content.availability_rules)))
    for content in contents:
        before = _state(content)
        content.genres = [g for g in content.genres if g.id not in genres_out] + [
            g for g in genres_in if g not in content.genres]
        content.category_links = [link for link in content.category_links if link.category_id not in categories_out]
        linked = {link.category_id for link in content.category_links}
        for category in categories_in:
            if category.id not in linked:
                last[category.id] = last.get(category.id, -1) + 1
                content.category_links.append(ContentCategory(category=category, position=last[category.id]))
        rules = {(rule.kind, rule.value) for rule in content.availability_rules}
        if change.remove_rule is not None:
            content.availability_rules = [rule for rule in content.availability_rules
                                          if (rule.kind, rule.value) != change.remove_rule]
        if change.add_rule is not None and change.add_rule not in rules:
            content.availability_rules.append(AvailabilityRule(kind=change.add_rule[0], value=change.add_rule[1]))
        if change.published is not None:
            content.published = change.published
            if change.published:  # published now: a time to come is dropped, and a withdrawal passed (issue 31)
                now = clock.now()
                if content.publish_at is not None and content.publish_at > now:
                    content.publish_at = None
                if content.unpublish_at is not None and content.unpublish_at <= now:
                    content.unpublish_at = None
        if _state(content) != before:
            changed += 1
    db.session.flush()
    return changed


def _rows(model: Any, ids: Sequence[int]) -> list[Any]:
    rows: list[Any] = list(db.session.scalars(select(model).where(model.id.in_(list(ids))))) if ids else []
    if len(rows) != len(set(ids)):
        raise Invalid("bulk_gone", "Среди выбранных жанров или категорий есть удалённые: обновите страницу.")
    return rows


def _state(content: Content) -> tuple[object, ...]:
    return (frozenset(g.id for g in content.genres), frozenset(link.category_id for link in content.category_links),
            frozenset((rule.kind, rule.value) for rule in content.availability_rules), content.published,
            content.publish_at, content.unpublish_at)
