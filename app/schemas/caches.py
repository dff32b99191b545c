"""The named caches as ``GET /caches`` lists them (app/caching.py ``NAMED_CACHES``)."""

from __future__ import annotations

from marshmallow import Schema, fields


class CacheSchema(Schema):
    name = fields.Str(required=True, metadata={"example": "responses"})
    description = fields.Str(required=True, metadata={
        "example": "Общие ответы: анонимные чтения каталога и страницы плеера, как они были отправлены"})
    entries = fields.Int(required=True, metadata={
        "description": "entries stored, stale ones waiting to expire included", "example": 1250})
    exact = fields.Bool(required=True, metadata={
        "description": "false: at least this many (the count stopped at a million)", "example": True})
    where = fields.Str(required=True, metadata={
        "description": "redis (shared by every process), or process (this process's own: no Redis, or Redis "
                       "failing)", "example": "redis"})


class CachesSchema(Schema):
    caches = fields.List(fields.Nested(CacheSchema), required=True)
