"""The catalogue: contents, their seasons and episodes, and where they may be watched."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Column,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    Numeric,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    func,
    or_,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates
from sqlalchemy.sql.elements import ColumnElement

from app.extensions import db
from app.models.moments import Moment
from app.models.persons import ContentPerson
from app.models.slugs import MAX_SLUG, default_slug
from app.models.sort_keys import MAX_KEY, title_key
from app.models.taxonomy import (
    Category,
    ContentCategory,
    Genre,
    Tag,
    VoiceAuthor,
    content_genres,
    content_subtitles,
    content_tags,
    content_voice_authors,
)
from app.models.titles import AlternativeTitle

content_countries = Table(
    "content_countries",
    db.metadata,
    Column("content_id", ForeignKey("contents.id", ondelete="CASCADE"), primary_key=True),
    Column("country_id", ForeignKey("countries.id", ondelete="CASCADE"), primary_key=True),
)
content_languages = Table(
    "content_languages",
    db.metadata,
    Column("content_id", ForeignKey("contents.id", ondelete="CASCADE"), primary_key=True),
    Column("language_id", ForeignKey("languages.id", ondelete="CASCADE"), primary_key=True),
)


class ContentType(db.Model):  # type: ignore[name-defined]
    __tablename__ = "content_types"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(64), unique=True)
    title: Mapped[str] = mapped_column(String(255))
    position: Mapped[int] = mapped_column(Integer, default=0)

    def __str__(self) -> str:
        return self.title


class Country(db.Model):  # type: ignore[name-defined]
    __tablename__ = "countries"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(8), unique=True)  # ISO 3166-1 alpha-2, lower case
    title: Mapped[str] = mapped_column(String(255))

    def __str__(self) -> str:
        return self.title


class Language(db.Model):  # type: ignore[name-defined]
    __tablename__ = "languages"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)  # BCP 47 primary tag: ru, en
    title: Mapped[str] = mapped_column(String(255))

    def __str__(self) -> str:
        return self.title


def _title_key_of_row(context: Any) -> str:
    """A row inserted without the ORM (the synthetic catalogue's INSERTs) gets its title's key too."""
    return title_key(context.get_current_parameters().get("title") or "")


# The key's column compares by code points on both databases: SQLite's BINARY is its default, PostgreSQL's "C" is
# named (the database's own collation might be a locale's, which orders otherwise).
TITLE_KEY_TYPE = String(MAX_KEY).with_variant(String(MAX_KEY, collation="C"), "postgresql")


class Content(db.Model):  # type: ignore[name-defined]
    __tablename__ = "contents"
    # «По алфавиту» (sort=title) in the key's order, published first as every list asks
    __table_args__ = (Index("ix_contents_title_order", "published", "title_sort", "id"),)
    # ix_contents_listing (migration 1055df4a8881): the lists' default order, published, position, created_at DESC,
    # id; a descending column SQLite does not reflect, so no model states it (app/models/unmodelled.py); the same
    # for ix_contents_relevance and ix_contents_relevance_of_type (migration d3a7c5e9b1f2): most-relevant's order,
    # published, [content_type_id,] position, relevance DESC, id DESC

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True, default=default_slug)
    title: Mapped[str] = mapped_column(String(255))
    # the title's key for the alphabetical order (app/models/sort_keys.py), kept by ``_keep_title_key``
    title_sort: Mapped[str] = mapped_column(TITLE_KEY_TYPE, default=_title_key_of_row, server_default="")
    original_title: Mapped[str | None] = mapped_column(String(255))  # the Latin one, for search and the sitemap
    description: Mapped[str] = mapped_column(Text, default="")
    age_rating: Mapped[int | None] = mapped_column(Integer)  # 0, 6, 12, 16 or 18 (Russia's 436-FZ marks)
    # The editor's switch (unticked: a draft, in the admin only); shown when ticked and within its schedule, either end
    # open: ``shown_at`` (every public read, search, the player and its media, the sitemaps). A title made in the
    # admin starts a draft (app/admin/catalogue.py); the seeder's and the synthetic catalogue's are published.
    published: Mapped[bool] = mapped_column(default=True, index=True)
    publish_at: Mapped[datetime | None] = mapped_column(Moment(), index=True)  # shown from this moment
    unpublish_at: Mapped[datetime | None] = mapped_column(Moment(), index=True)  # and no longer from this one
    position: Mapped[int] = mapped_column(Integer, default=0)  # editorial order: lower first, then newest
    content_type_id: Mapped[int] = mapped_column(ForeignKey("content_types.id"), index=True)
    year: Mapped[int | None] = mapped_column(Integer)
    has_multiple_episodes: Mapped[bool] = mapped_column(default=False)
    poster_url: Mapped[str | None] = mapped_column(String(1024))
    kinopoisk_id: Mapped[int | None] = mapped_column(Integer, index=True)  # GET /kinopoisk/contents/{id}
    kinopoisk_rating: Mapped[float | None] = mapped_column(Numeric(3, 1, asdecimal=False))
    imdb_id: Mapped[str | None] = mapped_column(String(32), index=True)  # an import finds a content by it
    imdb_rating: Mapped[float | None] = mapped_column(Numeric(3, 1, asdecimal=False))
    created_at: Mapped[datetime] = mapped_column(Moment(), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(Moment(), server_default=func.now(), onupdate=func.now())
    # Its visible reviews: how many, and their ratings' sum (the average is sum / count). Counters kept by
    # app/services/reviews/totals.py, never by a form.
    review_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    review_rating_sum: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # GET /contents/most-relevant's score in the year cache_counters says (app/services/catalogue/relevance.py), kept
    # by a flush that changes the content and rewritten for every content when the year turns
    relevance: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    # Where the API plays it (a Reach value): derived from its episodes' master paths and its availability rules by
    # app/services/catalogue/reach.py (kept by a flush that changes them), for the lists' "available here" filter
    reach: Mapped[str] = mapped_column(String(16), default="nowhere", server_default="nowhere")

    content_type: Mapped[ContentType] = relationship(lazy="joined")
    countries: Mapped[list[Country]] = relationship(secondary=content_countries, order_by=Country.slug)
    languages: Mapped[list[Language]] = relationship(secondary=content_languages, order_by=Language.code)
    subtitles: Mapped[list[Language]] = relationship(secondary=content_subtitles, order_by=Language.code)
    genres: Mapped[list[Genre]] = relationship(secondary=content_genres, order_by=Genre.slug)
    tags: Mapped[list[Tag]] = relationship(secondary=content_tags, order_by=Tag.slug)
    voice_authors: Mapped[list[VoiceAuthor]] = relationship(secondary=content_voice_authors, order_by=VoiceAuthor.title)
    category_links: Mapped[list[ContentCategory]] = relationship(cascade="all, delete-orphan",
                                                                 back_populates="content")
    # The same links as a plain list (the admin's choice of categories; a new one takes position 0)
    categories: Mapped[list[Category]] = relationship(secondary="content_categories", order_by="Category.title",
                                                      overlaps="category_links,content,category")
    # Its other names (app/models/titles.py), in the editor's order
    alternative_titles: Mapped[list[AlternativeTitle]] = relationship(
        order_by=(AlternativeTitle.position, AlternativeTitle.id), cascade="all, delete-orphan",
        back_populates="content")
    persons: Mapped[list[ContentPerson]] = relationship(order_by=ContentPerson.position, cascade="all, delete-orphan",
                                                        back_populates="content")
    seasons: Mapped[list[Season]] = relationship(
        back_populates="content", order_by="Season.order", cascade="all, delete-orphan"
    )
    episodes: Mapped[list[Episode]] = relationship(back_populates="content", cascade="all, delete-orphan")
    # A film's episode (or any episode outside a season), as the admin edits it beside the seasons.
    loose_episodes: Mapped[list[Episode]] = relationship(
        primaryjoin="and_(Content.id == Episode.content_id, Episode.season_id.is_(None))", order_by="Episode.order",
        overlaps="episodes,content", cascade="all, delete-orphan")
    availability_rules: Mapped[list[AvailabilityRule]] = relationship(
        back_populates="content", cascade="all, delete-orphan"
    )

    @validates("title")
    def _keep_title_key(self, _name: str, title: str) -> str:
        """Every title set through the ORM (a new content, an edit) sets its sort key too."""
        self.title_sort = title_key(title or "")  # (None: the column refuses it at the flush, not this)
        return title

    @classmethod
    def shown_at(cls, at: datetime | ColumnElement[Any]) -> ColumnElement[bool]:
        """Whether a content is public at ``at`` (a time, or a parameter for one): published, its publication time come,
        its withdrawal time not."""
        return and_(cls.published, or_(cls.publish_at.is_(None), cls.publish_at <= at),
                    or_(cls.unpublish_at.is_(None), cls.unpublish_at > at))

    def is_shown(self, at: datetime) -> bool:
        return shown(self.published, self.publish_at, self.unpublish_at, at)

    @property
    def viewer_rating(self) -> float | None:
        """The average rating of its visible reviews, to one decimal; None without any."""
        return round(self.review_rating_sum / self.review_count, 1) if self.review_count > 0 else None

    @property
    def imdb_url(self) -> str | None:
        return f"https://www.imdb.com/title/{self.imdb_id}/" if self.imdb_id else None

    def __str__(self) -> str:
        return self.title


def shown(published: bool, publish_at: datetime | None, unpublish_at: datetime | None, at: datetime) -> bool:
    """``Content.shown_at`` for values in hand (a snapshot's)."""
    return published and (publish_at is None or publish_at <= at) and (unpublish_at is None or unpublish_at > at)


class Season(db.Model):  # type: ignore[name-defined]
    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("content_id", "order"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), index=True)
    order: Mapped[int] = mapped_column(Integer)
    title: Mapped[str | None] = mapped_column(String(255))

    content: Mapped[Content] = relationship(back_populates="seasons")
    episodes: Mapped[list[Episode]] = relationship(
        back_populates="season", order_by="Episode.order", cascade="all, delete-orphan")

    def __str__(self) -> str:
        return self.title or f"Сезон {self.order}"


class Episode(db.Model):  # type: ignore[name-defined]
    __tablename__ = "episodes"
    # ix_episodes_fresh: POST /episodes/fresh, newest first (read backwards).
    __table_args__ = (UniqueConstraint("season_id", "order"), Index("ix_episodes_fresh", "created_at", "id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), index=True)
    # A film's single episode has no season.
    season_id: Mapped[int | None] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"), index=True)
    order: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(255))
    description: Mapped[str] = mapped_column(Text, default="")
    duration: Mapped[int | None] = mapped_column(Integer)  # seconds
    poster_path: Mapped[str | None] = mapped_column(String(1024))
    # The master JSON (spec §3) or an HLS playlist; origin-relative or absolute.
    master_file_path: Mapped[str | None] = mapped_column(String(1024))
    # When it was added: POST /episodes/fresh lists the newest first.
    created_at: Mapped[datetime] = mapped_column(Moment(), server_default=func.now())
    # Intro and credits (issue 35, docs/video-player-markers.md): seconds from the start, set or confirmed by an
    # editor; the player offers «Пропустить заставку» inside [intro_start, intro_end) and the next episode from
    # credits_start. The detection across a season (app/jobs/detect_intro.py) only suggests an intro: it writes the
    # suggested_ pair, which an editor accepts in the admin.
    intro_start: Mapped[float | None] = mapped_column(Float)
    intro_end: Mapped[float | None] = mapped_column(Float)
    credits_start: Mapped[float | None] = mapped_column(Float)
    intro_suggested_start: Mapped[float | None] = mapped_column(Float)
    intro_suggested_end: Mapped[float | None] = mapped_column(Float)

    content: Mapped[Content] = relationship(back_populates="episodes")
    season: Mapped[Season | None] = relationship(back_populates="episodes")

    def __str__(self) -> str:
        return self.title


class RuleKind(enum.StrEnum):
    """How one availability rule restricts a content; see ``app.services.player.availability``."""

    ALLOW_COUNTRY = "allow_country"
    BLOCK_COUNTRY = "block_country"
    ALLOW_DOMAIN = "allow_domain"
    BLOCK_DOMAIN = "block_domain"


class Reach(enum.StrEnum):
    """Where the API plays a content, as its ``reach`` column keeps it (app/services/catalogue/reach.py)."""

    NOWHERE = "nowhere"  # no episode with a master file, or licensed to named sites only (docs/licences.md)
    ONLY_COUNTRIES = "only_countries"  # media, and an allow list of countries (block rules besides, maybe)
    EXCEPT_COUNTRIES = "except_countries"  # media, and blocked countries only
    EVERYWHERE = "everywhere"  # media, and no rule that stops an API caller


RULE_WORDS = {RuleKind.ALLOW_COUNTRY: "только в стране", RuleKind.BLOCK_COUNTRY: "не в стране",
              RuleKind.ALLOW_DOMAIN: "только на сайте", RuleKind.BLOCK_DOMAIN: "не на сайте"}  # as the trail says it


class AvailabilityRule(db.Model):  # type: ignore[name-defined]
    __tablename__ = "availability_rules"
    # ix_availability_rules_kind_value: the contents a country's rules name, for the lists' "available here" filter
    # (app/services/catalogue/reach.py), an index-only range
    __table_args__ = (UniqueConstraint("content_id", "kind", "value"),
                      Index("ix_availability_rules_kind_value", "kind", "value", "content_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), index=True)
    kind: Mapped[RuleKind] = mapped_column(
        Enum(RuleKind, name="availability_rule_kind", values_callable=lambda kinds: [k.value for k in kinds])
    )
    value: Mapped[str] = mapped_column(String(255))  # a country code or a domain, lower case (``normalised``)

    content: Mapped[Content] = relationship(back_populates="availability_rules")

    @validates("value")
    def normalised(self, _key: str, value: str) -> str:
        """Stored as the rules are read (app/services/player/availability.py): without surrounding spaces, in lower
        case, so that the database compares them as they are."""
        return value.strip().lower() if isinstance(value, str) else value

    def __str__(self) -> str:
        return f"{RULE_WORDS.get(RuleKind(self.kind), self.kind)}: {self.value}"
