"""The search call's request (the words, the filters of the lists, a page) and its answer: a page of content cards,
best first, with the query as it was searched when a typo was corrected."""

from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.cards import ContentCardSchema
from app.schemas.common import Text
from app.schemas.lists import ContentsBodySchema
from app.schemas.paging import page_of

MAX_QUERY = 200


class SearchBodySchema(ContentsBodySchema):
    """The words, and the filters and page of ``POST /contents`` (search ranks its results: no sort)."""

    class Meta:
        exclude = ("sort", "order")

    query = Text(required=True, validate=validate.Length(min=1, max=MAX_QUERY), metadata={
        "description": "the words to find: Russian in any form, with a typo, transliterated, or the original title",
        "example": "тихая говань"})


class SearchQuerySchema(SearchBodySchema):
    """As the body, in the query string (a list filter: the parameter repeated)."""

    IN_QUERY = True


SearchPageSchema = type("SearchPageSchema", (page_of(ContentCardSchema),), {
    "corrected": fields.Str(allow_none=True, required=True, metadata={
        "description": "the words searched when a typo was corrected, else null", "example": "тихая гавань"}),
})
