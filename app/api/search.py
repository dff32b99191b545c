"""Catalogue search (spec §7 ``POST /v2/contents/search``; also a GET with the query string, which a CDN can keep).
The rules: app/services/search/query.py; docs/search.md. Limited per address where the shared store did not answer
(app/http/rates.py ``limited_catalogue_read``): 429."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from marshmallow import RAISE

from app import suggestions
from app.api.arguments import Blueprint
from app.api.decorators import shared_read
from app.api.docs import answers
from app.caching import store
from app.http.rates import limited_catalogue_read
from app.http.shared import share
from app.http.viewer import viewer_country
from app.schemas.search import SearchBodySchema, SearchPageSchema, SearchQuerySchema
from app.services.catalogue.filters import list_request
from app.services.search.query import search

# One instance for every call: a class is made anew per request (webargs), a deep copy of its many fields, a tenth of
# a suggestion's time (docs/search.md "Suggestions").
QUERY_SCHEMA = SearchQuerySchema()

blp = Blueprint("search", __name__, description="Search: Russian morphology, typos, transliteration, original titles")


def found(loaded: dict[str, Any]) -> dict[str, Any]:
    words = loaded.pop("query")
    generation = store().generation()
    result = search(words, list_request(loaded, country=viewer_country()), generation=generation,
                    index=suggestions.current(generation))
    return {**result.page.envelope(), "corrected": result.corrected}


@blp.route("/v2/contents/search")
class Search(MethodView):
    @limited_catalogue_read
    @blp.arguments(QUERY_SCHEMA, location="query")
    @shared_read(blp, SearchPageSchema, 422, 429)
    def get(self, request: dict[str, Any]) -> Any:
        """Published contents matching every word in a field (title, original title or transliteration, people,
        description) and the filters of ``GET /contents`` (a list: the parameter repeated), best first."""
        answer = found(request)
        share()
        return answer

    @limited_catalogue_read
    @blp.arguments(SearchBodySchema, unknown=RAISE)
    @blp.response(200, SearchPageSchema)
    @answers(blp, 422, 429, body=True)
    def post(self, request: dict[str, Any]) -> Any:
        """As the GET, with the words, the filters and the page in the JSON body."""
        return found(request)
