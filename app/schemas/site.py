"""The site's calls (spec §7): the menu tree, redirect information and the promo slider."""

from __future__ import annotations

from typing import ClassVar

from marshmallow import Schema, fields, validate

from app.models.site import MAX_PATH
from app.schemas.cards import ContentCardSchema
from app.schemas.common import Text
from app.schemas.lists import available_here


class MenuListSchema(Schema):
    """The list a menu entry opens: a content type's titles, or a category's of that type."""

    type = fields.Str(required=True, metadata={"example": "film", "description": "the content type's slug"})
    category = fields.Str(required=True, allow_none=True, metadata={
        "example": "drama-films", "description": "the category's slug within the type: its list is "
        "/types/{type}/categories/{category}/contents; null: every title of the type, /contents?type={type}"})


class MenuItemSchema(Schema):
    title = fields.Str(required=True, metadata={"example": "Фильмы"})
    url = fields.Str(required=True, metadata={"example": "/films", "description": "a path of the site or a URL"})
    list = fields.Nested(MenuListSchema, required=True, allow_none=True, metadata={
        "description": "the list the entry opens; null when it opens none (a page of the site, another site)",
        "example": {"type": "film", "category": None}})
    children = fields.List(fields.Nested(lambda: MenuItemSchema()), required=True, metadata={
        "description": "the entries under this one, in order",
        "example": [{"title": "Новинки", "url": "/films/new", "list": {"type": "film", "category": "new"},
                     "children": []},
                    {"title": "Драмы", "url": "/films/drama-films",
                     "list": {"type": "film", "category": "drama-films"}, "children": []}]})


class RedirectQuerySchema(Schema):
    path = Text(required=True, validate=[validate.Length(min=1, max=MAX_PATH), validate.Regexp(r"^/")], metadata={
        "description": "a path of the site, with its query if it has one", "example": "/film/1-dolgaya-doroga?s=1",
        "pattern": r"^/[^\u0000-\u001f\u007f]*$"})


class RedirectInfoSchema(Schema):
    path = fields.Str(required=True, metadata={"example": "/film/1-dolgaya-doroga?s=1", "description": "as asked"})
    location = fields.Str(required=True, allow_none=True, metadata={
        "example": "/films/dolgaya-doroga-domoy?s=1",
        "description": "where it lives now, the asked query kept; null when it has not moved"})
    status = fields.Int(required=True, allow_none=True, metadata={
        "example": 301, "description": "the redirect's HTTP status (301, 302, 307 or 308); null when it has not moved"})


class PromoQuerySchema(Schema):
    IN_QUERY: ClassVar[bool] = True

    availableHere = available_here()


class PromoSlideSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 1})
    title = fields.Str(required=True, metadata={"example": "Новый сезон «Тихой гавани»",
                                                "description": "the slide's title, else its content's"})
    imageUrl = fields.Str(attribute="image_url", required=True, metadata={"example": "/media/posters/series-s1e1.jpg"})
    content = fields.Nested(ContentCardSchema, required=True)
