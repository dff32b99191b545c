"""Ads: the house creatives this application serves as VAST, where ads are placed, and every tracking hit.

A placement puts an ad in a content's pre-roll or mid-roll list (``GET /ad-list.json``). It points either at a house
creative (served by ``GET /vast.xml``, optionally through a chain of wrappers) or at an outside VAST URL. Targeting is
optional: a placement with neither a content nor a content type applies everywhere.
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import CheckConstraint, Enum, ForeignKey, Index, Integer, String, func
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.clock import now
from app.extensions import db
from app.models.moments import Moment

MAX_URL = 2048
MAX_WRAPPER_DEPTH = 5  # wrappers a house ad may sit behind
# What a tracking hit can be: the pixels the house documents carry (app/services/ads/vast.py; tests/api/test_ads_api.py
# checks that each of theirs is here), from which document of a chain.
PIXEL_EVENTS = (
    "impression", "click", "error", "loaded", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
    "pause", "resume", "mute", "unmute", "skip", "progress",
)
PIXEL_SOURCES = ("inline", *(f"wrapper-{depth}" for depth in range(1, MAX_WRAPPER_DEPTH + 1)))


class AdPosition(enum.StrEnum):
    PREROLL = "preroll"
    MIDROLL = "midroll"


class AdCreative(db.Model):  # type: ignore[name-defined]
    """A linear video ad of our own: its media files, duration, skip offset and click-through."""

    __tablename__ = "ad_creatives"
    __table_args__ = (CheckConstraint("duration > 0", name="duration_positive"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    advertiser: Mapped[str] = mapped_column(String(200), default="")
    duration: Mapped[int] = mapped_column(Integer)  # whole seconds
    # VAST skipoffset as written in the document: "HH:MM:SS", "HH:MM:SS.mmm" or "n%"; empty: not skippable.
    skip_offset: Mapped[str] = mapped_column(String(16), default="")
    click_through_url: Mapped[str] = mapped_column(String(MAX_URL), default="")
    media_files: Mapped[list[AdMediaFile]] = relationship(
        back_populates="creative", cascade="all, delete-orphan", order_by="AdMediaFile.id"
    )

    def __str__(self) -> str:
        return f"{self.title} ({self.duration} с)"


class AdMediaFile(db.Model):  # type: ignore[name-defined]
    __tablename__ = "ad_media_files"
    __table_args__ = (CheckConstraint("width > 0 AND height > 0", name="size_positive"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    creative_id: Mapped[int] = mapped_column(ForeignKey("ad_creatives.id", ondelete="CASCADE"), index=True)
    url: Mapped[str] = mapped_column(String(MAX_URL))  # absolute, or a path on this application
    mime_type: Mapped[str] = mapped_column(String(100), default="video/mp4")
    width: Mapped[int] = mapped_column(Integer)
    height: Mapped[int] = mapped_column(Integer)
    bitrate: Mapped[int | None] = mapped_column(Integer)  # kbit/s, as VAST counts it
    codec: Mapped[str] = mapped_column(String(100), default="")
    creative: Mapped[AdCreative] = relationship(back_populates="media_files")

    def __str__(self) -> str:
        return f"{self.mime_type} {self.width}x{self.height}"


class AdPlacement(db.Model):  # type: ignore[name-defined]
    """One entry of a pre-roll or mid-roll list: a house creative (through ``wrapper_depth`` wrappers) or a URL."""

    __tablename__ = "ad_placements"
    __table_args__ = (
        CheckConstraint("(creative_id IS NULL) <> (vast_url IS NULL)", name="creative_xor_url"),
        CheckConstraint("wrapper_depth >= 0 AND wrapper_depth <= 5", name="wrapper_depth_range"),
        Index("ix_ad_placements_position_order", "position", "order"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(200), default="")
    position: Mapped[AdPosition] = mapped_column(
        Enum(AdPosition, native_enum=False, length=16, values_callable=lambda e: [m.value for m in e])
    )
    order: Mapped[int] = mapped_column(Integer, default=0)
    enabled: Mapped[bool] = mapped_column(default=True)
    creative_id: Mapped[int | None] = mapped_column(ForeignKey("ad_creatives.id", ondelete="CASCADE"))
    vast_url: Mapped[str | None] = mapped_column(String(MAX_URL))
    wrapper_depth: Mapped[int] = mapped_column(Integer, default=0)  # house ads only: wrappers before the inline
    # Targeting: both empty means everywhere.
    content_id: Mapped[int | None] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), index=True)
    content_type_id: Mapped[int | None] = mapped_column(ForeignKey("content_types.id", ondelete="CASCADE"))
    creative: Mapped[AdCreative | None] = relationship()
    content = relationship("Content")
    content_type = relationship("ContentType")

    def __str__(self) -> str:
        where = "Перед фильмом" if self.position is AdPosition.PREROLL else "В середине фильма"
        return self.title or f"{where} №{self.id}"


class AdTrackingHit(db.Model):  # type: ignore[name-defined]
    """One request to the tracking endpoint: an impression, a click, an event pixel or an error."""

    __tablename__ = "ad_tracking_hits"

    id: Mapped[int] = mapped_column(primary_key=True)
    creative_id: Mapped[int | None] = mapped_column(Integer, index=True)  # no FK: hits outlive creatives
    event: Mapped[str] = mapped_column(String(40))
    error_code: Mapped[str] = mapped_column(String(16), default="")
    source: Mapped[str] = mapped_column(String(40), default="")  # which document of a chain: inline, wrapper-N
    # The ad's time when the pixel went out ([ADPLAYHEAD], HH:MM:SS.mmm), as the player filled it; "" when unknown.
    playhead: Mapped[str] = mapped_column(String(12), default="")
    # Set here too, to the microsecond: SQLite's CURRENT_TIMESTAMP has whole seconds only.
    created_at: Mapped[datetime] = mapped_column(
        Moment(), server_default=func.now(), default=now
    )

    def __str__(self) -> str:
        return f"{self.event} creative {self.creative_id}"
