"""What every model view of the admin shares: editors only, CSRF-protected forms (SecureForm), Russian field names,
a link to each row's history, and errors said plainly (a taken value names its field; a database failure says so
and keeps what the editor typed, never the SQL)."""

from __future__ import annotations

import logging
import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from flask import current_app, flash, url_for
from flask_admin.contrib.sqla import ModelView
from flask_admin.form import SecureForm
from flask_admin.model import typefmt
from flask_admin.model.template import LinkRowAction
from sqlalchemy import inspect
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from app.admin.access import Guarded
from app.admin.labels import FIELDS

log = logging.getLogger(__name__)
TAKEN = re.compile(r"(?:UNIQUE constraint failed: [\w.]+?\.(\w+)|unique constraint \"uq_\w+?_(\w+)\")")
SHOWN_ZONE = ZoneInfo("Europe/Moscow")
SAVE_FAILED = "Не удалось сохранить: база данных недоступна. Введённое сохранено в форме, попробуйте ещё раз."


def moment(_view: Any, value: datetime, _name: str) -> str:
    """A time as editors read it: Moscow's, to the minute."""
    return value.astimezone(SHOWN_ZONE).strftime("%d.%m.%Y %H:%M")


def history_url(_action: Any, row_id: Any, row: Any) -> str:
    table = inspect(row).mapper.persist_selectable.name
    return url_for("audit.history", object_type=table, object_id=str(row_id))


class EditorModelView(Guarded, ModelView):
    form_base_class = SecureForm
    page_size = 50
    can_set_page_size = False
    can_view_details = False
    column_display_pk = False
    named_filter_urls = True
    column_type_formatters = {**typefmt.BASE_FORMATTERS, datetime: moment}
    column_extra_row_actions = [LinkRowAction("fa fa-history", history_url,
                                              title="История изменений")]

    # Upload fields and the configuration key of their limit in bytes: the page refuses a larger file before sending it
    # (templates/admin/editorial_base.html reads data-max-bytes); the view checks again with upload_limit().
    file_limits: dict[str, str] = {}

    def upload_limit(self, field: str) -> int:
        return int(current_app.config[self.file_limits[field]])

    def shape_form(self, form: Any) -> Any:
        """Every form this view draws or reads, new or edited, first shown or sent back refused."""
        for field in self.file_limits:
            form[field].render_kw = {**(form[field].render_kw or {}), "data-max-bytes": self.upload_limit(field)}
        return form

    def create_form(self, obj: Any = None) -> Any:
        return self.shape_form(super().create_form(obj))

    def edit_form(self, obj: Any = None) -> Any:
        return self.shape_form(super().edit_form(obj))

    def __init__(self, model: Any, session: Any, **kwargs: Any) -> None:
        labels = {name: label for name, label in FIELDS.items() if hasattr(model, name)}
        own: dict[str, str] = getattr(self, "column_labels", None) or {}
        self.column_labels = {**labels, **own}
        super().__init__(model, session, **kwargs)

    def handle_view_exception(self, exc: Exception) -> bool:
        if isinstance(exc, IntegrityError):
            found = TAKEN.search(str(exc.orig))
            field = next((name for name in (found.groups() if found else ()) if name), None)
            label = FIELDS.get(field or "", field)
            flash(f"Значение поля «{label}» уже занято: выберите другое." if label else
                  "Запись противоречит другим записям (повтор или ссылка на удалённое): проверьте поля.", "error")
            return True
        if isinstance(exc, SQLAlchemyError):
            log.warning("the admin could not save: %s", type(exc).__name__)
            flash(SAVE_FAILED, "error")
            return True
        return super().handle_view_exception(exc)
