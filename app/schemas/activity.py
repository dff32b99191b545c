"""A viewer's progress through a content's episodes and their history (spec §7 "Catalogue: history and progress")."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.schemas.cards import ContentCardSchema
from app.schemas.common import FullMatch, Id, Text
from app.schemas.paging import PageQuerySchema, page_of
from app.schemas.search import MAX_QUERY

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
        validate=FullMatch(r"[A-Za-z0-9_-]{8,64}"),
        metadata={"description": "the browser's hash of its device signals (spec §3 device_fp)",
                  "example": "9f86d081884c7d65"},
    )


class SessionContextSchema(Schema):
    sessionContext = fields.Str(
        required=True,
        metadata={"description": "the device identity: the device_fp cookie's value, sent as X-Session-Context",
                  "example": "9f86d081884c7d65.VzbqeywzMefTrnCDr-BFRg.kORenClqbzjsY5S8fQNVGw"},
    )


class ViewSchema(Schema):
    episode_id = Id(data_key="episodeId", load_default=None, allow_none=True, metadata={
        "description": "the episode opened, when the viewer chose one", "example": 3})


class HistoryQuerySchema(PageQuerySchema):
    unfinished = fields.Bool(load_default=None, allow_none=True, metadata={
        "description": "true: only what is left to watch (\"continue watching\"); false: only what is finished; "
                       "absent or null: everything", "example": True})


class HistorySearchSchema(HistoryQuerySchema):
    class Meta:
        exclude = ("unfinished",)

    query = Text(required=True, validate=validate.Length(min=1, max=MAX_QUERY), metadata={
        "description": "the words to find, as the catalogue's search takes them", "example": "тихая гавань"})


class HistoryItemSchema(Schema):
    content = fields.Nested(ContentCardSchema, required=True)
    viewed_at = fields.DateTime(data_key="viewedAt", required=True, metadata={
        "description": "when the viewer last opened or played it", "example": "2026-11-25T18:42:07+00:00"})
    episode_id = fields.Int(attribute="position.episode_id", data_key="episodeId", required=True, allow_none=True,
                            metadata={"description": "the episode last played (or opened)", "example": 3})
    time = fields.Int(attribute="position.time", required=True, metadata={
        "description": "where the viewer stopped in it, seconds", "example": 754})
    duration = fields.Int(attribute="position.duration", required=True, allow_none=True, metadata={
        "description": "that episode's length, seconds, when known", "example": 2710})
    is_completed = fields.Bool(attribute="position.is_completed", data_key="isCompleted", required=True, metadata={
        "description": "that episode is finished", "example": False})
    next_episode_id = fields.Int(attribute="position.next_episode_id", data_key="nextEpisodeId", required=True,
                                 allow_none=True, metadata={
                                     "description": "the episode \"continue watching\" plays: the last one while "
                                                    "unfinished, else the next unfinished one; null when finished",
                                     "example": 3})
    is_finished = fields.Bool(attribute="position.is_finished", data_key="isFinished", required=True, metadata={
        "description": "every episode is finished", "example": False})


HistoryPageSchema = page_of(HistoryItemSchema)
HistorySearchPageSchema = type("HistorySearchPageSchema", (HistoryPageSchema,), {
    "corrected": fields.Str(allow_none=True, required=True, metadata={
        "description": "the words searched when a typo was corrected, else null", "example": None}),
})


class EpisodeProgressSchema(Schema):
    episode_id = fields.Int(data_key="episodeId", required=True, metadata={"example": 3})
    time = fields.Int(required=True, metadata={"description": "where the viewer stopped, seconds", "example": 754})
    completed = fields.Bool(data_key="isCompleted", required=True, metadata={"example": False})
    watched_at = fields.DateTime(data_key="watchedAt", required=True, allow_none=True, metadata={
        "description": "when the viewer last saved a position in it; null when only marked",
        "example": "2026-11-25T18:42:07+00:00"})
