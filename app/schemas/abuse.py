"""Abuse reports as a viewer files them (spec §7 ``POST /abuse/new``), and the fixed list of reasons with their
Russian labels (``GET /abuse/reasons``: what a site's form offers)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.models.abuse import MAX_COMMENT, AbuseReason, AbuseTarget
from app.schemas.common import Id
from app.schemas.reviews import TEXT_PATTERN

TARGETS = tuple(target.value for target in AbuseTarget)
REASON_CODES = tuple(reason.value for reason in AbuseReason)


class AbuseBodySchema(Schema):
    target = fields.Str(required=True, validate=validate.OneOf(TARGETS),
                        metadata={"description": "what is reported: a review or a content", "example": "review"})
    targetId = Id(required=True, attribute="target_id", strict=True,
                  metadata={"description": "the review's or the content's id", "example": 1})
    reason = fields.Str(required=True, validate=validate.OneOf(REASON_CODES), metadata={
        "description": "one of GET /abuse/reasons, for this kind of target", "example": "spam"})
    comment = fields.Str(validate=validate.Length(max=MAX_COMMENT), allow_none=True, metadata={
        "pattern": TEXT_PATTERN, "description": f"optional, at most {MAX_COMMENT} characters",
        "example": "Ссылка на сторонний сайт"})


class AbuseReportSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 1})
    target = fields.Str(required=True, metadata={"example": "review"})
    targetId = fields.Int(required=True, attribute="target_id", metadata={"example": 1})
    reason = fields.Str(required=True, metadata={"example": "spam"})
    status = fields.Str(required=True, metadata={
        "description": "open, review_hidden or dismissed: what the editors did", "example": "open"})
    createdAt = fields.AwareDateTime(format="iso", required=True, attribute="created_at",
                                     metadata={"example": "2026-11-25T17:00:00+00:00"})


class AbuseReasonSchema(Schema):
    code = fields.Str(required=True, metadata={"example": "spam"})
    label = fields.Str(required=True, metadata={"example": "Спам или реклама"})
    targets = fields.List(fields.Str(), required=True, metadata={"example": ["review"]})
