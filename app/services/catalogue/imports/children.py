"""A content's alternative titles as a line gives them (the list replaces the stored one, in its order, by the rules
of app/services/catalogue/titles.py), and its seasons and episodes, matched by number: a new one added, a stored one
changed in the fields the line gives, none deleted. New rows (and the batch's links and credits) wait in ``Pending``
and are inserted at the batch's end, one statement per table: the seasons first, whose ids their new episodes then
take."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, delete, insert, update

from app.extensions import db
from app.models import Episode, Season
from app.models.titles import AlternativeTitle, TitleKind
from app.services.catalogue import titles
from app.services.catalogue.imports.state import ContentNow, EpisodeNow

EPISODE_FIELDS = (("title", "title"), ("description", "description"), ("duration", "duration"),
                  ("media", "master_file_path"))  # the file's name → the column


class Pending:
    """The rows a batch inserts at its end."""

    def __init__(self) -> None:
        self.rows: dict[Table, list[dict[str, Any]]] = {}
        self.seasons: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []  # a new season, its new episodes

    def add(self, table: Table, row: dict[str, Any]) -> None:
        self.rows.setdefault(table, []).append(row)

    def write(self) -> None:
        if self.seasons:
            table = Season.__table__
            ids = db.session.execute(insert(table).returning(table.c.id, sort_by_parameter_order=True),
                                     [row for row, _episodes in self.seasons]).scalars().all()
            for season_id, (_row, episodes) in zip(ids, self.seasons, strict=True):
                for row in episodes:
                    self.add(Episode.__table__, {**row, "season_id": season_id})
        for table, rows in self.rows.items():
            insert_rows(table, rows)


def insert_rows(table: Table, rows: list[dict[str, Any]]) -> None:
    """Many rows in few statements. On PostgreSQL, psycopg runs a plain executemany as one INSERT per row (pipelined);
    with RETURNING, SQLAlchemy sends multi-row VALUES instead ("insertmanyvalues", 1,000 rows a statement, compiled
    once): 10,000 titles' rows in 30 s instead of 48 (a VALUES list compiled per chunk) or 170 (per row). SQLite's
    executemany is one prepared statement stepped in C already."""
    if db.session.get_bind().dialect.name != "postgresql":
        db.session.execute(insert(table), rows)
        return
    key = next(iter(table.primary_key.columns))
    db.session.execute(insert(table).returning(key), rows)


def titles_problem(data: dict[str, Any], now: ContentNow | None) -> str | None:
    """What is wrong with the line's alternative titles beside its content's title, in Russian; None: nothing."""
    for title in data["alternativeTitles"]:
        problem = titles.language_problem(title["language"])
        if problem is not None:
            return problem
    own = data.get("title") or (now.columns.get("title") if now is not None else None)
    return titles.titles_problem(own, (title["title"] for title in data["alternativeTitles"]))


def alternative_titles(wanted: list[dict[str, Any]], content_id: int, now: ContentNow, pending: Pending) -> bool:
    """Whether they differ from the stored ones (then those are replaced)."""
    rows = [(titles.cleaned_title(title["title"]), titles.cleaned_language(title["language"]), title["kind"])
            for title in wanted]
    if rows == now.titles:
        return False
    table = AlternativeTitle.__table__
    if now.titles:
        db.session.execute(delete(table).where(table.c.content_id == content_id))
    for position, (title, language, kind) in enumerate(rows):
        pending.add(table, {"content_id": content_id, "title": title, "language": language, "kind": TitleKind(kind),
                            "position": position})
    return True


def seasons(wanted: list[dict[str, Any]], content_id: int, now: ContentNow, pending: Pending) -> bool:
    """Whether anything of them changes."""
    changed = False
    table = Season.__table__
    for season in wanted:
        number = season["number"]
        title = season.get("title") or None
        if number not in now.seasons:
            new: list[dict[str, Any]] = []
            pending.seasons.append(({"content_id": content_id, "order": number, "title": title}, new))
            for one in season.get("episodes") or []:
                new.append(_row(content_id, None, one))
            changed = True
            continue
        season_id, stored_title = now.seasons[number]
        if "title" in season and stored_title != title:
            db.session.execute(update(table).where(table.c.id == season_id).values(title=title))
            changed = True
        for one in season.get("episodes") or []:
            changed = episode(now, content_id, season_id, one, pending) or changed
    return changed


def episode(now: ContentNow, content_id: int, season_id: int | None, wanted: dict[str, Any], pending: Pending,
            loose: bool = False) -> bool:
    """One episode added, or changed in what the line gives (``loose``, a film's: its first episode outside a season,
    whose title is not the line's to change); whether anything changes."""
    stored: EpisodeNow | None
    if loose:
        outside = sorted((e for e in now.episodes.values() if e.season_id is None), key=lambda e: (e.order, e.id))
        stored = outside[0] if outside else None
    else:
        stored = now.episodes.get((season_id, wanted["number"]))
    if stored is None:
        pending.add(Episode.__table__, _row(content_id, season_id, wanted))
        return True
    changes = {}
    for name, column in EPISODE_FIELDS:
        if name not in wanted or (loose and name == "title"):
            continue
        value = wanted[name] or "" if name == "description" else wanted[name]
        if getattr(stored, name if name == "media" else column) != value:
            changes[column] = value
    if changes:
        table = Episode.__table__
        db.session.execute(update(table).where(table.c.id == stored.id).values(**changes))
    return bool(changes)


def _row(content_id: int, season_id: int | None, wanted: dict[str, Any]) -> dict[str, Any]:
    return {"content_id": content_id, "season_id": season_id, "order": wanted["number"],
            "title": wanted.get("title") or f"Серия {wanted['number']}", "description": wanted.get("description") or "",
            "duration": wanted.get("duration"), "master_file_path": wanted.get("media")}
