"""The whole import: the file read a line at a time, every BATCH lines written in one transaction of its own (a crash
loses at most a batch; a re-run is safe: what is written already is found unchanged), each changed content's
relevance and reach written with it; at the end the search index of the changed contents (the whole index when many
changed) and the catalogue's caches (app/caching.py ``invalidate_catalogue``). Nothing of it when nothing changed:
a re-import of the same file writes nothing and bumps no generation. The sitemaps are the caller's (they need the
site's address): ``ImportReport.changed`` says when."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sqlalchemy import func, select, update
from sqlalchemy.exc import SQLAlchemyError

from app.clock import now
from app.extensions import db
from app.models import Content
from app.services.catalogue.imports.labels import load_labels
from app.services.catalogue.imports.lines import Line, count_lines, file_format, read_lines
from app.services.catalogue.imports.media import Media
from app.services.catalogue.imports.people import People
from app.services.catalogue.imports.report import ImportReport, LineError
from app.services.catalogue.imports.write import Context, Outcome, write_batch
from app.services.catalogue.reach import refresh_reach
from app.services.catalogue.relevance import relevance
from app.services.errors import Invalid
from app.services.search.index import reindex, tidy
from app.transaction import transaction

BATCH = 500  # lines per transaction
# Past this share of the catalogue changed, the whole search index is rebuilt instead of the changed contents'
# documents (measured at 100,000 titles: 20,000 documents 4.3 s on SQLite, 8.2 s on PostgreSQL; the whole index 20 and
# 23 s: even at about 57 % on PostgreSQL, 100 % on SQLite)
WHOLE_INDEX_SHARE = 0.5
CHUNK = 500  # ids per UPDATE


class _Undone(Exception):
    """A dry run's batch: written, counted, rolled back."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__()
        self.outcome = outcome


def import_catalogue(path: Path, *, progress: Callable[[int, int], None] | None = None, dry_run: bool = False,
                     media_root: Path | None = None, media_url: str = "/media") -> ImportReport:
    """Imports the file (JSON Lines or CSV by its extension: docs/import.md). ``media_root``: where a poster given as
    a file is stored (the application's MEDIA_ROOT; None: such a poster is an error of its line), under the address
    ``media_url`` (MEDIA_URL_PATH). ``dry_run``: everything checked and counted, nothing kept."""
    if file_format(path) is None:
        raise Invalid("import_format", "Файл импорта должен быть .jsonl, .ndjson или .csv")
    try:
        total = count_lines(path)
    except UnicodeDecodeError:
        raise Invalid("import_encoding", "Файл импорта не в кодировке UTF-8") from None
    except OSError as error:
        raise Invalid("import_unreadable", f"Файл импорта не читается: {error.strerror}") from None
    with transaction():
        labels = load_labels()
    context = Context(labels, Media(path.parent, media_root, media_url, dry_run), People(),
                      Media(path.parent, media_root, media_url, dry_run=True))
    counts = {"lines": 0, "created": 0, "updated": 0, "unchanged": 0}
    errors: list[LineError] = []
    changed: list[int] = []
    batch: list[Line] = []

    def write() -> None:
        outcome = _write(batch, context, dry_run)
        counts["created"] += len(outcome.created)
        counts["updated"] += len(outcome.updated)
        counts["unchanged"] += outcome.unchanged
        errors.extend(LineError(line, name, message) for line, name, message in outcome.errors)
        changed.extend(outcome.created + outcome.updated)
        batch.clear()

    if progress is not None:
        progress(0, total)
    for line in read_lines(path):
        counts["lines"] += 1
        errors.extend(LineError(line.number, name, message) for name, message in line.errors)
        if line.checked is not None:
            batch.append(line)  # a wrong line only to be checked further (write_batch)
        if counts["lines"] % BATCH == 0:
            write()
            if progress is not None:
                progress(counts["lines"], total)
    write()
    if progress is not None:
        progress(counts["lines"], total)
    if changed and not dry_run:
        _after(changed)
    errors.sort(key=lambda error: error.line)
    return ImportReport(errors=errors, **counts)


def _write(lines: list[Line], context: Context, dry_run: bool) -> Outcome:
    """The batch in one transaction; when the database refuses it, each line in its own, so that the line at fault
    is named and the others are written."""
    if not lines:
        return Outcome()
    try:
        with transaction():
            outcome = write_batch(lines, context)
            _derive(outcome.created + outcome.updated)
            if dry_run:
                raise _Undone(outcome)
    except _Undone as undone:
        context.people.forget()
        return undone.outcome
    except SQLAlchemyError as error:
        context.people.forget()
        if len(lines) == 1:
            reason = str(getattr(error, "orig", error)).splitlines()[0][:200]
            return Outcome(errors=[(lines[0].number, None, f"Строка не записана: база данных отказала ({reason})")])
        whole = Outcome()
        for line in lines:
            one = _write([line], context, dry_run)
            whole.created += one.created
            whole.updated += one.updated
            whole.unchanged += one.unchanged
            whole.errors += one.errors
        return whole
    return outcome


def _derive(content_ids: list[int]) -> None:
    """What a flush through the ORM would keep (app/services/catalogue/relevance.py, reach.py) for rows written
    without it: the changed contents' relevance and reach."""
    table = Content.__table__
    for start in range(0, len(content_ids), CHUNK):
        chunk = content_ids[start:start + CHUNK]
        db.session.execute(update(table).where(table.c.id.in_(chunk))
                           .values(relevance=relevance(now().year), updated_at=table.c.updated_at))
        refresh_reach(db.session, chunk)


def _after(changed: list[int]) -> None:
    """The search index of the changed contents, then every cache of the catalogue."""
    from app.caching import invalidate_catalogue

    with transaction():
        contents = db.session.scalar(select(func.count()).select_from(Content)) or 0
        whole = len(changed) > WHOLE_INDEX_SHARE * contents
        reindex(None if whole else changed)
    if whole:
        with transaction():
            tidy()
    invalidate_catalogue()
