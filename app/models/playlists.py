"""Playlists: a viewer's own lists of contents (an account's, private or public), and the editors' playlists (no
account: a slug, a published flag, edited in the admin). Both are one table, so that ``/playlists/{id}`` names either.

A playlist's contents are rows of ``playlist_items`` in their order (``position``, lowest first); a content is in a
playlist at most once (the unique pair decides a repeated add in one statement)."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import CheckConstraint, Enum, ForeignKey, Index, Integer, String, UniqueConstraint, func
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.extensions import db
from app.models.moments import Moment
from app.models.slugs import MAX_SLUG

MAX_PLAYLIST_TITLE = 200
MAX_PLAYLIST_DESCRIPTION = 2000


class Visibility(enum.StrEnum):
    """Who may read a viewer's playlist: its owner only, or anyone who has its id (nothing lists viewers' playlists
    to others, so a public one is found by its link). Editors' playlists are public once published."""

    PRIVATE = "private"
    PUBLIC = "public"


class Playlist(db.Model):  # type: ignore[name-defined]
    __tablename__ = "playlists"
    __table_args__ = (
        # a viewer's playlist has an owner; an editors' playlist has none, and a slug instead
        CheckConstraint("account_id IS NOT NULL OR slug IS NOT NULL", name="owner_or_slug"),
        Index("ix_playlists_account_id_updated_at", "account_id", "updated_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(String(MAX_PLAYLIST_TITLE))
    description: Mapped[str] = mapped_column(String(MAX_PLAYLIST_DESCRIPTION), default="", server_default="")
    visibility: Mapped[Visibility] = mapped_column(
        Enum(Visibility, name="playlist_visibility", values_callable=lambda members: [m.value for m in members],
             native_enum=False, length=16, validate_strings=True, create_constraint=True),
        default=Visibility.PRIVATE)
    slug: Mapped[str | None] = mapped_column(String(MAX_SLUG), unique=True)  # editors' playlists only
    published: Mapped[bool] = mapped_column(default=False)  # editors' playlists only: the public sees it once true
    created_at: Mapped[datetime] = mapped_column(Moment(), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(Moment(), server_default=func.now(), onupdate=func.now())

    items: Mapped[list[PlaylistItem]] = relationship(
        back_populates="playlist", order_by="PlaylistItem.position", cascade="all, delete-orphan")

    @property
    def editorial(self) -> bool:
        return self.account_id is None

    def __str__(self) -> str:
        return self.title


class PlaylistItem(db.Model):  # type: ignore[name-defined]
    __tablename__ = "playlist_items"
    __table_args__ = (
        UniqueConstraint("playlist_id", "content_id"),
        Index("ix_playlist_items_playlist_id_position", "playlist_id", "position"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    playlist_id: Mapped[int] = mapped_column(ForeignKey("playlists.id", ondelete="CASCADE"))
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer, default=0)
    added_at: Mapped[datetime] = mapped_column(Moment(), server_default=func.now())

    playlist: Mapped[Playlist] = relationship(back_populates="items")
    content = relationship("Content")

    def __str__(self) -> str:
        return f"{self.playlist_id}: {self.content_id}"
