"""A page of a query: the rows of one page in a stable order (the caller's, then the id as the tie-breaker, so no row
shows on two pages or on none) and how many rows match. Two queries whatever the page size."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, func, select

from app.extensions import db


@dataclass(frozen=True)
class Page:
    items: list[Any]
    total: int
    page: int
    page_size: int

    def envelope(self, items: list[Any] | None = None) -> dict[str, Any]:
        """What the list schemas dump (app/schemas/paging.py): the items, or ``items`` made from them."""
        return {"items": self.items if items is None else items, "total": self.total, "page": self.page,
                "pageSize": self.page_size}


def count_of(query: Select[Any]) -> int:
    """How many rows ``query`` has (its order left out)."""
    return db.session.scalar(select(func.count()).select_from(query.order_by(None).subquery())) or 0


def paginate(query: Select[Any], id_column: Any, page: int, page_size: int, total: int | None = None) -> Page:
    """``query`` (ordered as its caller wants, or not at all) one page at a time, ``id_column`` last in the order;
    ``total``: how many rows it has, when the caller knows (else counted)."""
    total = count_of(query) if total is None else total
    rows = db.session.scalars(query.order_by(id_column).limit(page_size).offset((page - 1) * page_size)).all() \
        if total > (page - 1) * page_size else []
    return Page(list(rows), total, page, page_size)


def paginate_counting_along(query: Select[Any], id_column: Any, page: int, page_size: int,
                            counted: Select[Any]) -> Page:
    """As ``paginate`` in one statement: the page's rows carry the count of all (a window), for a query whose rows
    the database reads in full anyway to sort them (a category's contents, never the whole catalogue's: there an
    index gives the page in order, and a count of all would read every row); ``counted`` counts a page past the
    last, which has no row to carry it."""
    total_column = func.count().over().label("total")
    rows = db.session.execute(query.add_columns(total_column).order_by(id_column).limit(page_size)
                              .offset((page - 1) * page_size)).all()
    if rows:
        return Page([row[0] for row in rows], rows[0].total, page, page_size)
    return Page([], count_of(counted), page, page_size)
