"""A line's persons matched to the catalogue's: first a person the content already credits under the same name (and
original name), then any person of that name and original name (a line without an original name: any person of that
name), the oldest first; else a new person. Looked up a batch at a time by name, remembered for the whole import."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import insert

from app.extensions import db
from app.models import Person
from app.models.slugs import slugify
from app.services.catalogue.imports.state import ContentNow, persons_named


class People:
    def __init__(self) -> None:
        self.exact: dict[tuple[str, str | None], int] = {}
        self.by_name: dict[str, int] = {}
        self.looked: set[str] = set()

    def forget(self) -> None:
        """After a rolled-back batch: the persons it made are gone."""
        self.exact.clear()
        self.by_name.clear()
        self.looked.clear()

    def _known(self, now: ContentNow | None, name: str, original: str | None) -> int | None:
        if now is not None:
            if (name, original) in now.people:
                return now.people[(name, original)]
            if original is None:
                credited = [person for (named, _), person in now.people.items() if named == name]
                if credited:
                    return credited[0]
        if (name, original) in self.exact:
            return self.exact[(name, original)]
        return self.by_name.get(name) if original is None else None

    def resolve(self, wanted: list[tuple[ContentNow | None, dict[str, Any]]]) -> None:
        """Every person of ``wanted`` given its id (``person["person_id"]``), the missing ones made."""
        unknown = [(now, person) for now, person in wanted
                   if self._known(now, person["name"], person["originalName"]) is None]
        names = {person["name"] for _, person in unknown} - self.looked
        for person_id, name, original in persons_named(names):
            self.exact.setdefault((name, original), person_id)
            self.by_name.setdefault(name, person_id)
        self.looked |= names
        missing: dict[tuple[str, str | None], dict[str, Any]] = {}
        for now, person in unknown:
            key = (person["name"], person["originalName"])
            if self._known(now, *key) is None and key not in missing:
                missing[key] = {"slug": f"{slugify(key[0], 110) or 'person'}-{secrets.token_hex(4)}", "name": key[0],
                                "original_name": key[1], "photo_url": None}
        for key, person_id in zip(missing, insert_persons(list(missing.values())) if missing else [], strict=True):
            self.exact[key] = person_id
            self.by_name.setdefault(key[0], person_id)
        for now, person in wanted:
            person["person_id"] = self._known(now, person["name"], person["originalName"])

    @staticmethod
    def credits(now: ContentNow, persons: list[dict[str, Any]]) -> list[tuple[int, int, str | None]]:
        """The content's credits as the line gives them, in its order, a person in a role once."""
        out: dict[tuple[int, int], str | None] = {}
        for person in persons:
            out.setdefault((person["person_id"], person["role_id"]), person["character"])
        return [(person, role, character) for (person, role), character in out.items()]


def insert_persons(rows: list[dict[str, Any]]) -> list[int]:
    table = Person.__table__
    return [row[0] for row in db.session.execute(insert(table).returning(table.c.id, sort_by_parameter_order=True),
                                                 rows)]
