"""Sitemaps (the sitemaps.org protocol with Google's video extension) and robots.txt.

The files are generated ahead (the job app/jobs/sitemaps.py: ``flask sitemap generate``, the administrators' debug
call, the demo seeders) and kept in the database (app/models/sitemaps.py), so that a request for one is one query for
one row, whatever the catalogue's size. This module reads what was generated and holds the pieces a generation writes
with: each <url> serialized by one incremental lxml serializer (``etree.xmlfile``) into the file under way, gzipped as
it goes. A file is full at ``max_urls`` entries or at the next entry that would take it past ``max_bytes``
uncompressed (the protocol's 50,000 and 50 MiB by default).

What goes in the files (the <url> entries, their videos, what is left out) is app/services/seo/sitemap_entries.py.
"""

from __future__ import annotations

import gzip
import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urljoin

from lxml import etree
from sqlalchemy import and_, select

from app import clock
from app.models.sitemaps import STATE_ID, SitemapFile, SitemapState
from app.services.errors import Conflict
from app.services.seo.sitemap_entries import AnySession, Entry, Video, w3c_datetime

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1"
NSMAP = {None: SITEMAP_NS, "video": VIDEO_NS}
INDEX = 0  # the index's file number; /sitemap{n}.xml are 1…
MAX_LOC = 2048  # sitemap.xsd: a <loc> of 12 to 2,048 characters
GZIP_LEVEL = 6
LOCK_STALE = timedelta(minutes=10)  # a generation not heard of for this long died: another may take over

# robots.txt: the player pages (/?movie_id=…, the share addresses) and what they load (scripts, posters, media)
# are public; the calls about one viewer or account, the ad machinery (a crawler must not fetch ads or fire pixels),
# search results, the demo page, the probes and the debugging calls are not for crawlers.
ROBOTS_DISALLOW = (
    "/debug/",
    "/administration/",
    "/caches",
    "/user/",
    "/authentication",
    "/signup",
    "/session-context",
    "/subscription",
    "/contents/*/episodes/",  # progress, completion, the last watched: a viewer's own
    "/ad-list.json",
    "/vast.xml",
    "/ad-tracking",
    "/v2/contents/search",
    "/demo",
    "/healthz",
    "/readyz",
)


def robots_txt(sitemap_url: str | None) -> str:
    """The robots.txt: every crawler, what it may not fetch, and the sitemap index (an absolute address)."""
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in ROBOTS_DISALLOW), "Allow: /"]
    if sitemap_url:
        lines += ["", f"Sitemap: {sitemap_url}"]
    return "\n".join(lines) + "\n"


class GenerationRunning(Conflict):
    """Another generation holds the lock."""


def generation_running() -> GenerationRunning:
    return GenerationRunning("sitemap_generation_running", "Карта сайта уже создаётся: попробуйте позже")


def running(generation: Generation) -> bool:
    """Whether a generation is under way: one holds the lock and was heard of within LOCK_STALE (one that died
    holding it is not: the next run takes over)."""
    since = generation.running_since
    return since is not None and since > clock.now() - LOCK_STALE


@dataclass(frozen=True)
class FileInfo:
    number: int
    loc: str
    urls: int
    size: int  # uncompressed bytes
    gzip_size: int
    changed_at: datetime


@dataclass(frozen=True)
class Generation:
    """The live generation (all None and 0 before the first), and whether one is under way."""

    generated_at: datetime | None
    duration_ms: int | None
    base_url: str | None
    url_count: int
    video_count: int
    skipped_count: int
    files: tuple[FileInfo, ...]
    index: FileInfo | None
    running_since: datetime | None

    @property
    def file_count(self) -> int:
        return len(self.files)


@dataclass(frozen=True)
class StoredFile:
    body: bytes  # gzipped
    size: int
    etag: str
    changed_at: datetime


def sitemap_loc(base_url: str, number: int) -> str:
    """The address of file ``number`` (the index for INDEX)."""
    return urljoin(base_url, "sitemap.xml" if number == INDEX else f"sitemap{number}.xml")


# --- reading what was generated


def stored_file(session: AnySession, number: int) -> StoredFile | None:
    """File ``number`` of the live generation (INDEX: the index), or None: one query."""
    row = session.execute(
        select(SitemapFile.body, SitemapFile.size, SitemapFile.etag, SitemapFile.changed_at)
        .join(SitemapState, and_(SitemapState.id == STATE_ID, SitemapState.generation == SitemapFile.generation))
        .where(SitemapFile.number == number)
    ).first()
    return StoredFile(row.body, row.size, row.etag, row.changed_at) if row else None


def generation(session: AnySession) -> Generation:
    """What the live generation holds, and whether another is under way: two queries, no file's body."""
    state = session.execute(select(SitemapState).where(SitemapState.id == STATE_ID)).scalar_one_or_none()
    if state is None:
        return Generation(None, None, None, 0, 0, 0, (), None, None)
    rows = session.execute(
        select(SitemapFile.number, SitemapFile.urls, SitemapFile.size, SitemapFile.gzip_size, SitemapFile.changed_at)
        .where(SitemapFile.generation == state.generation).order_by(SitemapFile.number)
    ).all() if state.generation is not None else []
    base = state.base_url or ""
    infos = [FileInfo(row.number, sitemap_loc(base, row.number), row.urls, row.size, row.gzip_size, row.changed_at)
             for row in rows]
    running = state.running_since if state.running_token else None
    return Generation(state.generated_at, state.duration_ms, state.base_url, state.url_count, state.video_count,
                      state.skipped_count, tuple(info for info in infos if info.number != INDEX),
                      next((info for info in infos if info.number == INDEX), None), running)


def empty_index() -> bytes:
    """The index before anything was generated: well-formed, in the protocol's namespace, listing nothing (the
    protocol's schema wants one <sitemap> at least: a crawler reads it as "no sitemaps yet")."""
    out = io.BytesIO()
    with etree.xmlfile(out, encoding="utf-8") as xf:
        xf.write_declaration()
        with xf.element(f"{{{SITEMAP_NS}}}sitemapindex", nsmap={None: SITEMAP_NS}):
            pass
    return out.getvalue()


# --- writing


class _Sink:
    """Where the serializer writes: collected until taken."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.parts.append(data)

    def take(self) -> bytes:
        data = b"".join(self.parts)
        self.parts.clear()
        return data


class UrlSerializer:
    """One incremental lxml serializer inside an open <urlset>: each <url> comes out as the bytes it is in any
    urlset of these namespaces (lxml escapes every text and attribute), so that the file being filled can tell before
    taking it whether it still fits. ``head`` and ``foot`` are the urlset's own tags, as lxml writes them."""

    URLSET = f"{{{SITEMAP_NS}}}urlset"

    def __init__(self) -> None:
        sink = _Sink()
        with etree.xmlfile(sink, encoding="utf-8") as xf:
            xf.write_declaration()
            with xf.element(self.URLSET, nsmap=NSMAP):
                xf.flush()
                self.head = sink.take()
            xf.flush()
        self.foot = sink.take()
        self._sink = _Sink()
        self._context = etree.xmlfile(self._sink, encoding="utf-8")
        self._xf = self._context.__enter__()
        self._root = self._xf.element(self.URLSET, nsmap=NSMAP)
        self._root.__enter__()
        self._xf.flush()
        self._sink.take()

    def url(self, entry: Entry) -> bytes:
        xf = self._xf
        with xf.element(f"{{{SITEMAP_NS}}}url"):
            self._leaf(f"{{{SITEMAP_NS}}}loc", entry.loc)
            if entry.lastmod is not None:
                self._leaf(f"{{{SITEMAP_NS}}}lastmod", entry.lastmod)
            for video in entry.videos:
                self._video(video)
        xf.flush()
        return self._sink.take()

    def _video(self, video: Video) -> None:
        v = f"{{{VIDEO_NS}}}"
        with self._xf.element(f"{v}video"):  # the schema's order
            self._leaf(f"{v}thumbnail_loc", video.thumbnail_loc)
            self._leaf(f"{v}title", video.title)
            self._leaf(f"{v}description", video.description)
            self._leaf(f"{v}player_loc", video.player_loc)
            if video.duration is not None:
                self._leaf(f"{v}duration", str(video.duration))
            if video.publication_date is not None:
                self._leaf(f"{v}publication_date", video.publication_date)
            if not video.family_friendly:
                self._leaf(f"{v}family_friendly", "no")
            if video.restriction is not None:
                self._leaf(f"{v}restriction", " ".join(video.restriction.countries),
                           relationship=video.restriction.relationship)

    def _leaf(self, tag: str, text: str, **attributes: str) -> None:
        with self._xf.element(tag, attributes):
            self._xf.write(text)

    def close(self) -> None:
        self._root.__exit__(None, None, None)
        self._context.__exit__(None, None, None)


class FileWriter:
    """A file being filled: gzipped, hashed and measured as it goes."""

    def __init__(self, number: int, head: bytes) -> None:
        self.number = number
        self.urls = 0
        self.size = 0
        self._buffer = io.BytesIO()
        self._gzip = gzip.GzipFile(fileobj=self._buffer, mode="wb", compresslevel=GZIP_LEVEL, mtime=0)
        self._hash = hashlib.sha256()
        self.write(head)

    def write(self, data: bytes) -> None:
        self._gzip.write(data)
        self._hash.update(data)
        self.size += len(data)

    def finish(self, foot: bytes) -> tuple[bytes, str]:
        self.write(foot)
        self._gzip.close()
        return self._buffer.getvalue(), self._hash.hexdigest()[:32]


def index_document(base_url: str, files: Sequence[FileInfo]) -> bytes:
    out = io.BytesIO()
    with etree.xmlfile(out, encoding="utf-8") as xf:
        xf.write_declaration()
        with xf.element(f"{{{SITEMAP_NS}}}sitemapindex", nsmap={None: SITEMAP_NS}):
            for info in files:
                with xf.element(f"{{{SITEMAP_NS}}}sitemap"):
                    with xf.element(f"{{{SITEMAP_NS}}}loc"):
                        xf.write(sitemap_loc(base_url, info.number))
                    with xf.element(f"{{{SITEMAP_NS}}}lastmod"):
                        xf.write(w3c_datetime(info.changed_at))
    return out.getvalue()
