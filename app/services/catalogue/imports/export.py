"""The catalogue written in the import's format (docs/import.md), a chunk of contents at a time in id order: every
content with an external id (one without cannot be imported again, so it is left out). Values the import would take
as absent are left out (null, an empty list, an empty description), labels by slug in slug order, persons in credit
order, seasons and episodes by number: an export imported into an empty catalogue exports the same file."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from typing import IO, Any, Literal

from sqlalchemy import func, or_, select

from app.extensions import db
from app.models import Content
from app.services.catalogue.imports.labels import Labels, load_labels
from app.services.catalogue.imports.lines import JSON_FIELDS, LIST_FIELDS, LineSchema
from app.services.catalogue.imports.state import LINKS, ContentNow, load

CHUNK = 1000
ROLES = "role"


def export_catalogue(out: IO[str], fmt: Literal["jsonl", "csv"], *,
                     progress: Callable[[int, int], None] | None = None) -> int:
    """Writes every content with an external id to ``out``; how many."""
    table = Content.__table__
    keyed = or_(table.c.kinopoisk_id.is_not(None), table.c.imdb_id.is_not(None))
    total = db.session.scalar(select(func.count()).select_from(table).where(keyed)) or 0
    labels = load_labels()
    columns = list(LineSchema().fields)
    writer = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
    if writer is not None:
        writer.writerow(columns)
    written, last = 0, 0
    if progress is not None:
        progress(0, total)
    while True:
        ids = list(db.session.scalars(select(table.c.id).where(keyed, table.c.id > last)
                                      .order_by(table.c.id).limit(CHUNK)))
        if not ids:
            break
        stored = load(ids)
        for content_id in ids:
            line = _line(stored[content_id], labels)
            if writer is None:
                out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
            else:
                writer.writerow([_cell(name, line.get(name)) for name in columns])
        written += len(ids)
        last = ids[-1]
        if progress is not None:
            progress(written, total)
    return written


def _line(now: ContentNow, labels: Labels) -> dict[str, Any]:
    columns = now.columns
    line: dict[str, Any] = {"kinopoiskId": columns["kinopoisk_id"], "imdbId": columns["imdb_id"],
            "type": labels.type_slugs.get(columns["content_type_id"]), "title": columns["title"],
            "originalTitle": columns["original_title"],
            "alternativeTitles": [_drop_empty({"title": title, "language": language, "kind": kind})
                                  for title, language, kind in now.titles],
            "year": columns["year"],
            "description": columns["description"] or None, "ageRating": columns["age_rating"]}
    for name in LINKS:
        line[name] = sorted(labels.slugs[name][label] for label in now.links[name])
    roles = labels.slugs[ROLES]
    line["persons"] = [_person(now.names[person], roles[role], character)
                       for person, role, character in now.credits]
    line.update(kinopoiskRating=_rating(columns["kinopoisk_rating"]), imdbRating=_rating(columns["imdb_rating"]),
                poster=columns["poster_url"], published=bool(columns["published"]))
    by_season: dict[int, list[dict[str, Any]]] = {}
    for (season_id, number), episode in sorted(now.episodes.items(), key=lambda item: item[0][1]):
        if season_id is not None:
            by_season.setdefault(season_id, []).append(_drop_empty({
                "number": number, "title": episode.title, "description": episode.description or None,
                "duration": episode.duration, "media": episode.media}))
    line["seasons"] = [_drop_empty({"number": number, "title": title, "episodes": by_season.get(season_id, [])})
                       for number, (season_id, title) in sorted(now.seasons.items())]
    loose = sorted((e for e in now.episodes.values() if e.season_id is None), key=lambda e: (e.order, e.id))
    line["media"] = loose[0].media if loose else None
    return _drop_empty(line)


def _rating(value: float | None) -> float | None:
    """Always a float: SQLite gives a whole rating back as an integer (7), PostgreSQL as 7.0; the file says 7.0."""
    return None if value is None else float(value)


def _person(name: tuple[str, str | None, int | None], role: str, character: str | None) -> dict[str, Any]:
    return _drop_empty({"name": name[0], "originalName": name[1], "role": role, "character": character,
                        "kinopoiskId": name[2]})


def _drop_empty(values: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None and value != []}


def _cell(name: str, value: Any) -> str:
    if value is None:
        return ""
    if name in LIST_FIELDS:
        return ";".join(value)
    if name in JSON_FIELDS:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
