"""The probes' answers (app/api/ops.py)."""

from __future__ import annotations

from marshmallow import Schema, fields


class HealthSchema(Schema):
    status = fields.Str(required=True, metadata={"description": "ok", "example": "ok"})


class ReadinessSchema(Schema):
    status = fields.Str(required=True, metadata={"description": "ok, or unavailable", "example": "ok"})
    database = fields.Str(required=True, metadata={"description": "ok, or why not", "example": "ok"})
    redis = fields.Str(required=True, metadata={"description": "ok, not configured, or why not", "example": "ok"})
