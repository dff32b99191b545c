"""What the service derives from the catalogue and keeps, so that a read costs a primary-key lookup or an index range
instead of a scan of every title (issue 30, hole 13; issue 36): each type's facets with their counts, kept under the
catalogue's generation (app/services/catalogue/facets.py). The contents' stored relevance is a column of contents
(app/models/catalogue.py), its year a row of cache_counters (app/services/catalogue/relevance.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from app.extensions import db


class TypeFacets(db.Model):  # type: ignore[name-defined]
    """A content type's facets (GET /categories/filters/{id}) as they were at the catalogue's ``generation``."""
    __tablename__ = "type_facets"

    content_type_id: Mapped[int] = mapped_column(ForeignKey("content_types.id", ondelete="CASCADE"), primary_key=True)
    generation: Mapped[int] = mapped_column(BigInteger)
    facets: Mapped[dict[str, Any]] = mapped_column(JSON)
    published: Mapped[int] = mapped_column(Integer)  # how many of the type's contents are published (most-relevant)
