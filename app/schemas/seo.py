"""The sitemaps' generation metadata on the wire (app/api/seo.py): what the live generation holds, for
administrators."""

from __future__ import annotations

from marshmallow import Schema, fields


class SitemapFileSchema(Schema):
    number = fields.Int(required=True, metadata={"example": 1, "description": "n of /sitemap{n}.xml; 0: the index"})
    loc = fields.Str(required=True, metadata={"example": "https://player.example/sitemap1.xml"})
    urls = fields.Int(required=True, metadata={
        "example": 50000, "description": "its <url> entries (the index: its <sitemap> entries)"})
    bytes = fields.Int(attribute="size", required=True, metadata={"example": 41_943_040,
                                                                  "description": "uncompressed"})
    gzipBytes = fields.Int(attribute="gzip_size", required=True, metadata={"example": 3_145_728,
                                                                           "description": "as stored and served"})
    lastmod = fields.DateTime(attribute="changed_at", required=True, metadata={
        "example": "2026-11-25T17:00:00+00:00",
        "description": "when its content last changed (a regeneration that writes the same bytes keeps it)"})


class SitemapMetaSchema(Schema):
    generatedAt = fields.DateTime(attribute="generated_at", required=True, allow_none=True, metadata={
        "example": "2026-11-25T17:00:00+00:00", "description": "null: never generated"})
    durationMs = fields.Int(attribute="duration_ms", required=True, allow_none=True, metadata={"example": 41_250})
    baseUrl = fields.Str(attribute="base_url", required=True, allow_none=True, metadata={
        "example": "https://player.example/", "description": "the origin every address in the files starts with"})
    urlCount = fields.Int(attribute="url_count", required=True, metadata={"example": 361_204})
    videoCount = fields.Int(attribute="video_count", required=True, metadata={"example": 361_204})
    skippedCount = fields.Int(attribute="skipped_count", required=True, metadata={
        "example": 0, "description": "entries no file could hold (an address over 2,048 characters, or an entry "
        "larger than SITEMAP_MAX_BYTES)"})
    fileCount = fields.Int(attribute="file_count", required=True, metadata={"example": 8,
                                                                            "description": "without the index"})
    index = fields.Nested(SitemapFileSchema, required=True, allow_none=True, metadata={
        "description": "/sitemap.xml; null when no file was generated (the index then lists nothing)",
        "example": {"number": 0, "loc": "https://player.example/sitemap.xml", "urls": 8, "bytes": 984,
                    "gzipBytes": 412, "lastmod": "2026-11-25T17:00:00+00:00"}})
    files = fields.List(fields.Nested(SitemapFileSchema), required=True, metadata={
        "description": "/sitemap1.xml … in order"})
    runningSince = fields.DateTime(attribute="running_since", required=True, allow_none=True, metadata={
        "example": None, "description": "a generation under way, last heard of then; null when none is"})
