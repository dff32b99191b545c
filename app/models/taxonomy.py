"""How the catalogue is sorted and labelled: categories (a tree per content type; some on the home page's showcase,
the "main mart"), genres, tags, voice authors (dubbing studios: the player's ``voiceAuthor`` and the labels of master
JSON sources), and the subtitle languages of each content."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Integer, String, Table, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.extensions import db
from app.models.slugs import MAX_SLUG


def _link(name: str, other: str, column: str) -> Table:
    """A content's many-to-many link to the rows of table ``other`` (``column`` names them), indexed both ways."""
    return Table(
        name,
        db.metadata,
        Column("content_id", ForeignKey("contents.id", ondelete="CASCADE"), primary_key=True),
        Column(column, ForeignKey(f"{other}.id", ondelete="CASCADE"), primary_key=True, index=True),
    )


content_genres = _link("content_genres", "genres", "genre_id")
content_tags = _link("content_tags", "tags", "tag_id")
content_voice_authors = _link("content_voice_authors", "voice_authors", "voice_author_id")
content_subtitles = _link("content_subtitles", "languages", "language_id")  # the languages of its subtitles


class ContentCategory(db.Model):  # type: ignore[name-defined]
    """A content in a category, at its place in the category's editorial order (lower first)."""

    __tablename__ = "content_categories"
    # ix_content_categories_order (migration 98d40bce031b): a category's contents in its order (category_id, position,
    # content_id DESC: the newest first among equal positions), which the main mart's leading contents and a
    # category's pages read in order; a descending column, which SQLite does not reflect (app/models/unmodelled.py)

    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), primary_key=True)
    category_id: Mapped[int] = mapped_column(ForeignKey("categories.id", ondelete="CASCADE"), primary_key=True,
                                             index=True)
    position: Mapped[int] = mapped_column(Integer, default=0)

    category: Mapped[Category] = relationship()
    content = relationship("Content", back_populates="category_links")


class Category(db.Model):  # type: ignore[name-defined]
    """A node of a content type's category tree. ``main_mart``: shown on the home page's showcase, in ``position``
    order, with its leading contents."""

    __tablename__ = "categories"
    __table_args__ = (UniqueConstraint("content_type_id", "slug"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    content_type_id: Mapped[int] = mapped_column(ForeignKey("content_types.id", ondelete="CASCADE"), index=True)
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("categories.id", ondelete="CASCADE"), index=True)
    slug: Mapped[str] = mapped_column(String(MAX_SLUG))
    title: Mapped[str] = mapped_column(String(255))
    description: Mapped[str] = mapped_column(Text, default="")
    position: Mapped[int] = mapped_column(Integer, default=0)
    main_mart: Mapped[bool] = mapped_column(default=False)

    content_type = relationship("ContentType")
    parent: Mapped[Category | None] = relationship(remote_side=[id], back_populates="children")
    children: Mapped[list[Category]] = relationship(back_populates="parent", order_by="Category.position")

    def __str__(self) -> str:
        return self.title


class Genre(db.Model):  # type: ignore[name-defined]
    __tablename__ = "genres"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True)
    title: Mapped[str] = mapped_column(String(255))

    def __str__(self) -> str:
        return self.title


class Tag(db.Model):  # type: ignore[name-defined]
    __tablename__ = "tags"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True)
    title: Mapped[str] = mapped_column(String(255))

    def __str__(self) -> str:
        return self.title


class VoiceAuthor(db.Model):  # type: ignore[name-defined]
    """A dubbing studio or voice-over: the label a master JSON source carries (spec §3 ``sources[].label``)."""

    __tablename__ = "voice_authors"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True)
    title: Mapped[str] = mapped_column(String(255), unique=True)

    def __str__(self) -> str:
        return self.title


