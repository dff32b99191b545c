"""Playlists (spec §7): what a playlist is created and changed with, how it is shown, and what its contents' pages
are asked with. The text fields take no control characters (Text) and are trimmed by the rules; a title must have a
letter or digit (not blank)."""

from __future__ import annotations

from typing import ClassVar

from marshmallow import Schema, fields, validate

from app.models.playlists import MAX_PLAYLIST_DESCRIPTION, MAX_PLAYLIST_TITLE, Visibility
from app.schemas.common import Text
from app.schemas.lists import CategoryContentsBodySchema, Flag, Whole
from app.schemas.paging import DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE

TITLE_PATTERN = r"^[^\u0000-\u001f\u007f]*[^\s\u0000-\u001f\u007f][^\u0000-\u001f\u007f]*$"  # Text's, and not blank
VISIBILITIES = [member.value for member in Visibility]


def Title(**kwargs: object) -> Text:
    return Text(validate=[validate.Length(min=1, max=MAX_PLAYLIST_TITLE),
                          validate.Regexp(r"(?s).*\S", error="Укажите название плейлиста")],
                metadata={"example": "Смотреть на выходных", "pattern": TITLE_PATTERN,
                          "description": f"1 to {MAX_PLAYLIST_TITLE} characters, not blank"}, **kwargs)


def Description(**kwargs: object) -> Text:
    return Text(validate=validate.Length(max=MAX_PLAYLIST_DESCRIPTION), metadata={
        "example": "Что посмотреть с семьёй", "description": f"at most {MAX_PLAYLIST_DESCRIPTION} characters"},
        **kwargs)


def VisibilityField(**kwargs: object) -> fields.String:
    return fields.Str(validate=validate.OneOf(VISIBILITIES), metadata={
        "example": "private", "description": "private: the owner alone reads it; public: anyone with its id"},
        **kwargs)  # type: ignore[arg-type]


class PlaylistNewSchema(Schema):
    title = Title(required=True)
    description = Description(load_default="")
    visibility = VisibilityField(load_default=Visibility.PRIVATE.value)


class PlaylistChangeSchema(Schema):
    """POST /playlists/{id}'s body: none of these fields (no body, or {}) reads the playlist; any of them changes
    it (its owner only) and answers it as changed."""

    title = Title()
    description = Description()
    visibility = VisibilityField()


class PlaylistSchema(Schema):
    """A playlist as one caller is shown it (the rules' ``Shown``: the row, its count, whether the caller owns it)."""

    id = fields.Int(attribute="playlist.id", required=True, metadata={"example": 1})
    title = fields.Str(attribute="playlist.title", required=True, metadata={"example": "Смотреть на выходных"})
    description = fields.Str(attribute="playlist.description", required=True, metadata={"example": ""})
    visibility = fields.Str(attribute="playlist.visibility", required=True, validate=validate.OneOf(VISIBILITIES),
                            metadata={"description": "an editors' playlist: public once published",
                                      "example": "private"})
    editorial = fields.Bool(attribute="playlist.editorial", required=True, metadata={
        "description": "an editors' playlist (it has a slug, and is changed in the admin)", "example": False})
    slug = fields.Str(attribute="playlist.slug", required=True, allow_none=True, metadata={
        "description": "an editors' playlist's address (POST /playlists/by-slug/{slug}); none for a viewer's",
        "example": None})
    own = fields.Bool(required=True, metadata={"description": "the caller's own playlist", "example": True})
    contentsCount = fields.Int(attribute="contents_count", required=True, metadata={
        "description": "its published contents (what its contents' pages list)", "example": 3})
    createdAt = fields.DateTime(attribute="playlist.created_at", required=True,
                                metadata={"example": "2026-11-22T10:00:00+00:00"})
    updatedAt = fields.DateTime(attribute="playlist.updated_at", required=True, metadata={
        "description": "its last change: a field, or a content added or removed",
        "example": "2026-11-22T10:00:00+00:00"})


class MembershipBodySchema(Schema):
    remove = Flag(load_default=False, metadata={
        "description": "true: take the content out of the playlist; false or left out: add it", "example": False})


class MembershipSchema(Schema):
    playlistId = fields.Int(attribute="playlist_id", required=True, metadata={"example": 1})
    contentId = fields.Int(attribute="content_id", required=True, metadata={"example": 2})
    inPlaylist = fields.Bool(attribute="in_playlist", required=True, metadata={"description": "after this call",
                                                                                "example": True})
    changed = fields.Bool(required=True, metadata={
        "description": "whether this call changed it (false: it was already so)", "example": True})


class PlaylistPageBodySchema(Schema):
    """A page of a list of playlists, or of a playlist's contents (v1): the page and its size, none required."""

    IN_QUERY: ClassVar[bool] = False

    page = Whole(validate=validate.Range(min=1, max=MAX_PAGE), metadata={"description": "from 1 (default)",
                                                                         "example": 1})
    pageSize = Whole(attribute="page_size", validate=validate.Range(min=1, max=MAX_PAGE_SIZE), metadata={
        "description": f"items per page, at most {MAX_PAGE_SIZE} (default {DEFAULT_PAGE_SIZE})", "example": 20})


class PlaylistPageQuerySchema(PlaylistPageBodySchema):
    IN_QUERY = True


class PlaylistContentsBodySchema(CategoryContentsBodySchema):
    """v2: the catalogue's filters and sorts over the playlist's contents; position is the playlist's order."""


class PlaylistContentsQuerySchema(PlaylistContentsBodySchema):
    IN_QUERY = True
