"""A line's persons matched to the catalogue's (docs/import.md). One with a ``kinopoiskId``: the person of that id, else
a new one with it. One without: among the persons the content already credits under the same name and original name
(no original name given: the same name), then the catalogue's, the oldest first, the first not yet matched in the same
role on this line (two namesakes acting in one title are two persons); else a new one. Looked up a batch at a time,
remembered for the whole import."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import insert, select

from app.extensions import db
from app.models import Person
from app.models.slugs import slugify
from app.services.catalogue.imports.state import ContentNow, persons_named

Named = tuple[str, str | None]  # (name, original name)


class People:
    def __init__(self) -> None:
        self.named: dict[Named, list[int]] = {}  # the catalogue's persons of a name and original name, oldest first
        self.by_name: dict[str, list[int]] = {}  # and of a name
        self.kinopoisk: dict[int, int] = {}  # Kinopoisk id → person
        self.looked: set[str | int] = set()

    def forget(self) -> None:
        """After a rolled-back batch: the persons it made are gone."""
        self.named.clear()
        self.by_name.clear()
        self.kinopoisk.clear()
        self.looked.clear()

    def resolve(self, lines: list[tuple[ContentNow | None, list[dict[str, Any]]]]) -> None:
        """Every person of every line given its id (``person["person_id"]``), the missing ones made."""
        persons = [person for _now, line in lines for person in line]
        self._look_up({person["kinopoiskId"] for person in persons if person["kinopoiskId"] is not None},
                      {person["name"] for person in persons if person["kinopoiskId"] is None})
        new: list[dict[str, Any]] = []  # rows to insert; a person waiting for its row has the id -(1 + its index)
        for now, line in lines:
            chosen: set[tuple[int, int]] = set()  # (person, role): two namesakes in one role are two persons
            for person in line:
                found = self._match(now, person, {taken for taken, role in chosen if role == person["role_id"]})
                if found is None:
                    found = -1 - len(new)
                    new.append({"slug": f"{slugify(person['name'], 110) or 'person'}-{secrets.token_hex(4)}",
                                "name": person["name"], "original_name": person["originalName"],
                                "photo_url": None, "kinopoisk_id": person["kinopoiskId"]})
                    self._remember(found, person["name"], person["originalName"], person["kinopoiskId"])
                chosen.add((found, person["role_id"]))
                person["person_id"] = found
        if not new:
            return
        made = insert_persons(new)
        real = {-1 - index: person_id for index, person_id in enumerate(made)}
        for person in persons:
            person["person_id"] = real.get(person["person_id"], person["person_id"])
        for ids in (*self.named.values(), *self.by_name.values()):
            ids[:] = [real.get(person_id, person_id) for person_id in ids]
        for kinopoisk, person_id in self.kinopoisk.items():
            self.kinopoisk[kinopoisk] = real.get(person_id, person_id)

    def _look_up(self, kinopoisk: set[int], names: set[str]) -> None:
        for person_id, found in _by_kinopoisk(kinopoisk - self.looked):
            self.kinopoisk[found] = person_id
        for person_id, name, original in persons_named(names - self.looked):
            self._remember(person_id, name, original, None)
        self.looked |= kinopoisk | names

    def _remember(self, person_id: int, name: str, original: str | None, kinopoisk: int | None) -> None:
        if kinopoisk is not None:
            self.kinopoisk[kinopoisk] = person_id
            return
        self.named.setdefault((name, original), []).append(person_id)
        self.by_name.setdefault(name, []).append(person_id)

    def _match(self, now: ContentNow | None, person: dict[str, Any], chosen: set[int]) -> int | None:
        name, original = person["name"], person["originalName"]
        if person["kinopoiskId"] is not None:
            return self.kinopoisk.get(person["kinopoiskId"])
        credited: list[int] = []
        if now is not None:
            credited = [person_id for (named, named_original), ids in now.people.items() for person_id in ids
                        if named == name and (original is None or named_original == original)]
        pool = credited + (self.named.get((name, original), []) if original is not None else
                           self.by_name.get(name, []))
        return next((person_id for person_id in pool if person_id not in chosen), None)

    @staticmethod
    def credits(persons: list[dict[str, Any]]) -> list[tuple[int, int, str | None]]:
        """The content's credits as the line gives them, in its order, a person in a role once."""
        out: dict[tuple[int, int], str | None] = {}
        for person in persons:
            out.setdefault((person["person_id"], person["role_id"]), person["character"])
        return [(person, role, character) for (person, role), character in out.items()]


def _by_kinopoisk(ids: set[int]) -> list[tuple[int, int]]:
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
