"""Sitemaps, generated ahead (app/services/seo/sitemaps.py) and kept here so that every worker on every host serves the
same files: each file gzipped, under the generation that wrote it, and one row saying which generation is live.

A generation writes its files under a new generation number, one committed file at a time (a reader never sees
them); then, in one transaction, the state row names the new generation and the old one's files go. The state row is
also the lock that keeps two generations from running at once."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from app.extensions import db
from app.models.moments import Moment

STATE_ID = 1  # the state table's one row


class SitemapFile(db.Model):  # type: ignore[name-defined]
    """One file of a generation: number 0 is the index (/sitemap.xml), n ≥ 1 is /sitemap{n}.xml."""

    __tablename__ = "sitemap_files"

    generation: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    body: Mapped[bytes] = mapped_column(LargeBinary)  # the XML, gzipped
    size: Mapped[int] = mapped_column(Integer)  # uncompressed bytes
    gzip_size: Mapped[int] = mapped_column(Integer)
    urls: Mapped[int] = mapped_column(Integer)  # <url> entries (<sitemap> entries for the index)
    etag: Mapped[str] = mapped_column(String(64))  # of the uncompressed XML
    # When this file's content last changed: kept from the previous generation when its bytes are the same (the
    # index's <lastmod> and the file's Last-Modified)
    changed_at: Mapped[datetime] = mapped_column(Moment())


class SitemapState(db.Model):  # type: ignore[name-defined]
    """The live generation and what it was, and the generation under way (the lock)."""

    __tablename__ = "sitemap_state"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)  # always STATE_ID
    generation: Mapped[int | None] = mapped_column(Integer)  # the files served; None: never generated
    base_url: Mapped[str | None] = mapped_column(String(2048))  # the origin the files' addresses start with
    generated_at: Mapped[datetime | None] = mapped_column(Moment())
    duration_ms: Mapped[int | None] = mapped_column(Integer)
    url_count: Mapped[int] = mapped_column(Integer, default=0)
    video_count: Mapped[int] = mapped_column(Integer, default=0)
    skipped_count: Mapped[int] = mapped_column(Integer, default=0)  # entries no file could hold (too long)
    file_count: Mapped[int] = mapped_column(Integer, default=0)  # without the index
    running_since: Mapped[datetime | None] = mapped_column(Moment())  # a generation holds the lock, last seen then
    running_token: Mapped[str | None] = mapped_column(String(32))
