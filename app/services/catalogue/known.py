"""The catalogue's small tables as this process knows them: the genres (a card's labels) and the categories with their
types (the main mart's rows, a category's scope), read once per catalogue generation instead of once per request.

A change made through the service (the admin, an import, the demo's commands) moves the catalogue's generation
(app/caching.py), and every process sees the new one within ``GENERATION_MEMO`` seconds, as it sees that its kept
answers are stale: the next request reads the tables again. A genre or a category asked for that this process does
not know (made a moment ago in another process, or in a test without a change of generation) is read again at once,
before it is called missing. So a card's genres cost no subquery per card (the main mart's 83 cards: two per card,
half of its cards' statement), and a category's list and the main mart one statement less each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select

from app.caching import store
from app.extensions import db
from app.models import Category, ContentType, Genre

MEMO = "catalogue_known"  # its name among what the process holds per generation (app/caching.py)


class Label:
    """A genre's or a content type's slug and title, as a card and a category show them."""

    __slots__ = ("slug", "title")

    def __init__(self, slug: str, title: str) -> None:
        self.slug, self.title = slug, title


class KnownCategory:
    """A category as the main mart and a category's scope read it: a plain row, its type's slug and title beside it
    (MartCategorySchema dumps it). Shared by every request of the process: never changed once made."""

    __slots__ = ("content_type", "content_type_id", "id", "main_mart", "parent_id", "slug", "title")

    def __init__(self, id: int, parent_id: int | None, slug: str, title: str, main_mart: bool, type_id: int,
                 type_slug: str, type_title: str) -> None:
        self.id, self.parent_id, self.slug, self.title, self.main_mart = id, parent_id, slug, title, main_mart
        self.content_type_id = type_id
        self.content_type = Label(type_slug, type_title)


@dataclass(frozen=True)
class Known:
    genres: dict[int, tuple[int, Label]]  # id: (its place in the order of slugs, its label)
    categories: tuple[KnownCategory, ...]  # every category, in position order (then id)


def known(again: bool = False) -> Known:
    """The tables as read at this catalogue generation; ``again``: read now (one looked for was not among them)."""
    return store().per_generation(MEMO, _read, again)


def _read() -> Known:
    genres = sorted(db.session.execute(select(Genre.id, Genre.slug, Genre.title)).all(),
                    key=lambda row: (row.slug, row.id))
    return Known({row.id: (place, Label(row.slug, row.title)) for place, row in enumerate(genres)},
                 tuple(KnownCategory(*row) for row in db.session.execute(_CATEGORIES)))


_CATEGORIES = (select(Category.id, Category.parent_id, Category.slug, Category.title, Category.main_mart,
                      ContentType.id, ContentType.slug, ContentType.title)
               .join(ContentType, ContentType.id == Category.content_type_id)
               .order_by(Category.position, Category.id))


class GenreLabels:
    """The labels of genres by their ids, in the order of their slugs (as a content's ``genres`` relationship has
    them, and as SQLite's cards sort them: by code point, whatever the database's collation); one per page of cards."""

    def __init__(self) -> None:
        self._genres = known().genres
        self._read_again = False

    def __call__(self, ids: Iterable[int]) -> list[Label]:
        try:
            placed = [self._genres[genre_id] for genre_id in ids]
        except KeyError:  # a genre made since this process read them: read once more for the page, at most
            if not self._read_again:
                self._genres, self._read_again = known(again=True).genres, True
            placed = [self._genres[genre_id] for genre_id in ids if genre_id in self._genres]
        if len(placed) > 1:
            placed.sort(key=_place)
        return [label for _place_of, label in placed]


def _place(placed: tuple[int, Label]) -> int:
    return placed[0]


def categories(type_id: int | None = None) -> list[KnownCategory]:
    """Every category (of the type ``type_id``), in position order."""
    return [category for category in known().categories if type_id is None or category.content_type_id == type_id]


def of_type_slug(type_slug: str, *, fresh: bool = False) -> list[KnownCategory]:
    """The categories of the type ``type_slug``, in position order; ``fresh``: read again first (the one looked for
    was not among them)."""
    return [category for category in known(fresh).categories if category.content_type.slug == type_slug]
