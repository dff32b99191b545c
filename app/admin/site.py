"""The site around the player in the admin: promo slides, the menu, redirects. Their addresses follow the one rule
(app/admin/forms.py ``Address``): an http(s) address or a path of this site, a redirect's old address a path only."""

from __future__ import annotations

from typing import Any

from wtforms import ValidationError

from app.admin.base import EditorModelView
from app.admin.forms import Address
from app.models import Content


class PromoSlideView(EditorModelView):
    column_list = ("content", "title", "position", "active_from", "active_until")
    column_sortable_list = ("position", "active_from", "active_until")
    column_default_sort = "position"
    form_columns = ("content", "title", "image_url", "position", "active_from", "active_until")
    form_ajax_refs = {"content": {"fields": (Content.title,), "page_size": 20, "placeholder": "Название"}}
    form_args = {"title": {"description": "Пусто: название фильма или сериала."},
                 "image_url": {"validators": [Address(site_path=True)]}}

    def on_model_change(self, form: Any, model: Any, is_created: bool) -> None:
        if model.active_from and model.active_until and model.active_from > model.active_until:
            raise ValidationError("«Показывать с» позже, чем «Показывать до».")


class MenuItemView(EditorModelView):
    column_list = ("title", "url", "parent", "position")
    column_searchable_list = ("title", "url")
    column_default_sort = "position"
    form_columns = ("parent", "title", "url", "position")
    form_args = {"url": {"description": "Путь сайта (/films) или адрес http(s)://…",
                         "validators": [Address(site_path=True)]}}


class RedirectView(EditorModelView):
    column_list = ("from_path", "to_path", "status")
    column_searchable_list = ("from_path", "to_path")
    form_columns = ("from_path", "to_path", "status")
    form_choices = {"status": [("301", "301: навсегда"), ("302", "302: временно"), ("307", "307: временно"),
                               ("308", "308: навсегда")]}
    form_args = {"status": {"coerce": int}, "from_path": {"validators": [Address(web=False, site_path=True)]},
                 "to_path": {"description": "Путь сайта (/films/x) или адрес http(s)://…",
                             "validators": [Address(site_path=True)]}}
