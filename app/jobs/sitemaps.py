"""The sitemaps' generation, a job: it holds a lock that other generations see, stores each file of a new
generation as soon as it is full (a commit per file, so that memory holds one batch and one compressed file, and a
crash leaves a stale lock that the next run takes over, never a half-live generation), then makes the new generation
live in one transaction. A job owns its transactions, as a request does (app/transaction.py); the rules and the pieces
it writes with are app/services/seo/.

Generation streams: contents in keyset batches of ``BATCH`` (three queries a batch: the contents, their episodes,
their availability rules), each <url> serialized into the file under way.

Asked from the API or the admin, a generation is a job of the queue (``queue_generation``, the kind ``run``): the
worker process runs it (app/jobs/worker.py, at a lower CPU priority), never a web worker's thread, where its seconds
of CPU would hold the interpreter from that worker's requests. ``flask sitemap generate`` (cron) runs it in its own
process."""

from __future__ import annotations

import gzip
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, delete, func, insert, or_, select, update
from sqlalchemy.engine import CursorResult

from app.clock import now as clock_now
from app.database import dialect_insert
from app.jobs.context import JobContext, JobFailed, Outcome
from app.jobs.queue import Application, send_after_commit
from app.models.sitemaps import STATE_ID, SitemapFile, SitemapState
from app.services import jobs
from app.services.errors import Conflict
from app.services.seo.sitemap_entries import BATCH, AnySession, SitemapConfig, entries, sitemap_config
from app.services.seo.sitemaps import (
    GZIP_LEVEL,
    INDEX,
    LOCK_STALE,
    MAX_LOC,
    FileInfo,
    FileWriter,
    Generation,
    GenerationRunning,
    UrlSerializer,
    generation,
    generation_running,
    index_document,
    running,
    sitemap_loc,
)

log = logging.getLogger(__name__)
KIND = SUBJECT = "sitemaps"  # the job's kind, and its subject: one generation queued or running at a time
LABEL = "Карта сайта"
PROGRESS_EVERY = 1000  # URLs between reports of a job's progress


class _Run:
    """One generation: its lock, its new generation number, and the files it stores under it."""

    def __init__(self, session: AnySession, base_url: str, now: Callable[[], datetime]) -> None:
        self.session = session
        self.base_url = base_url
        self.now = now
        self.token = secrets.token_hex(16)
        self.live: int | None = None
        self.generation = 0
        self.previous: dict[int, tuple[str, datetime]] = {}  # the live files' etag and change time, by number

    def acquire(self) -> None:
        session, state = self.session, SitemapState.__table__
        _insert_missing_state(session)
        now = self.now()
        free = or_(state.c.running_token.is_(None), state.c.running_since < now - LOCK_STALE)
        taken = self._set_state(free, running_since=now, running_token=self.token)
        session.commit()
        if not taken:
            raise generation_running()
        self.live = session.scalar(select(state.c.generation).where(state.c.id == STATE_ID))
        # a number no run used yet (one that died may have left files under the next one, or still be writing them)
        self.generation = max(self.live or 0, session.scalar(select(func.max(SitemapFile.generation))) or 0) + 1
        # what a run that died left behind, and the live files' fingerprints
        session.execute(delete(SitemapFile).where(SitemapFile.generation != (self.live or 0)))
        self.previous = {row.number: (row.etag, row.changed_at) for row in session.execute(
            select(SitemapFile.number, SitemapFile.etag, SitemapFile.changed_at)
            .where(SitemapFile.generation == (self.live or 0)))}
        session.commit()

    def store(self, number: int, body: bytes, size: int, urls: int, etag: str) -> FileInfo:
        """Stores one file of the new generation (no reader sees it yet), and the run is heard of, in one
        transaction: a run that lost its lock writes nothing."""
        kept = self.previous.get(number)
        changed_at = kept[1] if kept and kept[0] == etag else self.now()
        self.session.execute(insert(SitemapFile), [{
            "generation": self.generation, "number": number, "body": body, "size": size, "gzip_size": len(body),
            "urls": urls, "etag": etag, "changed_at": changed_at}])
        if not self._set_state(self._ours(), running_since=self.now()):
            self.session.rollback()
            raise generation_running()
        self.session.commit()
        return FileInfo(number, sitemap_loc(self.base_url, number), urls, size, len(body), changed_at)

    def publish(self, values: dict[str, Any]) -> None:
        """One transaction: the new generation is live, the old one's files are gone, the lock is free."""
        if not self._set_state(self._ours(), generation=self.generation, running_since=None, running_token=None,
                               **values):
            self.session.rollback()
            raise generation_running()
        self.session.execute(delete(SitemapFile).where(SitemapFile.generation != self.generation))
        self.session.commit()

    def abandon(self) -> None:
        """After a failure: the lock is freed and the new generation's files go (the live ones stay); a run that
        lost its lock to another touches nothing."""
        self.session.rollback()
        if self._set_state(self._ours(), running_since=None, running_token=None):
            self.session.execute(delete(SitemapFile).where(SitemapFile.generation == self.generation))
        self.session.commit()

    def _ours(self) -> ColumnElement[bool]:
        return SitemapState.__table__.c.running_token == self.token

    def _set_state(self, condition: ColumnElement[bool], **values: Any) -> bool:
        """Updates the state row if ``condition`` holds; whether it did."""
        state = SitemapState.__table__
        result = self.session.execute(update(state).where(state.c.id == STATE_ID, condition).values(**values))
        return cast(CursorResult[Any], result).rowcount == 1


def _insert_missing_state(session: AnySession) -> None:
    """The state row, made once (by whichever run comes first)."""
    session.execute(dialect_insert(session, SitemapState.__table__).values(id=STATE_ID).on_conflict_do_nothing())


def queue_generation(session: AnySession, app: Application, base_url: str, *, account_id: int | None) -> None:
    """A generation of the files for ``base_url`` queued for the job worker (sent once the request commits);
    GenerationRunning while one runs (a job's, or ``flask sitemap generate``'s) or waits in the queue."""
    if running(generation(session)):
        raise generation_running()
    try:
        job = jobs.create(session, KIND, {"base_url": base_url}, now=clock_now(), account_id=account_id,
                          subject=SUBJECT, message="Ждёт обработчика.")
    except Conflict:
        raise generation_running() from None
    send_after_commit(app, job.id)


def run(context: JobContext) -> Outcome:
    """The job kind: a generation for the address the request that queued it named, reporting the URLs written."""
    from app.extensions import db

    config = sitemap_config(context.config, str(context.params["base_url"]))
    try:
        made = generate(db.session, config, progress=context.progress)
    except GenerationRunning:
        raise JobFailed("Карту сайта уже собирает другой запуск (flask sitemap generate).") from None
    finally:
        db.session.remove()
    return Outcome(f"Карта сайта собрана: адресов {made.url_count}, файлов {len(made.files)}, "
                   f"{(made.duration_ms or 0) / 1000:.1f} с.",
                   {"url_count": made.url_count, "file_count": len(made.files), "duration_ms": made.duration_ms})


def generate(session: AnySession, config: SitemapConfig, *, batch: int = BATCH,
             now: Callable[[], datetime] = clock_now,
             progress: Callable[[int, int | None], object] | None = None) -> Generation:
    """Generates every file and the index and makes them live at once; raises GenerationRunning when another
    generation holds the lock. The statements: a few for the lock and the swap, three per ``batch`` contents, one
    insert per file. ``progress(urls, None)`` is told every PROGRESS_EVERY URLs (a job's report, which may stop it:
    the lock is freed and the live files stay)."""
    started = time.monotonic()
    run = _Run(session, config.base_url, now)
    run.acquire()
    try:
        serializer = UrlSerializer()
        files: list[FileInfo] = []
        current: FileWriter | None = None
        urls = videos = skipped = 0

        def close(file: FileWriter) -> None:
            body, etag = file.finish(serializer.foot)
            files.append(run.store(file.number, body, file.size, file.urls, etag))

        for entry in entries(session, config, batch):
            chunk = serializer.url(entry)
            if len(entry.loc) > MAX_LOC or len(serializer.head) + len(chunk) + len(serializer.foot) > config.max_bytes:
                skipped += 1  # no file could hold it
                continue
            if current is not None and (current.urls >= config.max_urls
                                        or current.size + len(chunk) + len(serializer.foot) > config.max_bytes):
                close(current)
                current = None
            if current is None:
                current = FileWriter(len(files) + 1, serializer.head)
            current.write(chunk)
            current.urls += 1
            urls += 1
            videos += len(entry.videos)
            if progress is not None and urls % PROGRESS_EVERY == 0:
                progress(urls, None)
        if current is not None:
            close(current)
        serializer.close()
        index = index_document(config.base_url, files)
        index_gzip = gzip.compress(index, compresslevel=GZIP_LEVEL, mtime=0)
        index_info = run.store(INDEX, index_gzip, len(index), len(files),
                               hashlib.sha256(index).hexdigest()[:32]) if files else None
        generated_at, duration_ms = now(), int((time.monotonic() - started) * 1000)
        run.publish({"base_url": config.base_url, "generated_at": generated_at, "duration_ms": duration_ms,
                     "url_count": urls, "video_count": videos, "skipped_count": skipped, "file_count": len(files)})
    except BaseException:
        try:
            run.abandon()
        except Exception:  # the database went too: the lock goes stale (LOCK_STALE) and the next run takes over
            log.exception("sitemaps: could not free the generation lock")
        raise
    return Generation(generated_at, duration_ms, config.base_url, urls, videos, skipped, tuple(files), index_info,
                      None)
