"""The ad calls' arguments and the ad list (spec §3 "Ad list", §7)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.schemas.common import Count, Id

MAX_WRAPPER_DEPTH = 5


class AdListQuerySchema(Schema):
    content_id = Id(metadata={"description": "the content the player plays; without it, untargeted placements only"})


class AdListItemSchema(Schema):
    vastUrl = fields.Url(required=True, schemes={"http", "https"}, metadata={"description": "a VAST document"})


class AdListSchema(Schema):
    prerollList = fields.List(fields.Nested(AdListItemSchema), required=True)
    midrollList = fields.List(fields.Nested(AdListItemSchema), required=True)


class VastQuerySchema(Schema):
    creative = Id(required=True, metadata={"description": "a house creative"})
    depth = Count(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_WRAPPER_DEPTH),
        metadata={"description": "wrappers before the inline ad"},
    )


class TrackingQuerySchema(Schema):
    """The pixel's query. Other parameters (the IAB macros the player filled in: cb, ts, playhead, …) are allowed
    and recorded with the hit as they came."""

    event = fields.Str(
        required=True,
        validate=validate.Regexp(r"\A[A-Za-z]{1,40}\Z"),
        metadata={"description": "impression, click, error or a tracking event"},
    )
    creative = Id()
    code = fields.Str(load_default="", metadata={"description": "the VAST error code of an error pixel"})
    source = fields.Str(load_default="", metadata={"description": "which document of a wrapper chain"})
