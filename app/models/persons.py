"""People of the catalogue: persons, the kinds of part they take (actor, director, …), and their parts in contents."""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.extensions import db
from app.models.slugs import MAX_SLUG


class PersonType(db.Model):  # type: ignore[name-defined]
    """A kind of part: actor, director, writer, composer… (``position``: their order on a content's page)."""

    __tablename__ = "person_types"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True)
    title: Mapped[str] = mapped_column(String(255))
    position: Mapped[int] = mapped_column(Integer, default=0)

    def __str__(self) -> str:
        return self.title


class Person(db.Model):  # type: ignore[name-defined]
    __tablename__ = "persons"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True)
    name: Mapped[str] = mapped_column(String(255), index=True)
    original_name: Mapped[str | None] = mapped_column(String(255))
    photo_url: Mapped[str | None] = mapped_column(String(1024))
    kinopoisk_id: Mapped[int | None] = mapped_column(Integer, unique=True, index=True)  # how an import finds them

    parts: Mapped[list[ContentPerson]] = relationship(back_populates="person", cascade="all, delete-orphan")

    def __str__(self) -> str:
        return self.name


class ContentPerson(db.Model):  # type: ignore[name-defined]
    """A person's part in a content: as which type, which character (for actors), at which place in the credits."""

    __tablename__ = "content_persons"
    __table_args__ = (UniqueConstraint("content_id", "person_id", "person_type_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id", ondelete="CASCADE"), index=True)
    person_type_id: Mapped[int] = mapped_column(ForeignKey("person_types.id", ondelete="CASCADE"), index=True)
    character: Mapped[str | None] = mapped_column(String(255))
    position: Mapped[int] = mapped_column(Integer, default=0)

    person: Mapped[Person] = relationship(back_populates="parts")
    person_type: Mapped[PersonType] = relationship()
    content = relationship("Content", back_populates="persons")
