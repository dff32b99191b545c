"""The ad calls' arguments and the ad list (spec §3 "Ad list", §7)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.models.ads import MAX_WRAPPER_DEPTH, PIXEL_EVENTS, PIXEL_SOURCES
from app.schemas.common import Count, Id, Text


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
    """The pixel's query, as the house documents write it (app/services/vast.py). Other parameters (the cache-buster,
    the timestamp) are allowed and dropped; a code or playhead the player did not fill in is kept as unknown."""

    event = fields.Str(required=True, validate=validate.OneOf(PIXEL_EVENTS),
                       metadata={"description": "impression, click, error or a linear tracking event"})
    creative = Id(required=True, metadata={"description": "the house creative the document is for"})
    source = fields.Str(required=True, validate=validate.OneOf(PIXEL_SOURCES),
                        metadata={"description": "which document of a wrapper chain: inline, wrapper-N"})
    code = Text(load_default="", metadata={"description": "an error pixel's VAST error code ([ERRORCODE])"})
    playhead = Text(load_default="", metadata={"description": "the ad's time, HH:MM:SS.mmm ([ADPLAYHEAD])"})
