"""A person (``GET /persons/{id}``): who they are, the parts they take (their roles) and their filmography, published
contents only; the filmography alone, paged, is ``GET /persons/{id}/contents``. A fixed number of queries whatever
the page size: the person, their roles, the page of contents (counted), the parts in them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, exists, select
from sqlalchemy.orm import contains_eager

from app.extensions import db
from app.models import Content, ContentPerson, Person, PersonType
from app.models.ids import storable_id
from app.services.catalogue.cards import CARD_OPTIONS
from app.services.catalogue.paging import Page, paginate
from app.services.catalogue.publishing import public
from app.services.errors import NotFound


@dataclass(frozen=True)
class CreditedContent:
    """A content as a card, with the person's parts in it; reads as the content for everything else, so that the
    card's schema dumps it as it dumps a content."""

    content: Content
    parts: list[ContentPerson]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.content, name)


@dataclass(frozen=True)
class PersonDetails:
    """A person with their roles and a page of their contents; reads as the person for everything else."""

    person: Person
    roles: list[PersonType]
    contents: dict[str, Any]  # a page's envelope (Page.envelope)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.person, name)


def person(person_id: int) -> Person:
    found = db.session.get(Person, person_id) if storable_id(person_id) else None
    if found is None:
        raise NotFound("person_not_found", "Персона не найдена", {"id": person_id})
    return found


def person_details(person_id: int, page: int, page_size: int) -> PersonDetails:
    """The person, the kinds of part they take in published contents (in the credits' order of types), and a page of
    those contents as ``person_contents`` gives it."""
    found = person(person_id)
    credited = exists().where(ContentPerson.person_id == found.id, ContentPerson.person_type_id == PersonType.id,
                              ContentPerson.content_id == Content.id, public())
    roles = list(db.session.scalars(select(PersonType).where(credited).order_by(PersonType.position, PersonType.id)))
    return PersonDetails(found, roles, person_contents(found.id, page, page_size).envelope())


def person_contents(person_id: int, page: int, page_size: int) -> Page:
    """The person's published contents, newest year first (no year last), each with the person's parts in it."""
    credited = exists().where(ContentPerson.content_id == Content.id, ContentPerson.person_id == person_id)
    rows: Select[Any] = (select(Content).where(public(), credited).options(*CARD_OPTIONS)
                         .order_by(Content.year.desc().nulls_last()))
    found = paginate(rows, Content.id, page, page_size)
    parts: dict[int, list[ContentPerson]] = {content.id: [] for content in found.items}
    if parts:
        query = (select(ContentPerson).join(ContentPerson.person_type)
                 .options(contains_eager(ContentPerson.person_type))  # each part's type in the same query
                 .where(ContentPerson.person_id == person_id, ContentPerson.content_id.in_(parts))
                 .order_by(PersonType.position, ContentPerson.position, ContentPerson.id))
        for part in db.session.scalars(query):
            parts[part.content_id].append(part)
    return Page([CreditedContent(c, parts[c.id]) for c in found.items], found.total, found.page, found.page_size)
