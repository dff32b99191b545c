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
        metadata={"description": "whole seconds from the episode's start", "example": 754},
    )


class LastWatchedSchema(Schema):
    episode_id = fields.Int(data_key="episodeId", metadata={"example": 3})
    time = fields.Int(metadata={"example": 754})
    updated_at = fields.DateTime(data_key="updatedAt", metadata={"example": "2026-11-25T18:42:07+00:00"})


class SessionContextRequestSchema(Schema):
    fingerprint = fields.Str(
        required=True,
        validate=validate.Regexp(r"\A[A-Za-z0-9_-]{8,64}\Z"),
        metadata={"description": "the browser's hash of its device signals (spec §3 device_fp)",
                  "example": "9f86d081884c7d65"},
    )


class SessionContextSchema(Schema):
    sessionContext = fields.Str(
        required=True,
        metadata={"description": "the device identity: the device_fp cookie's value, sent as X-Session-Context",
                  "example": "9f86d081884c7d65.VzbqeywzMefTrnCDr-BFRg.kORenClqbzjsY5S8fQNVGw"},
    )
