"""What a content card (app/schemas/cards.py) reads. Two ways to load it:

* ``load_cards``: the cards of given ids as plain rows (``Card``), never ORM objects: the card's own columns and its
  type's slug and title and its genres (slug and title, in slug order as the relationship has them) in one row: on
  PostgreSQL the content's ``genre_ids`` (app/services/catalogue/filters.py LABEL_ARRAYS), labelled in the process
  (app/services/catalogue/known.py), on SQLite through its links. A page of 100 cards loaded into ORM objects with
  their genres joined cost more than the page's query itself (issue 36); the pages of cards (lists, most relevant,
  the main mart, search, a viewer's history) take their ids first, then their cards by id.
* ``CARD_OPTIONS``: for the queries whose rows are ORM contents dumped as cards (a playlist's, a filmography's, the
  promo slides', fresh episodes'): the card's own columns only (not the description), the type joined, the genres in
  one more query for the whole page. (Reading another column of such a row would load it row by row: the lists'
  query-count tests would see it.)"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from typing import Any

from sqlalchemy import ARRAY, Integer, any_, bindparam, literal_column, select
from sqlalchemy.orm import joinedload, load_only, selectinload

from app.extensions import db
from app.models import Content, ContentType
from app.services.catalogue.known import GenreLabels, Label

CARD_COLUMNS = (Content.id, Content.slug, Content.title, Content.original_title, Content.year, Content.poster_url,
                Content.content_type_id, Content.has_multiple_episodes, Content.age_rating, Content.kinopoisk_rating,
                Content.imdb_rating, Content.imdb_id, Content.review_count, Content.review_rating_sum)
CARD_OPTIONS = (load_only(*CARD_COLUMNS), joinedload(Content.content_type), selectinload(Content.genres))
OWN = [column for column in CARD_COLUMNS if column is not Content.content_type_id]  # a Card's own, from its row


class Card:
    """A content as its card reads it: the card's columns, ``content_type`` and ``genres`` as labels, and the
    content's own ``imdb_url`` and ``viewer_rating`` (the model's properties, over these attributes)."""

    __slots__ = ("age_rating", "content_type", "genres", "has_multiple_episodes", "id", "imdb_id", "imdb_rating",
                 "kinopoisk_rating", "original_title", "poster_url", "review_count", "review_rating_sum", "slug",
                 "title", "year")
    id: int
    slug: str
    title: str
    original_title: str | None
    year: int | None
    poster_url: str | None
    content_type: Label
    has_multiple_episodes: bool
    age_rating: int | None
    kinopoisk_rating: float | None
    imdb_rating: float | None
    imdb_id: str | None
    review_count: int
    review_rating_sum: int
    genres: list[Label]
    imdb_url = Content.imdb_url
    viewer_rating = Content.viewer_rating

    def __init__(self, row: Any, genres: list[Label]) -> None:
        # (``row`` in CARD_ROW's order, unpacked: a Row's attributes by name cost twice as much, a loop of setattr more)
        (self.id, self.slug, self.title, self.original_title, self.year, self.poster_url, self.has_multiple_episodes,
         self.age_rating, self.kinopoisk_rating, self.imdb_rating, self.imdb_id, self.review_count,
         self.review_rating_sum, type_slug, type_title) = row[:15]
        self.content_type = Label(type_slug, type_title)
        self.genres = genres


def load_cards(ids: Collection[int], *conditions: Any) -> dict[int, Card]:
    """The cards of the contents ``ids`` that meet ``conditions``, by id: one statement. On PostgreSQL the ids are one
    array parameter (``= ANY``), so the statement's text is the same whatever their number: psycopg converts it once
    and prepares it, where an IN list of 83 ids was a new text to convert and plan each time (a third of the main
    mart's cards' time); the genres come as two text arrays, which psycopg reads in C, not as JSON."""
    if not ids:
        return {}
    if db.engine.dialect.name == "postgresql":
        rows = db.session.execute(CARDS_POSTGRESQL.where(*conditions) if conditions else CARDS_POSTGRESQL,
                                  {"ids": list(ids)}).all()
        return {card.id: card for card in cards_of_rows(rows)}
    rows = db.session.execute(select(*CARD_ROW, literal_column(GENRES_SQLITE)).join(
        ContentType, ContentType.id == Content.content_type_id).where(Content.id.in_(list(ids)), *conditions)).all()
    # SQLite's ORDER BY genres.slug compares UTF-8 bytes: the order of Python's sort of the same strings
    return {row.id: Card(row, [Label(slug, title) for slug, title in sorted(json.loads(row[15]))]) for row in rows}


# A card's row: its own columns, its type's slug and title, then its genres (``Card`` unpacks them in this order).
CARD_ROW = (*OWN, ContentType.slug, ContentType.title)
# A card's genres: PostgreSQL reads the content's own ``genre_ids``, labelled and ordered as the relationship has them
# by what the process knows of the genres (app/services/catalogue/known.py); SQLite reads its links, a JSON array of
# [slug, title].
CARD_COLUMNS_POSTGRESQL: tuple[Any, ...] = (*CARD_ROW, literal_column("contents.genre_ids"))
CARDS_POSTGRESQL = (select(*CARD_COLUMNS_POSTGRESQL).join(ContentType, ContentType.id == Content.content_type_id)
                    .where(Content.id == any_(bindparam("ids", type_=ARRAY(Integer)))))


def cards_of_rows(rows: Iterable[Any]) -> list[Card]:
    """The cards of rows of CARD_COLUMNS_POSTGRESQL (and whatever follows them)."""
    labels = GenreLabels()
    return [Card(row, labels(row[15])) for row in rows]


GENRES_SQLITE = ("(SELECT json_group_array(json_array(genres.slug, genres.title)) FROM content_genres JOIN genres "
                 "ON genres.id = content_genres.genre_id WHERE content_genres.content_id = contents.id)")


def cards_in_order(ids: list[int], *conditions: Any) -> list[Card]:
    """The cards of ``ids`` in that order, those that meet ``conditions`` only."""
    cards = load_cards(ids, *conditions)
    return [cards[content_id] for content_id in ids if content_id in cards]
