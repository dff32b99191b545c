"""What viewers did with the catalogue: where they stopped in each episode, which episodes they finished, and which
contents they opened (their history)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, String, UniqueConstraint, func
from sqlalchemy.orm import Mapped, mapped_column

from app.extensions import db
from app.models.moments import Moment

MAX_VIEWER_KEY = 160  # "user:{identity}" or "fp:{device fingerprint}", see app/http/viewer.py


class WatchProgress(db.Model):  # type: ignore[name-defined]
    """One viewer's progress in one episode."""

    __tablename__ = "watch_progress"
    __table_args__ = (
        UniqueConstraint("viewer_key", "episode_id"),
        # Named by hand: the convention's ix_ name would mention the first column only.
        Index("ix_watch_progress_viewer_key_content_id", "viewer_key", "content_id"),
        CheckConstraint('"time" >= 0', name="time_not_negative"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    viewer_key: Mapped[str] = mapped_column(String(MAX_VIEWER_KEY))
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"))
    episode_id: Mapped[int] = mapped_column(ForeignKey("episodes.id", ondelete="CASCADE"))
    time: Mapped[int] = mapped_column(Integer, default=0)  # seconds from the episode's start
    completed: Mapped[bool] = mapped_column(default=False)
    # The last time the viewer saved a position here (time-progress), None while only marks were set: "continue
    # watching" and the last watched episode follow it, so marking an earlier episode watched never moves them back.
    watched_at: Mapped[datetime | None] = mapped_column(Moment())
    updated_at: Mapped[datetime] = mapped_column(
        Moment(), server_default=func.now(), onupdate=func.now()
    )

    def __str__(self) -> str:
        return f"{self.viewer_key}: episode {self.episode_id} at {self.time} s"


class ViewHistory(db.Model):  # type: ignore[name-defined]
    """One viewer opened one content (POST /contents/{id}/history): when last, and at which episode when said. A
    viewer's history is these and their progress rows together (app/services/activity/history.py): a content played
    without a view recorded is in it too."""

    __tablename__ = "view_history"
    __table_args__ = (
        UniqueConstraint("viewer_key", "content_id"),
        Index("ix_view_history_viewer_key_viewed_at", "viewer_key", "viewed_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    viewer_key: Mapped[str] = mapped_column(String(MAX_VIEWER_KEY))
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), index=True)
    episode_id: Mapped[int | None] = mapped_column(ForeignKey("episodes.id", ondelete="SET NULL"))
    viewed_at: Mapped[datetime] = mapped_column(Moment())

    def __str__(self) -> str:
        return f"{self.viewer_key}: content {self.content_id} at {self.viewed_at}"
