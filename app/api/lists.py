"""Lists of contents (spec §7): categories and their trees, the main mart, filtered and sorted lists, facets.

Every call is an anonymous read, shared (app/http/shared.py) when it is a GET. The lists the spec makes POSTs
("query, body": filters and sort in the query string and the JSON body, the body winning per field) are also GETs
with the query string alone, which a CDN can keep. ``/v2/types/…`` answers exactly as ``/types/…``. The lists and the
facets are limited per address where the shared store did not answer them (app/http/rates.py
``limited_catalogue_read``): 429."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from app.api.arguments import Blueprint
from app.api.decorators import shared_read
from app.api.docs import answers, id_parameter, slug_parameter
from app.caching import refresh_derived_later, store
from app.http.rates import limited_catalogue_read
from app.http.shared import shared
from app.http.viewer import viewer_country
from app.schemas.cards import ContentCardSchema
from app.schemas.lists import (
    CategoryContentsBodySchema,
    CategoryContentsQuerySchema,
    CategoryNodeSchema,
    CategorySchema,
    ContentsBodySchema,
    ContentsQuerySchema,
    FacetsSchema,
    MartEntrySchema,
    MartQuerySchema,
    TreeQuerySchema,
)
from app.schemas.paging import page_of
from app.services.catalogue import categories, lists
from app.services.catalogue.facets import category_counts, category_facets, facets
from app.services.catalogue.filters import list_request
from app.services.catalogue.reach import PlaysHere

blp = Blueprint("lists", __name__, description="Categories, the main mart, lists of contents with filters and sort")
CardPage = page_of(ContentCardSchema)


SLUGS = [slug_parameter("type", "a content type's slug", "film", 64),
         slug_parameter("slug", "a category's slug within the type", "drama-films")]
TYPE_ID = id_parameter("id", "a content type's id", 1)


@blp.route("/categories/<string:slug>/content-type/<string:type>", parameters=SLUGS)
@shared_read(blp, CategorySchema, 404)
def get_category(slug: str, type: str) -> Any:
    """One category of a content type (by their slugs), with its parent and its children in their order."""
    return shared(categories.get_category(type, slug))


@blp.route("/categories/tree/content-type/<int:id>", parameters=[TYPE_ID])
@blp.arguments(TreeQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, CategoryNodeSchema(many=True), 404, 422)
def get_category_tree(id: int, include_empty: bool) -> Any:
    """The content type's categories as a tree, siblings in position order, each with how many published titles it
    holds (its sub-categories' included, each title once); the empty ones left out unless ``includeEmpty``."""
    generation = store().generation()
    return shared(categories.category_tree(
        id, lambda: category_counts(id, generation, when_missing=refresh_derived_later), include_empty=include_empty))


@blp.route("/categories/main-mart/content-type/<int:id>", parameters=[TYPE_ID])
@blp.arguments(MartQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, MartEntrySchema(many=True), 404, 422)
def get_type_main_mart(id: int, limit: int, available_here: bool = False) -> Any:
    """The home page's showcase for one content type: its main-mart categories in position order, each with its
    first ``limit`` contents in the category's order."""
    return shared(lists.main_mart(id, limit, here(available_here)))


@blp.route("/categories/main-mart")
@blp.arguments(MartQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, MartEntrySchema(many=True), 422)
def get_main_mart(limit: int, available_here: bool = False) -> Any:
    """The home page's showcase: the main-mart categories of every type, in position order, with their contents."""
    return shared(lists.main_mart(None, limit, here(available_here)))


def here(available_here: bool) -> PlaysHere | None:
    """The "available here" filter for this viewer's country, when asked (``availableHere=true``)."""
    return PlaysHere(viewer_country()) if available_here else None


@blp.route("/categories/filters/<int:id>", parameters=[TYPE_ID])
@limited_catalogue_read
@shared_read(blp, FacetsSchema, 404, 429)
def get_filters(id: int) -> Any:
    """The facets of the content type's published contents with their counts: what the list filters can ask for."""
    return shared(facets(id, store().generation(), when_missing=refresh_derived_later))


@blp.route("/types/<string:type>/categories/<string:slug>/filters", parameters=SLUGS)
@limited_catalogue_read
@shared_read(blp, FacetsSchema, 404, 429)
def get_category_filters(type: str, slug: str) -> Any:
    """The facets of a category's published titles (its sub-categories' included, as its list has them) with their
    counts: what each filter of its page lists (genres=drama on the category's list gives the genre's count)."""
    return shared(category_facets(type, slug))


@blp.route("/contents")
class Contents(MethodView):
    @limited_catalogue_read
    @blp.arguments(ContentsQuerySchema, location="query")
    @shared_read(blp, CardPage, 422, 429)
    def get(self, query: dict[str, Any]) -> Any:
        """Every published content, filtered and sorted by the query string (a list: the parameter repeated)."""
        return shared(lists.list_contents(list_request(query, country=viewer_country())).envelope())

    @limited_catalogue_read
    @blp.arguments(ContentsQuerySchema, location="query")
    @blp.arguments(ContentsBodySchema, required=False)
    @blp.response(200, CardPage)
    @answers(blp, 422, 429, body=True)
    def post(self, query: dict[str, Any], body: dict[str, Any]) -> Any:
        """As the GET, with the filters, sort and page in the query string, the body or both: the body wins per
        field."""
        return lists.list_contents(list_request(query, body, country=viewer_country())).envelope()


class CategoryContents(MethodView):
    @limited_catalogue_read
    @blp.arguments(CategoryContentsQuerySchema, location="query")
    @shared_read(blp, CardPage, 404, 422, 429)
    def get(self, query: dict[str, Any], type: str, slug: str) -> Any:
        """The published contents of a category of a content type (by their slugs), filtered and sorted by the
        query string (a list: the parameter repeated); position is the category's own order."""
        return shared(lists.category_contents(type, slug, list_request(query, country=viewer_country())).envelope())

    @limited_catalogue_read
    @blp.arguments(CategoryContentsQuerySchema, location="query")
    @blp.arguments(CategoryContentsBodySchema, required=False)
    @blp.response(200, CardPage)
    @answers(blp, 404, 422, 429, body=True)
    def post(self, query: dict[str, Any], body: dict[str, Any], type: str, slug: str) -> Any:
        """As the GET, with the filters, sort and page in the query string, the body or both: the body wins per
        field."""
        return lists.category_contents(type, slug, list_request(query, body, country=viewer_country())).envelope()


blp.route("/types/<string:type>/categories/<string:slug>/contents", endpoint="category_contents",
          parameters=SLUGS)(CategoryContents)
# v2 answers the same: the spec names both, and nothing we know of tells them apart
blp.route("/v2/types/<string:type>/categories/<string:slug>/contents", endpoint="category_contents_v2",
          parameters=SLUGS)(CategoryContents)
