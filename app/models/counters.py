"""Counters every process of the service reads: the catalogue's generation and the named caches' epochs
(app/caching.py). With Redis they live there; without it (the embedded default) here, so that a change the admin
makes in one worker makes every worker's kept answers stale, not only its own."""

from __future__ import annotations

from sqlalchemy import BigInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from app.extensions import db


class CacheCounter(db.Model):  # type: ignore[name-defined]
    __tablename__ = "cache_counters"

    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    value: Mapped[int] = mapped_column(BigInteger)
