"""A batch of checked lines written: each line's content found by external id (or new), what the line says compared
with what is stored, and only the difference written, in bulk (docs/import.md): new contents in one multi-row
INSERT, a changed content in one UPDATE of the columns that changed, links and credits replaced where they differ,
seasons and episodes added or changed by number, never deleted; the batch's new rows inserted at its end, a
statement per table (app/services/catalogue/imports/children.py). A line that names nothing new writes nothing."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, func, insert, update

from app.extensions import db
from app.models import Content, ContentPerson
from app.models.slugs import slugify
from app.models.sort_keys import title_key
from app.services.catalogue.imports.children import Pending, alternative_titles, episode, seasons, titles_problem
from app.services.catalogue.imports.labels import Labels, Unknown
from app.services.catalogue.imports.lines import Line
from app.services.catalogue.imports.media import Media
from app.services.catalogue.imports.people import People
from app.services.catalogue.imports.state import LINKS, SCALARS, ContentNow, by_external_id, load

NEW_REQUIRED = ("title", "type")


@dataclass
class Context:
    """What a whole import shares between its batches."""

    labels: Labels
    media: Media
    people: People
    checks: Media  # the same checks for a wrong line, which stores nothing (a dry run's)
    seen_kp: dict[int, int] = field(default_factory=dict)  # a Kinopoisk id → the line that had it first
    seen_imdb: dict[str, int] = field(default_factory=dict)


@dataclass
class Outcome:
    created: list[int] = field(default_factory=list)  # content ids
    updated: list[int] = field(default_factory=list)
    unchanged: int = 0
    errors: list[tuple[int, str | None, str]] = field(default_factory=list)


@dataclass
class _Plan:
    line: int
    data: dict[str, Any]
    content_id: int | None  # the stored content the line names (None: a new one)
    wrong: set[str] | None = None  # a wrong line's wrong fields: it is checked further, never written
    now: ContentNow | None = None  # what is stored of it
    type_id: int = 0
    links: dict[str, list[int]] = field(default_factory=dict)  # the labels' ids the line gives, by field


def write_batch(lines: list[Line], context: Context) -> Outcome:
    outcome = Outcome()
    keyed = [(line, data) for line in lines
             if (data := line.checked) is not None and _first_time(line.number, data, context, outcome)]
    found_kp, found_imdb = by_external_id(
        (data["kinopoiskId"] for _, data in keyed if data.get("kinopoiskId") is not None),
        (data["imdbId"] for _, data in keyed if data.get("imdbId") is not None))
    plans: list[_Plan] = []
    for line, data in keyed:
        number = line.number
        by_kp, by_imdb = found_kp.get(data.get("kinopoiskId") or 0), found_imdb.get(data.get("imdbId") or "")
        if by_kp is not None and by_imdb is not None and by_kp != by_imdb:
            outcome.errors.append((number, "imdbId", f"kinopoiskId указывает на контент № {by_kp}, а imdbId — "
                                                     f"на другой, № {by_imdb}"))
            continue
        plans.append(_Plan(number, dict(data), by_kp if by_kp is not None else by_imdb, line.wrong))
    stored = load(plan.content_id for plan in plans if plan.content_id is not None)
    plans = [plan for plan in plans
             if _resolved(plan, stored.get(plan.content_id or 0), context, outcome) and plan.wrong is None]
    context.people.resolve([(plan.now, plan.data.get("persons") or []) for plan in plans])
    new = [plan for plan in plans if plan.now is None]
    pending = Pending()
    for plan, content_id in zip(new, _insert_contents(new), strict=True):
        _write_rest(plan, content_id, context, ContentNow(content_id, {}), pending)
        outcome.created.append(content_id)
    for plan in plans:
        if plan.now is None:
            continue
        if _update(plan, context, pending):
            outcome.updated.append(plan.now.id)
        else:
            outcome.unchanged += 1
    pending.write()
    return outcome


def _first_time(number: int, data: dict[str, Any], context: Context, outcome: Outcome) -> bool:
    """Whether the line's external ids were not on an earlier line of the file (a repeat is an error: which of the
    two would be meant?)."""
    for name, seen, key in (("kinopoiskId", context.seen_kp, data.get("kinopoiskId")),
                            ("imdbId", context.seen_imdb, data.get("imdbId"))):
        if key is not None and seen.get(key, number) != number:
            outcome.errors.append((number, name, f"{name} {key} уже был в строке {seen[key]}"))
            return False
    for seen, key in ((context.seen_kp, data.get("kinopoiskId")), (context.seen_imdb, data.get("imdbId"))):
        if key is not None:
            seen[key] = number
    return True


def _resolved(plan: _Plan, now: ContentNow | None, context: Context, outcome: Outcome) -> bool:
    """Whether the line's labels resolved and its files checked (into ``plan``); if not, its errors are noted and the
    line is not written."""
    data = plan.data
    plan.now = now
    errors: list[tuple[str | None, str]] = []
    wrong = plan.wrong or set()
    keyed = data.get("kinopoiskId") is not None or data.get("imdbId") is not None
    if now is None and keyed:  # new (a wrong line without a valid key may name a stored content: not said)
        errors += [(name, "Обязательное поле для нового контента") for name in NEW_REQUIRED
                   if name not in data and name not in wrong]
    labels = context.labels
    type_id = now.columns["content_type_id"] if now is not None else 0
    if "type" in data:
        try:
            type_id = labels.one("type", data["type"])
        except Unknown as unknown:
            errors.append((unknown.field, unknown.message))
    links: dict[str, list[int]] = {}
    for name in LINKS:
        if name in data:
            ids: list[int] = []
            for value in data[name]:
                try:
                    ids.append(labels.one(name, value, type_id))
                except Unknown as unknown:
                    errors.append((name, unknown.message))
            links[name] = sorted(set(ids))
    for position, person in enumerate(data.get("persons") or [], start=1):
        try:
            person["role_id"] = labels.one("role", person["role"])
        except Unknown as unknown:
            errors.append((f"persons[{position}].role", unknown.message))
    for name, problem in (context.media if plan.wrong is None else context.checks).check(data):
        errors.append((name, problem))
    refused = titles_problem(data, now) if "alternativeTitles" in data else None
    if refused is not None:
        errors.append(("alternativeTitles", refused))
    if errors:
        outcome.errors += [(plan.line, name, message) for name, message in errors]
        return False
    plan.type_id, plan.links = type_id, links
    return True


def _insert_contents(plans: list[_Plan]) -> list[int]:
    if not plans:
        return []
    rows = []
    for plan in plans:
        data = plan.data
        row = {column: data.get(name) for name, column in SCALARS.items()}
        row.update(description=data.get("description") or "", published=data.get("published", True),
                   content_type_id=plan.type_id, slug=f"{slugify(data['title'], 110) or 'item'}-{secrets.token_hex(4)}",
                   title_sort=title_key(data["title"]), position=0,
                   has_multiple_episodes=bool(data.get("seasons")))
        rows.append(row)
    table = Content.__table__
    returned = db.session.execute(insert(table).returning(table.c.id, sort_by_parameter_order=True), rows)
    return [row[0] for row in returned]


def _update(plan: _Plan, context: Context, pending: Pending) -> bool:
    now: ContentNow = plan.now  # type: ignore[assignment]
    data = plan.data
    changes: dict[str, Any] = {}
    for name, column in SCALARS.items():
        if name in data:
            wanted = data[name] if name != "description" else data[name] or ""
            if now.columns[column] != wanted:
                changes[column] = wanted
    if plan.type_id != now.columns["content_type_id"]:
        changes["content_type_id"] = plan.type_id
    if data.get("seasons") and not now.columns["has_multiple_episodes"]:
        changes["has_multiple_episodes"] = True
    if "title" in changes:
        changes["title_sort"] = title_key(changes["title"])
    rest = _write_rest(plan, now.id, context, now, pending)
    if not changes and not rest:
        return False
    table = Content.__table__
    db.session.execute(update(table).where(table.c.id == now.id).values(**changes, updated_at=func.now()))
    return True


def _write_rest(plan: _Plan, content_id: int, context: Context, now: ContentNow, pending: Pending) -> bool:
    """The links, credits, seasons and episodes the line gives, where they differ; whether anything was written."""
    changed = False
    for name, wanted in plan.links.items():
        if wanted != now.links[name]:
            link, column = LINKS[name]
            if now.links[name]:
                db.session.execute(delete(link).where(link.c.content_id == content_id))
            for label in wanted:
                pending.add(link, {"content_id": content_id, column: label})
            changed = True
    if "persons" in plan.data:
        credits = context.people.credits(plan.data["persons"])
        if credits != now.credits:
            table = ContentPerson.__table__
            if now.credits:
                db.session.execute(delete(table).where(table.c.content_id == content_id))
            for position, (person, role, character) in enumerate(credits):
                pending.add(table, {"content_id": content_id, "person_id": person, "person_type_id": role,
                                    "character": character, "position": position})
            changed = True
    if "alternativeTitles" in plan.data:
        changed = alternative_titles(plan.data["alternativeTitles"], content_id, now, pending) or changed
    if "seasons" in plan.data:
        changed = seasons(plan.data["seasons"], content_id, now, pending) or changed
    if plan.data.get("media") is not None:
        title = plan.data.get("title") or now.columns.get("title") or ""
        changed = episode(now, content_id, None, {"number": 1, "title": title, "media": plan.data["media"]},
                          pending, loose=True) or changed
    return changed
