"""A viewer's progress through a content's episodes (spec §7 "Catalogue: history and progress")."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

MAX_SECONDS = 2**31 - 1  # what an integer column holds


class TimeProgressSchema(Schema):
    # strict: 12.5, "12" and true are refused rather than truncated or coerced
    time = fields.Int(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=MAX_SECONDS),
        metadata={"description": "whole seconds from the episode's start"},
    )


class LastWatchedSchema(Schema):
    episode_id = fields.Int(data_key="episodeId")
    time = fields.Int()
    updated_at = fields.DateTime(data_key="updatedAt")


class SessionContextRequestSchema(Schema):
    fingerprint = fields.Str(
        required=True,
        validate=validate.Regexp(r"\A[A-Za-z0-9_-]{8,64}\Z"),
        metadata={"description": "the browser's hash of its device signals (spec §3 device_fp)"},
    )


class SessionContextSchema(Schema):
    sessionContext = fields.Str(
        required=True,
        metadata={"description": "the device identity: the device_fp cookie's value, sent as X-Session-Context"},
    )
