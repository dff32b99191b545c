"""The site around the player in the admin: promo slides, the menu, redirects. Their addresses follow the one rule
(app/admin/forms.py ``Address``): an http(s) address or a path of this site, a redirect's old address a path only."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from wtforms import ValidationError

from app.admin.base import EditorModelView, moment
from app.admin.forms import Address
from app.admin.ordering import OrderedViews, OrderGroup, OrderRow, renumber
from app.extensions import db
from app.models import Content, MenuItem, PromoSlide


class PromoSlideView(OrderedViews, EditorModelView):
    column_list = ("content", "title", "position", "active_from", "active_until")
    column_sortable_list = ("position", "active_from", "active_until")
    column_default_sort = "position"
    form_columns = ("content", "title", "image_url", "position", "active_from", "active_until")
    form_ajax_refs = {"content": {"fields": (Content.title,), "page_size": 20, "placeholder": "Название"}}
    form_args = {"title": {"description": "Пусто: название фильма или сериала."},
                 "image_url": {"validators": [Address(site_path=True)]}}
    form_widget_args = {"image_url": {"data-picture-kind": "backdrops"}}

    def on_model_change(self, form: Any, model: Any, is_created: bool) -> None:
        if model.active_from and model.active_until and model.active_from > model.active_until:
            raise ValidationError("«Показывать с» позже, чем «Показывать до».")

    order_heading = "Порядок промо-слайдов"
    list_template = "admin/ordered_list.html"

    def order_rows(self, group: str) -> list[OrderRow]:
        return [OrderRow(slide.id, slide.title or slide.content.title, _slide_note(slide)) for slide in self._slides()]

    def keep_order(self, group: str, ids: list[int]) -> None:
        renumber(self._slides(), ids)

    def _slides(self) -> list[PromoSlide]:
        return list(db.session.scalars(select(PromoSlide).order_by(PromoSlide.position, PromoSlide.id)))


def _slide_note(slide: PromoSlide) -> str:
    ends = [f"с {moment(None, slide.active_from, '')}" if slide.active_from else "",
            f"до {moment(None, slide.active_until, '')}" if slide.active_until else ""]
    return " ".join(end for end in ends if end)


class MenuItemView(OrderedViews, EditorModelView):
    """Menu entries; each may say the list it opens (GET /menu's ``list``): a type's titles, or a category's."""

    column_list = ("title", "url", "content_type", "category", "parent", "position")
    column_labels = {"content_type": "Список: тип", "category": "Список: категория"}
    column_searchable_list = ("title", "url")
    column_default_sort = "position"
    form_columns = ("parent", "title", "url", "content_type", "category", "position")
    form_args = {"url": {"description": "Путь сайта (/films) или адрес http(s)://…",
                         "validators": [Address(site_path=True)]},
                 "content_type": {"label": "Список: тип", "description": "Какой список открывает пункт: все фильмы "
                                  "или сериалы этого типа. Пусто: пункт не открывает список."},
                 "category": {"label": "Список: категория",
                              "description": "Или список этой категории (тип — её собственный)."}}

    def on_model_change(self, form: Any, model: Any, is_created: bool) -> None:
        if model.category is not None:
            if model.content_type is not None and model.content_type.id != model.category.content_type_id:
                raise ValidationError(f"Категория «{model.category.title}» не из типа «{model.content_type.title}».")
            model.content_type = model.category.content_type
    order_heading = "Порядок меню"
    list_template = "admin/ordered_list.html"

    def order_groups(self) -> list[OrderGroup]:
        """The menu's top level, and the level under each item that has one."""
        parents = db.session.scalars(select(MenuItem).where(MenuItem.children.any()).order_by(MenuItem.position,
                                                                                              MenuItem.id))
        return [OrderGroup("", "Меню: верхний уровень"),
                *(OrderGroup(str(parent.id), f"Меню: под «{parent.title}»") for parent in parents)]

    def order_rows(self, group: str) -> list[OrderRow]:
        return [OrderRow(item.id, item.title, item.url) for item in self._level(group)]

    def keep_order(self, group: str, ids: list[int]) -> None:
        renumber(self._level(group), ids)

    def _level(self, group: str) -> list[MenuItem]:
        parent = MenuItem.parent_id.is_(None) if not group else MenuItem.parent_id == int(group)
        return list(db.session.scalars(select(MenuItem).where(parent).order_by(MenuItem.position, MenuItem.id)))


class RedirectView(EditorModelView):
    column_list = ("from_path", "to_path", "status")
    column_searchable_list = ("from_path", "to_path")
    form_columns = ("from_path", "to_path", "status")
    form_choices = {"status": [("301", "301: навсегда"), ("302", "302: временно"), ("307", "307: временно"),
                               ("308", "308: навсегда")]}
    form_args = {"status": {"coerce": int}, "from_path": {"validators": [Address(web=False, site_path=True)]},
                 "to_path": {"description": "Путь сайта (/films/x) или адрес http(s)://…",
                             "validators": [Address(site_path=True)]}}
