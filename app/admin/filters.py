"""The content list's filters (issue 31): what an editor looks for, each a choice shown above the list at all times
(templates/admin/model/content_list.html) and in Flask-Admin's own filter menu alike.

Each has a ``url_name`` (``genre``, ``year``…: ``genre_equals=drama`` in the address, app/admin/base.py) and filters by
a condition on the content itself (``EXISTS`` for its genres, countries, rules and episodes), so a content is listed
once whatever it is linked to, and the count above the list is right. Choices that come from the catalogue (genres,
types, years, countries) are read on each page (``live_options``), never when the application starts."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import has_app_context, request
from flask_admin.babel import lazy_gettext
from flask_admin.contrib.sqla.filters import BaseSQLAFilter
from sqlalchemy import ColumnElement, and_, distinct, func, not_, or_, select

from app.extensions import db
from app.models import Content, ContentType, Country, Episode, Genre
from app.models.catalogue import AvailabilityRule, RuleKind

YES_NO = [("1", "Да"), ("0", "Нет")]
_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
_RULE = re.compile(r"(?:none|(allow|block):([a-z]{2}))")
COUNTRY_KINDS = {"allow": RuleKind.ALLOW_COUNTRY, "block": RuleKind.BLOCK_COUNTRY}

Options = list[tuple[str, str]]


class ContentFilter(BaseSQLAFilter):
    """A condition on contents, chosen from options (``live_options``: read from the database on each page)."""

    live_options = False

    def __init__(self, url_name: str, name: str, condition: Callable[[Any], ColumnElement[bool]],
                 options: Options | Callable[[], Options] | None = None, clean: Callable[[str], Any] = str) -> None:
        super().__init__(Content.id, name, options=options)
        self.url_name = url_name
        self.live_options = callable(options)
        self._condition = condition
        self._clean = clean

    def get_options(self, view: Any) -> Options | None:
        if self.live_options and not has_app_context():
            return []
        return super().get_options(view)

    def clean(self, value: str) -> Any:
        return self._clean(value)

    def apply(self, query: Any, value: Any, alias: Any = None) -> Any:
        return query.filter(self._condition(value))

    def operation(self) -> Any:
        return lazy_gettext("equals")


def _slug(value: str) -> str:
    if not _SLUG.fullmatch(value):
        raise ValueError(value)
    return value


def _yes(value: str) -> bool:
    if value not in ("0", "1"):
        raise ValueError(value)
    return value == "1"


def _year(value: str) -> int:
    year = int(value)
    if not 1000 <= year <= 9999:
        raise ValueError(value)
    return year


def _rule(value: str) -> str:
    if not _RULE.fullmatch(value):
        raise ValueError(value)
    return value


def _labels(model: Any) -> Options:
    return [(row.slug, row.title) for row in db.session.scalars(select(model).order_by(model.title))]


def _types() -> Options:
    return [(row.slug, row.title) for row in db.session.scalars(select(ContentType).order_by(ContentType.position))]


def _years() -> Options:
    years = db.session.scalars(select(distinct(Content.year)).where(Content.year.is_not(None))
                               .order_by(Content.year.desc()))
    return [(str(year), str(year)) for year in years]


def _country_rules() -> Options:
    names = dict(db.session.execute(select(Country.slug, Country.title)).all())
    found = db.session.execute(select(AvailabilityRule.kind, AvailabilityRule.value).distinct()
                               .where(AvailabilityRule.kind.in_(list(COUNTRY_KINDS.values())))
                               .order_by(AvailabilityRule.kind, AvailabilityRule.value)).all()
    options = [("none", "Без правил по странам")]
    for kind, code in found:
        country = names.get(code, code.upper())
        if kind == RuleKind.ALLOW_COUNTRY:
            options.append((f"allow:{code}", f"Только в стране: {country}"))
        else:
            options.append((f"block:{code}", f"Закрыт в стране: {country}"))
    return options


def _has_country_rule(value: str) -> ColumnElement[bool]:
    if value == "none":
        return not_(Content.availability_rules.any(AvailabilityRule.kind.in_(list(COUNTRY_KINDS.values()))))
    kind, code = value.split(":")
    return Content.availability_rules.any(and_(AvailabilityRule.kind == COUNTRY_KINDS[kind],
                                               AvailabilityRule.value == code))


def _has_media(yes: bool) -> ColumnElement[bool]:
    ready = Content.episodes.any(and_(Episode.master_file_path.is_not(None), Episode.master_file_path != ""))
    return ready if yes else not_(ready)


def _has_poster(yes: bool) -> ColumnElement[bool]:
    has = and_(Content.poster_url.is_not(None), func.length(Content.poster_url) > 0)
    return has if yes else or_(Content.poster_url.is_(None), Content.poster_url == "")


def content_filters() -> list[ContentFilter]:
    """In the order the bar above the list shows them."""
    return [
        ContentFilter("type", "Тип", lambda slug: Content.content_type.has(ContentType.slug == slug), _types, _slug),
        ContentFilter("genre", "Жанр", lambda slug: Content.genres.any(Genre.slug == slug),
                      lambda: _labels(Genre), _slug),
        ContentFilter("year", "Год", lambda year: Content.year == year, _years, _year),
        ContentFilter("published", "Опубликован", lambda yes: Content.published == yes, YES_NO, _yes),
        ContentFilter("country_rule", "Правило страны", _has_country_rule, _country_rules, _rule),
        ContentFilter("has_media", "Есть видео", _has_media, YES_NO, _yes),
        ContentFilter("has_poster", "Есть постер", _has_poster, YES_NO, _yes),
        ContentFilter("country", "Страна производства", lambda slug: Content.countries.any(Country.slug == slug),
                      lambda: _labels(Country), _slug),
        ContentFilter("series", "Несколько серий", lambda yes: Content.has_multiple_episodes == yes, YES_NO, _yes),
    ]


class FilterBar:
    """Mixed into a model view (before it) whose filters are ``ContentFilter``s: their choices read on each page, and
    the bar above the list (``filter_bar``), one choice per filter, its current value the one in the address."""

    _filters: Any
    model: Any

    def _get_filter_groups(self) -> Any:
        groups = super()._get_filter_groups()  # type: ignore[misc]
        for items in (groups or {}).values():
            for item in items:
                flt = self._filters[item["index"]]
                if getattr(flt, "live_options", False):
                    item["options"] = [(key, str(label)) for key, label in flt.get_options(self) or []]
        return groups

    def filter_bar(self) -> list[dict[str, Any]]:
        chosen: dict[str, str] = {}
        for arg, value in request.args.items():
            position, _, key = arg[3:].partition("_")
            if arg.startswith("flt") and position.isdigit() and value:
                chosen.setdefault(key, value)
        bar: list[dict[str, Any]] = []
        for index, flt in enumerate(self._filters):
            if isinstance(flt, ContentFilter):
                key = self.get_filter_arg(index, flt)  # type: ignore[attr-defined]
                bar.append({"label": flt.name, "name": f"flt{len(bar)}_{key}", "value": chosen.get(key, ""),
                            "options": flt.get_options(self) or []})
        return bar
