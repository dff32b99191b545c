"""The one list envelope of the catalogue API: ``{items, total, page, pageSize}``, and the paging query that asks
for it (``page`` from 1, ``pageSize`` 1 to 100). Each list call makes its envelope with ``page_of(ItemSchema)``."""

from __future__ import annotations

from functools import cache

from marshmallow import Schema, fields, validate

from app.schemas.common import Count

MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 20
MAX_PAGE = 10_000  # beyond it an offset costs the database more than any reader needs: narrow the filters instead


class PageQuerySchema(Schema):
    page = Count(load_default=1, validate=validate.Range(min=1, max=MAX_PAGE),
                 metadata={"description": "the page, from 1", "example": 1})
    pageSize = Count(load_default=DEFAULT_PAGE_SIZE, validate=validate.Range(min=1, max=MAX_PAGE_SIZE),
                     metadata={"description": f"items per page, at most {MAX_PAGE_SIZE}", "example": 20})


@cache
def page_of(item: type[Schema]) -> type[Schema]:
    """The envelope schema of a page of ``item``s (one class per item schema: the OpenAPI document names it)."""
    name = item.__name__.removesuffix("Schema") + "PageSchema"
    return type(name, (Schema,), {
        "items": fields.List(fields.Nested(item), required=True),
        "total": fields.Int(required=True, metadata={"description": "items matching, on every page", "example": 1}),
        "page": fields.Int(required=True, metadata={"example": 1}),
        "pageSize": fields.Int(required=True, metadata={"example": 20}),
    })
