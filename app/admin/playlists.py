"""The editors' playlists in the admin (POST /playlists/by-slug/{slug} shows them): a title, a slug, a description,
the contents in their order, and the published flag. Viewers' own playlists are theirs: this view neither lists nor
opens them. Every change is in the audit trail (app/admin/audit.py), as every admin change is."""

from __future__ import annotations

from typing import Any

from flask_admin.model.form import InlineFormAdmin
from wtforms import ValidationError

from app.admin.base import EditorModelView
from app.admin.labels import FIELDS
from app.models import Content, Playlist, PlaylistItem, Visibility
from app.models.slugs import is_slug


class PlaylistItemInline(InlineFormAdmin):
    form_columns = ("id", "content", "position")
    form_label = "Фильм или сериал"
    column_labels = FIELDS
    form_args = {"position": {"description": "Меньше — выше в подборке."}}
    form_ajax_refs = {"content": {"fields": (Content.title,), "page_size": 20, "placeholder": "Название"}}


class EditorialPlaylistView(EditorModelView):
    column_list = ("title", "slug", "published", "updated_at")
    column_searchable_list = ("title", "slug")
    column_filters = ("published",)
    column_sortable_list = ("title", "slug", "published", "updated_at")
    column_default_sort = ("updated_at", True)
    form_columns = ("title", "slug", "description", "published", "items")
    form_args = {"slug": {"description": "Латиница, цифры и дефисы: адрес подборки на сайте."},
                 "published": {"description": "Снятую с публикации подборку видят только редакторы."}}
    form_widget_args = {"description": {"rows": 4}}
    column_labels = {"items": "Фильмы и сериалы"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.inline_models = (PlaylistItemInline(PlaylistItem),)
        super().__init__(*args, **kwargs)

    def get_query(self) -> Any:
        return super().get_query().filter(Playlist.account_id.is_(None))

    def get_count_query(self) -> Any:
        return super().get_count_query().filter(Playlist.account_id.is_(None))

    def get_one(self, id: Any) -> Any:
        playlist = super().get_one(id)
        return playlist if playlist is not None and playlist.account_id is None else None

    def on_model_change(self, form: Any, model: Playlist, is_created: bool) -> None:
        model.account_id = None
        model.slug = (model.slug or "").strip()
        if not is_slug(model.slug) or not model.slug:
            raise ValidationError("Адрес (slug): латиница в нижнем регистре, цифры и дефисы, например "
                                  "luchshie-serialy.")
        model.title = (model.title or "").strip()
        if not model.title:
            raise ValidationError("Укажите название подборки.")
        model.description = (model.description or "").strip()
        model.visibility = Visibility.PUBLIC if model.published else Visibility.PRIVATE
        seen: set[int] = set()
        for number, item in enumerate(model.items, start=1):
            if item.content_id is None and item.content is None:
                raise ValidationError("Выберите фильм или сериал в каждой строке подборки.")
            content_id = item.content.id if item.content is not None else item.content_id
            if content_id in seen:
                raise ValidationError(f"«{item.content}» в подборке дважды.")
            seen.add(content_id)
            if item.position is None:
                item.position = number
