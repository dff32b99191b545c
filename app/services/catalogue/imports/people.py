"""A line's persons matched to the catalogue's (docs/import.md). One with a ``kinopoiskId``: the person of that id, else
a new one with it. One without: a person the content already credits under the same name and original name, then
any person of that name and original name (no original name given: any person of that name), the oldest first, else a
new one. Looked up a batch at a time, remembered for the whole import."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import insert, select

from app.extensions import db
from app.models import Person
from app.models.slugs import slugify
from app.services.catalogue.imports.state import ContentNow, persons_named

Key = tuple[str, str | None] | int  # (name, original name), or a Kinopoisk id


class People:
    def __init__(self) -> None:
        self.exact: dict[Key, int] = {}
        self.by_name: dict[str, int] = {}
        self.looked: set[str | int] = set()

    def forget(self) -> None:
        """After a rolled-back batch: the persons it made are gone."""
        self.exact.clear()
        self.by_name.clear()
        self.looked.clear()

    def _known(self, now: ContentNow | None, person: dict[str, Any]) -> int | None:
        name, original, kinopoisk = person["name"], person["originalName"], person["kinopoiskId"]
        if kinopoisk is not None:
            return self.exact.get(kinopoisk)
        if now is not None:
            if (name, original) in now.people:
                return now.people[(name, original)]
            if original is None:
                credited = [person_id for (named, _), person_id in now.people.items() if named == name]
                if credited:
                    return credited[0]
        if (name, original) in self.exact:
            return self.exact[(name, original)]
        return self.by_name.get(name) if original is None else None

    def resolve(self, wanted: list[tuple[ContentNow | None, dict[str, Any]]]) -> None:
        """Every person of ``wanted`` given its id (``person["person_id"]``), the missing ones made."""
        unknown = [(now, person) for now, person in wanted if self._known(now, person) is None]
        kinopoisk = {person["kinopoiskId"] for _, person in unknown if person["kinopoiskId"] is not None}
        names = {person["name"] for _, person in unknown if person["kinopoiskId"] is None}
        for person_id, found in _by_kinopoisk(kinopoisk - self.looked):
            self.exact[found] = person_id
        for person_id, name, original in persons_named(names - self.looked):
            self.exact.setdefault((name, original), person_id)
            self.by_name.setdefault(name, person_id)
        self.looked |= kinopoisk | names
        missing: dict[Key, dict[str, Any]] = {}
        for now, person in unknown:
            key: Key = person["kinopoiskId"] or (person["name"], person["originalName"])
            if self._known(now, person) is None and key not in missing:
                missing[key] = {"slug": f"{slugify(person['name'], 110) or 'person'}-{secrets.token_hex(4)}",
                                "name": person["name"], "original_name": person["originalName"], "photo_url": None,
                                "kinopoisk_id": person["kinopoiskId"]}
        for key, person_id in zip(missing, insert_persons(list(missing.values())) if missing else [], strict=True):
            self.exact[key] = person_id
            if not isinstance(key, int):
                self.by_name.setdefault(key[0], person_id)
        for now, person in wanted:
            person["person_id"] = self._known(now, person)

    @staticmethod
    def credits(persons: list[dict[str, Any]]) -> list[tuple[int, int, str | None]]:
        """The content's credits as the line gives them, in its order, a person in a role once."""
        out: dict[tuple[int, int], str | None] = {}
        for person in persons:
            out.setdefault((person["person_id"], person["role_id"]), person["character"])
        return [(person, role, character) for (person, role), character in out.items()]


def _by_kinopoisk(ids: set[Any]) -> list[tuple[int, int]]:
    wanted = sorted(ids)
    table = Person.__table__
    found: list[tuple[int, int]] = []
    for start in range(0, len(wanted), 500):
        found += [(row.id, row.kinopoisk_id) for row in db.session.execute(
            select(table.c.id, table.c.kinopoisk_id).where(table.c.kinopoisk_id.in_(wanted[start:start + 500])))]
    return found


def insert_persons(rows: list[dict[str, Any]]) -> list[int]:
    table = Person.__table__
    return [row[0] for row in db.session.execute(insert(table).returning(table.c.id, sort_by_parameter_order=True),
                                                 rows)]
