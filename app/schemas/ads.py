"""The ad calls' arguments and the ad list (spec §3 "Ad list", §7)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.models.ads import MAX_WRAPPER_DEPTH, PIXEL_EVENTS, PIXEL_SOURCES
from app.schemas.common import Count, Id, Text


class AdListQuerySchema(Schema):
    content_id = Id(metadata={"description": "the content the player plays; without it, untargeted placements only",
                              "example": 1})


class AdListItemSchema(Schema):
    vastUrl = fields.Url(required=True, schemes={"http", "https"}, metadata={
        "description": "a VAST document", "example": "https://player.example/vast.xml?creative=1"})


class AdListSchema(Schema):
    prerollList = fields.List(fields.Nested(AdListItemSchema), required=True)
    midrollList = fields.List(fields.Nested(AdListItemSchema), required=True, metadata={
        "example": [{"vastUrl": "https://player.example/vast.xml?creative=2&depth=1"}]})


class VastQuerySchema(Schema):
    creative = Id(required=True, metadata={"description": "a house creative", "example": 1})
    depth = Count(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_WRAPPER_DEPTH),
        metadata={"description": "wrappers before the inline ad", "example": 1},
    )


class TrackingQuerySchema(Schema):
    """The pixel's query, as the house documents write it (app/services/ads/vast.py). Other parameters (the
    cache-buster, the timestamp) are allowed and dropped; a code or playhead the player did not fill in is kept as
    unknown."""

    event = fields.Str(required=True, validate=validate.OneOf(PIXEL_EVENTS),
                       metadata={"description": "impression, click, error or a linear tracking event",
                                 "example": "error"})
    creative = Id(required=True, metadata={"description": "the house creative the document is for", "example": 1})
    source = fields.Str(required=True, validate=validate.OneOf(PIXEL_SOURCES),
                        metadata={"description": "which document of a wrapper chain: inline, wrapper-N",
                                  "example": "inline"})
    code = Text(load_default="", metadata={"description": "an error pixel's VAST error code ([ERRORCODE])",
                                           "example": "405"})
    playhead = Text(load_default="", metadata={"description": "the ad's time, HH:MM:SS.mmm ([ADPLAYHEAD])",
                                               "example": "00:00:05.000"})
