"""What a line's words name: content types, countries, languages, genres, tags, categories and person types, read
once per import into dicts (a few hundred rows); an unknown one is an error of its line, never a new label
(docs/import.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from app.extensions import db
from app.models import Category, ContentType, Country, Genre, Language, PersonType, Tag

WHAT = {"type": "тип контента", "countries": "страна", "languages": "язык", "genres": "жанр", "tags": "метка",
        "categories": "категория", "role": "роль"}


class Unknown(Exception):
    def __init__(self, field_name: str, value: str) -> None:
        super().__init__(field_name, value)
        self.field = field_name
        self.message = f"Неизвестн{'ый' if WHAT[field_name] in ('жанр', 'тип контента', 'язык') else 'ая'} " \
                       f"{WHAT[field_name]}: «{value}»"


@dataclass
class Labels:
    types: dict[str, int] = field(default_factory=dict)  # slug → id
    countries: dict[str, int] = field(default_factory=dict)  # ISO code (lower case) → id
    languages: dict[str, int] = field(default_factory=dict)
    genres: dict[str, int] = field(default_factory=dict)  # slug and lower-cased title → id
    tags: dict[str, int] = field(default_factory=dict)
    categories: dict[tuple[int, str], int] = field(default_factory=dict)  # (type id, slug) → id
    roles: dict[str, int] = field(default_factory=dict)  # person type slug → id
    # the other way, for the export
    type_slugs: dict[int, str] = field(default_factory=dict)
    slugs: dict[str, dict[int, str]] = field(default_factory=dict)

    def one(self, field_name: str, value: str, type_id: int | None = None) -> int:
        key = value.strip().lower()
        found: int | None
        if field_name == "categories":
            found = self.categories.get((type_id or 0, key))
        else:
            found = {"type": self.types, "countries": self.countries, "languages": self.languages,
                     "genres": self.genres, "tags": self.tags, "role": self.roles}[field_name].get(key)
        if found is None:
            raise Unknown(field_name, value)
        return found

    def many(self, field_name: str, values: list[str], type_id: int | None = None) -> list[int]:
        """The ids in the line's order, each once."""
        return list(dict.fromkeys(self.one(field_name, value, type_id) for value in values))


def load_labels() -> Labels:
    labels = Labels()
    session = db.session
    for type_id, slug in session.execute(select(ContentType.id, ContentType.slug)):
        labels.types[slug.lower()] = type_id
        labels.type_slugs[type_id] = slug
    for name, model, key, target in (("countries", Country, Country.slug, labels.countries),
                                     ("languages", Language, Language.code, labels.languages),
                                     ("genres", Genre, Genre.slug, labels.genres),
                                     ("tags", Tag, Tag.slug, labels.tags),
                                     ("role", PersonType, PersonType.slug, labels.roles)):
        slugs: dict[int, str] = {}
        rows: Any = session.execute(select(model.id, key, model.title))
        for label_id, slug, title in rows:
            if name in ("genres", "tags"):  # a Russian title names it too, the slug first
                target.setdefault(title.strip().lower(), label_id)
            target[slug.lower()] = label_id
            slugs[label_id] = slug
        labels.slugs[name] = slugs
    category_slugs: dict[int, str] = {}
    for category_id, type_id, slug in session.execute(select(Category.id, Category.content_type_id, Category.slug)):
        labels.categories[(type_id, slug.lower())] = category_id
        category_slugs[category_id] = slug
    labels.slugs["categories"] = category_slugs
    return labels
