"""A content's other names: the English or international title of a foreign film, the title in its own language, a
former title, a misspelling viewers commonly type. Searched as the original title is (app/services/search/index.py);
shown on the title's page as «Также известен как», misspellings excepted (they exist for search only)."""

from __future__ import annotations

import enum

from sqlalchemy import CheckConstraint, Enum, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.extensions import db

MAX_TITLE = 255
MAX_LANGUAGE = 16


class TitleKind(enum.StrEnum):
    """What an alternative title is to its content."""

    INTERNATIONAL = "international"  # the English or international release title: "Parasite"
    ORIGINAL = "original"  # in the film's own language and script: «기생충»
    FORMER = "former"  # a title it was released or announced under before
    MISSPELLING = "misspelling"  # a common misspelling: searched, never shown
    OTHER = "other"


class AlternativeTitle(db.Model):  # type: ignore[name-defined]
    __tablename__ = "alternative_titles"
    __table_args__ = (UniqueConstraint("content_id", "title"),
                      CheckConstraint("title <> ''", name="title_not_empty"))

    id: Mapped[int] = mapped_column(primary_key=True)
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), index=True)
    title: Mapped[str] = mapped_column(String(MAX_TITLE))
    language: Mapped[str | None] = mapped_column(String(MAX_LANGUAGE))  # BCP 47 primary tag: en, ko, fr
    kind: Mapped[TitleKind] = mapped_column(Enum(
        TitleKind, name="alternative_title_kind", values_callable=lambda members: [m.value for m in members],
        native_enum=False, length=16, validate_strings=True, create_constraint=True), default=TitleKind.OTHER)
    position: Mapped[int] = mapped_column(Integer, default=0)  # their order on the page: lower first, then by id

    content = relationship("Content", back_populates="alternative_titles")

    @property
    def shown(self) -> bool:
        """Whether the title's page shows it: every kind but a misspelling."""
        return self.kind != TitleKind.MISSPELLING

    def __str__(self) -> str:
        return self.title
