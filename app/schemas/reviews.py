"""Reviews and their votes as the API takes and shows them (spec §7 "Catalogue: reviews"). One schema for every
caller: a signed-in one's answer fills ``myVote``, ``isOwn`` and (for their own) ``hidden``; the shared answer has
them null and false."""

from __future__ import annotations

from typing import ClassVar

from marshmallow import Schema, fields, validate

from app.models.reviews import MAX_RATING, MAX_TEXT, MIN_RATING, MIN_TEXT
from app.schemas.lists import Whole
from app.schemas.paging import DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE

ORDERS = ("newest", "helpful")  # app/services/reviews/reviews.py ReviewOrder
# A review's text may have lines: tab, newline and carriage return are its only control characters
# (app/http/limits.py refuses the others in any body).
TEXT_PATTERN = r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$"


class ReviewsBodySchema(Schema):
    """A page of a content's reviews: the order and the page, none required."""

    IN_QUERY: ClassVar[bool] = False

    sort = fields.Str(validate=validate.OneOf(ORDERS), metadata={
        "description": "newest (the default) or helpful (most helpful first: helpful votes less unhelpful ones, then "
                       "newest)", "example": "helpful"})
    page = Whole(validate=validate.Range(min=1, max=MAX_PAGE), metadata={"description": "from 1 (default)",
                                                                         "example": 1})
    pageSize = Whole(attribute="page_size", validate=validate.Range(min=1, max=MAX_PAGE_SIZE), metadata={
        "description": f"items per page, at most {MAX_PAGE_SIZE} (default {DEFAULT_PAGE_SIZE})", "example": 20})


class ReviewsQuerySchema(ReviewsBodySchema):
    IN_QUERY = True


class ReviewBodySchema(Schema):
    """A review as its author writes it: stored as written (every page that shows it escapes it; links stay text)."""

    text = fields.Str(required=True, validate=validate.Length(min=1, max=MAX_TEXT), metadata={
        "pattern": TEXT_PATTERN, "example": "Неторопливое, честное кино о дороге и о том, что остаётся после неё.",
        "description": f"{MIN_TEXT} to {MAX_TEXT} characters (surrounding spaces not counted for the minimum); lines "
                       "allowed"})
    rating = Whole(required=True, strict=True, validate=validate.Range(min=MIN_RATING, max=MAX_RATING),
                   metadata={"description": f"the viewer's rating, {MIN_RATING} to {MAX_RATING}", "example": 8})


class AuthorSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 3})
    name = fields.Str(required=True, metadata={"example": "viewer"})


class VotesSchema(Schema):
    up = fields.Int(required=True, metadata={"description": "helpful", "example": 4})
    down = fields.Int(required=True, metadata={"description": "not helpful", "example": 1})
    score = fields.Int(required=True, metadata={"description": "up less down: what helpful sorts by", "example": 3})


class ReviewSchema(Schema):
    """A review as a list shows it to one caller (``ReviewItem``)."""

    id = fields.Int(required=True, attribute="review.id", metadata={"example": 1})
    contentId = fields.Int(required=True, attribute="review.content_id", metadata={"example": 1})
    text = fields.Str(required=True, attribute="review.text", metadata={
        "example": "Неторопливое, честное кино о дороге и о том, что остаётся после неё."})
    rating = fields.Int(required=True, attribute="review.rating", metadata={"example": 8})
    author = fields.Nested(AuthorSchema, required=True, attribute="review.account")
    votes = fields.Nested(VotesSchema, required=True)
    createdAt = fields.AwareDateTime(format="iso", required=True, attribute="review.created_at",
                                     metadata={"example": "2026-11-25T17:00:00+00:00"})
    editedAt = fields.AwareDateTime(format="iso", required=True, allow_none=True, attribute="review.edited_at",
                                    metadata={"description": "the author's last change, if any", "example": None})
    myVote = fields.Int(required=True, allow_none=True, attribute="my_vote", metadata={
        "description": "the signed-in caller's vote on it (1 or -1); null for others and in the shared answer",
        "example": None})
    isOwn = fields.Bool(required=True, attribute="own", metadata={"example": False})
    hidden = fields.Bool(required=True, attribute="review.hidden", metadata={
        "description": "hidden by an editor: then only its author sees it, in their own list", "example": False})


class VoteBodySchema(Schema):
    value = Whole(required=True, strict=True, validate=validate.OneOf((-1, 0, 1)), metadata={
        "description": "1 helpful, -1 not helpful, 0 takes the caller's vote back", "example": 1})


class TallySchema(Schema):
    """A review's votes after the caller's."""

    reviewId = fields.Int(required=True, attribute="review_id", metadata={"example": 1})
    votes = fields.Nested(VotesSchema, required=True)
    myVote = fields.Int(required=True, allow_none=True, attribute="my_vote", metadata={"example": 1})

