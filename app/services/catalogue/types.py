"""Content types by id or by slug, for every call that names one (reference lists, category lists, most-relevant)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from app.extensions import db
from app.models import ContentType
from app.models.ids import storable_id
from app.models.slugs import is_slug
from app.services.errors import NotFound


def type_not_found(details: dict[str, Any]) -> NotFound:
    return NotFound("content_type_not_found", "Тип контента не найден", details)


def content_type(type_id: int) -> ContentType:
    found = db.session.get(ContentType, type_id) if storable_id(type_id) else None
    if found is None:
        raise type_not_found({"id": type_id})
    return found


def content_type_by_slug(slug: str) -> ContentType:
    found = db.session.scalars(select(ContentType).where(ContentType.slug == slug)).first() if is_slug(slug) else None
    if found is None:
        raise type_not_found({"slug": slug})
    return found
