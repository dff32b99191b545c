"""The probes' answers (app/api/ops.py)."""

from __future__ import annotations

from marshmallow import Schema, fields


class HealthSchema(Schema):
    status = fields.Str(required=True, metadata={"description": "ok"})


class ReadinessSchema(Schema):
    status = fields.Str(required=True, metadata={"description": "ok, or unavailable"})
    database = fields.Str(required=True, metadata={"description": "ok, or why not"})
    redis = fields.Str(required=True, metadata={"description": "ok, not configured, or why not"})
