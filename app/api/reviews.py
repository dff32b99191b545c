"""Reviews of contents and votes on them (spec §7 "Catalogue: reviews, lists and search").

Writing needs a signed-in account (a bearer token, or the cookie with its CSRF header): a review (one per account and
content), its change and deletion (the author's; an editor or administrator may delete any), a vote (never on one's
own). Reading is public, in two forms:

* ``GET /v2/contents/{id}/reviews`` (the order and page in the query string) is the shared answer: the same for every
  caller, kept by the service and by CDNs (app/http/shared.py) like the catalogue's other reads, so up to
  ``SHARED_CACHE_SECONDS`` behind a new review;
* ``POST /v2/contents/{id}/reviews`` (spec §7; the order and page in the body, the query string or both, the body
  winning per field, as the catalogue's other POST lists) is never kept and reads the database: a signed-in caller
  gets their vote on each review (``myVote``) and their own review even while hidden (``hidden``); anyone else gets
  what the GET answers. A token that is there must hold: expired or revoked is 401, never an anonymous answer.

Writes and votes are limited per account (RATE_LIMIT_REVIEW_WRITES, RATE_LIMIT_REVIEW_VOTES): 429 with Retry-After."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_jwt_extended import get_jwt

from app.api.arguments import Blueprint
from app.api.decorators import require_role, shared_read
from app.api.docs import BEARER, NO_STORE, answers, id_parameter
from app.http.rates import limited_catalogue_read, limited_review_votes, limited_review_writes
from app.http.shared import shared
from app.http.tokens import current_account_id
from app.http.viewer import viewer_key
from app.models import Role
from app.schemas.paging import DEFAULT_PAGE_SIZE, page_of
from app.schemas.reviews import (
    ReviewBodySchema,
    ReviewsBodySchema,
    ReviewSchema,
    ReviewsQuerySchema,
    TallySchema,
    VoteBodySchema,
)
from app.services.reviews import reviews, votes
from app.services.reviews.reviews import ReviewOrder

blp = Blueprint("reviews", __name__, description="Viewers' reviews of contents, and votes on them")
ReviewPage = page_of(ReviewSchema)
CONTENT_ID = id_parameter("content_id", "a published content's id", 1)
REVIEW_IDS = [CONTENT_ID, id_parameter("review_id", "one of its reviews", 1)]
REVIEWS = "/v2/contents/<int:content_id>/reviews"


def _page(content_id: int, asked: dict[str, Any], viewer_id: int | None) -> dict[str, Any]:
    order = ReviewOrder(asked.get("sort", ReviewOrder.NEWEST.value))
    found = reviews.list_reviews(content_id, order, asked.get("page", 1), asked.get("page_size", DEFAULT_PAGE_SIZE),
                                 viewer_id)
    return found.envelope()


def _signed_in_account() -> int | None:
    """The caller's account when a token comes with the request (app/http/viewer.py ``viewer_key``: 401 when it is
    expired, revoked or forged, or a signed-in browser's cookie lapsed), else None: a device is nobody here."""
    key = viewer_key()
    return int(key.removeprefix("user:")) if key is not None and key.startswith("user:") else None


@blp.route(REVIEWS, parameters=[CONTENT_ID])
class Reviews(MethodView):
    @limited_catalogue_read
    @blp.arguments(ReviewsQuerySchema, location="query")
    @shared_read(blp, ReviewPage, 404, 422, 429)
    def get(self, query: dict[str, Any], content_id: int) -> Any:
        """The content's reviews, newest (default) or most helpful first: the shared answer, the same for every
        caller (no caller's votes)."""
        return shared(_page(content_id, query, None))

    @limited_catalogue_read
    @blp.arguments(ReviewsQuerySchema, location="query")
    @blp.arguments(ReviewsBodySchema, required=False)
    @blp.response(200, ReviewPage, headers={"Cache-Control": {"schema": {"type": "string"}}})
    @blp.doc(security=[{}, *BEARER])
    @answers(blp, 401, 404, 422, 429, body=True)
    def post(self, query: dict[str, Any], body: dict[str, Any], content_id: int) -> Any:
        """As the GET, with the order and page in the body, the query string or both (the body wins per field);
        signed in, each review carries the caller's vote, and their own review shows even while hidden."""
        return _page(content_id, {**query, **(body or {})}, _signed_in_account()), NO_STORE


@blp.route(f"{REVIEWS}/create", methods=["POST"], parameters=[CONTENT_ID])
@require_role(blp, Role.VIEWER)
@limited_review_writes
@blp.arguments(ReviewBodySchema)
@blp.response(201, ReviewSchema)
@answers(blp, 401, 403, 404, 409, 422, 429, body=True)
def create_review(body: dict[str, Any], content_id: int) -> Any:
    """The caller's review of the content: one per account and content (409 names the one there is)."""
    return reviews.create_review(current_account_id(), content_id, body["text"], body["rating"]), 201, NO_STORE


@blp.route(f"{REVIEWS}/<int:review_id>", parameters=REVIEW_IDS)
class OneReview(MethodView):
    @require_role(blp, Role.VIEWER)
    @limited_review_writes
    @blp.arguments(ReviewBodySchema)
    @blp.response(200, ReviewSchema)
    @answers(blp, 401, 403, 404, 422, 429, body=True)
    def put(self, body: dict[str, Any], content_id: int, review_id: int) -> Any:
        """The author's new text and rating (a hidden review stays hidden)."""
        return reviews.update_review(current_account_id(), content_id, review_id, body["text"], body["rating"]), \
            NO_STORE

    @require_role(blp, Role.VIEWER)
    @limited_review_writes
    @blp.response(204)
    @answers(blp, 401, 403, 404, 429)
    def delete(self, content_id: int, review_id: int) -> None:
        """Deletes the review and its votes: its author may, and an editor or administrator."""
        reviews.delete_review(current_account_id(), Role.EDITOR.admits(get_jwt().get("role")), content_id,
                              review_id)


@blp.route(f"{REVIEWS}/<int:review_id>/vote", methods=["POST"], parameters=REVIEW_IDS)
@require_role(blp, Role.VIEWER)
@limited_review_votes
@blp.arguments(VoteBodySchema)
@blp.response(200, TallySchema)
@answers(blp, 401, 403, 404, 422, 429, body=True)
def vote(body: dict[str, Any], content_id: int, review_id: int) -> Any:
    """The caller's vote on someone else's review: 1 helpful, -1 not; again with the other value changes it, 0 takes
    it back."""
    return votes.vote(current_account_id(), content_id, review_id, body["value"]), NO_STORE
