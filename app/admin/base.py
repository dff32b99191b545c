"""What every model view of the admin shares: editors only, CSRF-protected forms that refuse control characters on
their field (app/admin/forms.py), Russian field names, a link to each row's history, and errors said plainly (a taken
value names its field; a database failure says so and keeps what the editor typed, never the SQL).

``ListGuards`` (every model view's, the audit trail's too) keeps what no page sends from the database: a page number
out of range shows the first or the last page, a filter value its filter cannot read is not applied (a message says
so), and an id that cannot name a row (not a 32-bit number: PostgreSQL refuses it) finds nothing, in the edit and
details pages, the delete, the bulk actions and the lookups of a form's related rows.

It also names each filter in the URL by what it filters (``filter_url_name``), not by its label: Flask-Admin's
``named_filter_urls`` keeps only a-z, 0-9 and spaces of the label, so every Russian label came out empty, the filters
went by their operation's name alone ("_equals"), and the last of them took the place of the others (issue 31)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from flask import current_app, flash, g, redirect, request, session, url_for
from flask_admin import expose
from flask_admin.babel import gettext
from flask_admin.contrib.sqla import ModelView
from flask_admin.helpers import get_redirect_target
from flask_admin.model import typefmt
from flask_admin.model.template import LinkRowAction
from markupsafe import Markup
from sqlalchemy import Integer, inspect
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from wtforms.csrf.session import SessionCSRF

from app.admin.access import Guarded
from app.admin.forms import FORM_LIFETIME, EditorForm, has_control_character
from app.admin.labels import FIELDS, TABLES
from app.admin.moments import SHOWN_ZONE as SHOWN_ZONE  # where others read it (publishing.py)
from app.admin.moments import shown
from app.admin.numbers import EditorConverter
from app.models.ids import storable_id

log = logging.getLogger(__name__)
TAKEN = re.compile(r"(?:UNIQUE constraint failed: [\w.]+?\.(\w+)|unique constraint \"uq_\w+?_(\w+)\")")
SAVE_FAILED = "Не удалось сохранить: база данных недоступна. Введённое сохранено в форме, попробуйте ещё раз."
FILTER_IGNORED = "Фильтр «{name}»: значение «{value}» не подходит, он не применён."
NO_SUCH_ROWS = "Среди выбранных есть записи, которых нет: обновите список и выберите снова."
FORM_EXPIRED = ("Форма была открыта дольше {minutes} минут, и её защитный код устарел: ничего не сохранено. Всё "
                "введённое осталось на странице: проверьте и отправьте её ещё раз.")
FORM_UNCHECKED = ("Форма пришла без действующего защитного кода (например, открыта до входа в редакцию): ничего не "
                  "сохранено. Всё введённое осталось на странице: проверьте и отправьте её ещё раз.")
FILES_AGAIN = " Файлы выберите заново: браузер не отправляет их повторно."
FAILED = frozenset({"Failed to create record.", "Failed to save record."})  # Flask-Admin's, said after ours
MAX_PAGE = 100_000  # past every list's last page (5 million rows), and an OFFSET every database takes
_DIGITS = re.compile(r"[0-9]{1,10}")
_NOT_IN_URL = re.compile(r"[^a-z0-9]+")


def moment(_view: Any, value: datetime, _name: str) -> str:
    """A time as editors read it: Moscow's, to the minute."""
    return shown(value)


def yes_no(_view: Any, value: Any, _name: str) -> Markup:
    """A boolean in a list, as a sign with its Russian word for whoever cannot see it (Flask-Admin's title says
    "main_mart: false")."""
    word, sign = ("Да", "fa-check-circle text-success") if value else ("Нет", "fa-minus-circle text-muted")
    return Markup('<span class="fa {}" aria-hidden="true" title="{}"></span><span class="sr-only">{}</span>').format(
        sign, word, word)


def russian_name(view: Any, name: str) -> str:
    """A field's or a table's name as editors call it (a filter on a related table's column reads "Тип / Название",
    never "Content Types / Title")."""
    labels = getattr(view, "column_labels", None) or {}
    return labels.get(name) or FIELDS.get(name) or TABLES.get(name) or name.replace("_", " ").capitalize()


def _expired(token: Any) -> bool:
    """Whether a SessionCSRF token (its time, then "##" and its signature) has run out."""
    stamp = str(token or "").split("##", 1)[0]
    try:
        return datetime.strptime(stamp, SessionCSRF.TIME_FORMAT) < datetime.now()
    except ValueError:
        return False


def history_url(_action: Any, row_id: Any, row: Any) -> str:
    table = inspect(row).mapper.persist_selectable.name
    return url_for("audit.history", object_type=table, object_id=str(row_id))


def fits_integer_key(value: Any) -> bool:
    """Whether ``value`` (from a form or a query) can name a row by a 32-bit integer key."""
    return isinstance(value, str | int) and _DIGITS.fullmatch(str(value)) is not None and storable_id(int(value))


def _guard_loader(loader: Any) -> None:
    """A form's lookup of related rows (Flask-Admin's ajax loader, which reads the id the form sent at once) finds
    nothing for an id that cannot name a row, and pages its search within bounds."""
    get_one: Callable[[Any], Any] = loader.get_one
    get_list: Callable[[str, int, int], Any] = loader.get_list

    def guarded_get_one(pk: Any) -> Any:
        return get_one(pk) if fits_integer_key(pk) else None

    def guarded_get_list(term: str | None, offset: int | None = 0, limit: int | None = 10) -> Any:
        return get_list(term or "", min(max(offset or 0, 0), MAX_PAGE), min(max(limit or 10, 1), 100))

    loader.get_one = guarded_get_one
    loader.get_list = guarded_get_list


class _GuardedLoaders(dict[str, Any]):
    def __init__(self, loaders: dict[str, Any]) -> None:
        super().__init__()
        for name, loader in loaders.items():
            self[name] = loader

    def __setitem__(self, name: str, loader: Any) -> None:
        _guard_loader(loader)
        super().__setitem__(name, loader)


class ListGuards:
    """Mixed into a Flask-Admin ModelView (before it): see the module's docstring."""

    _filters: Any
    _filter_args: Any
    model: Any
    page_size: int

    def _process_ajax_references(self) -> dict[str, Any]:
        """Flask-Admin's, each loader guarded; and so is each an inline form adds as it is made (once for the new
        form, once more for the edit form)."""
        return _GuardedLoaders(super()._process_ajax_references())  # type: ignore[misc]

    def get_filter_arg(self, index: int, flt: Any) -> str:
        """The filter's name in the URL: ``published_equals``, ``genres_title_contains`` (the column, the related
        table's name first, and Flask-Admin's untranslated operation), numbered after the first when two repeat."""
        name = filter_url_name(flt, self.model)
        earlier = [filter_url_name(other, self.model) for other in self._filters[:index]]
        return f"{name}_{index}" if name in earlier else name

    def _get_list_extra_args(self) -> Any:
        args = super()._get_list_extra_args()  # type: ignore[misc]
        args.page = min(max(args.page or 0, 0), MAX_PAGE)
        g.admin_list_args = args  # get_list moves it to the last page when it is past it
        return args

    def get_list(self, page: int, sort_column: Any, sort_desc: Any, search: Any, filters: Any, execute: bool = True,
                 page_size: int | None = None) -> Any:
        read = super().get_list  # type: ignore[misc]
        count, data = read(page, sort_column, sort_desc, search, filters, execute=execute, page_size=page_size)
        size = page_size or self.page_size
        if execute and count and size and page * size >= count:
            page = (count - 1) // size
            if "admin_list_args" in g:
                g.admin_list_args.page = page  # the pager shows the page shown
            count, data = read(page, sort_column, sort_desc, search, filters, execute=execute, page_size=page_size)
        return count, data

    def _get_list_filter_args(self) -> list[Any] | None:
        """Flask-Admin's, but a value its filter cannot read (an unknown choice, a date that is none) is not applied,
        whatever the filter raises, and a message says so."""
        if not self._filters:
            return None
        found = []
        for arg, value in request.args.items():
            if not arg.startswith("flt") or "_" not in arg or value == "":
                continue  # an empty value: a choice left at "all" (the content list's filter bar)
            position, key = arg[3:].split("_", 1)
            if key not in (self._filter_args or {}):
                continue
            index, flt = self._filter_args[key]
            if _filter_reads(flt, value):
                found.append((position, (index, str(flt.name), value)))
            else:
                flash(FILTER_IGNORED.format(name=flt.name, value=value[:60]), "error")
        return [pair for _, pair in sorted(found, key=lambda item: item[0])]

    def get_one(self, id: Any) -> Any:
        if not self._names_a_row(id):
            return None
        return super().get_one(id)  # type: ignore[misc]

    def handle_action(self, return_view: str | None = None) -> Any:
        if not all(self._names_a_row(row_id) for row_id in request.form.getlist("rowid")):
            flash(NO_SUCH_ROWS, "error")
            return redirect(get_redirect_target() or self.get_url(".index_view"))  # type: ignore[attr-defined]
        return super().handle_action(return_view)  # type: ignore[misc]

    def _names_a_row(self, row_id: Any) -> bool:
        keys = inspect(self.model).primary_key
        if len(keys) == 1 and isinstance(keys[0].type, Integer):
            return fits_integer_key(row_id)
        return isinstance(row_id, str) and not has_control_character(row_id)


def filter_url_name(flt: Any, model: Any) -> str:
    """What ``flt`` filters, in ASCII: its own ``url_name`` (the admin's filters have one), or its column's name
    (after its table's when that is not the view's), and the operation's name as Flask-Admin has it in English."""
    name = getattr(flt, "url_name", None)
    if name is None:
        column = getattr(flt, "column", None)
        table = getattr(column, "table", None)
        name = str(getattr(column, "name", None) or getattr(column, "key", None) or "filter")
        if table is not None and table is not inspect(model).local_table:
            name = f"{table.name}_{name}"
    operation = flt.operation()
    operation = getattr(operation, "_args", (operation,))[0]  # a lazy string's original: "equals", not "равно"
    return _NOT_IN_URL.sub("_", f"{name} {operation}".lower()).strip("_")


def _filter_reads(flt: Any, value: str) -> bool:
    try:
        cleaned = flt.clean(value)
    except Exception:  # Flask-Admin's filters raise what they meet (ValueError, KeyError, …)
        return False
    values = cleaned if isinstance(cleaned, list | tuple) else [cleaned]
    return all(not isinstance(item, int) or isinstance(item, bool) or abs(item) <= 2**31 - 1 for item in values)


class EditorModelView(Guarded, ListGuards, ModelView):
    form_base_class = EditorForm
    model_form_converter = EditorConverter  # every number typed read on the server, in range (app/admin/numbers.py)
    page_size = 50
    can_set_page_size = True  # the list's own choice, kept in the address (issue 31)
    page_size_options = (20, 50, 100, 200)
    can_view_details = False
    column_display_pk = False
    named_filter_urls = True
    column_type_formatters = {**typefmt.BASE_FORMATTERS, datetime: moment, bool: yes_no}
    column_extra_row_actions = [LinkRowAction("fa fa-history", history_url,
                                              title="История изменений")]

    # Upload fields and the configuration key of their limit in bytes: the page refuses a larger file before sending it
    # (templates/admin/editorial_base.html reads data-max-bytes); the view checks again with upload_limit().
    file_limits: dict[str, str] = {}

    def get_column_name(self, field: str) -> str:
        return russian_name(self, field)

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

    @expose("/ajax/update/", methods=("POST",))
    def ajax_update(self) -> Any:
        """A value edited in the list (``column_editable_list``): Flask-Admin's, which saves it as the form does
        (``update_model``: the same checks, the audit trail, the caches), but a refusal is a 422 with its reason, not
        Flask-Admin's 500."""
        answer = super().ajax_update()
        if isinstance(answer, tuple) and answer[1] == 500:
            return answer[0], 422
        return answer

    def validate_form(self, form: Any) -> bool:
        """Flask-Admin's, but a form whose CSRF token expired (open over ``csrf_time_limit``) or is missing says so
        plainly (issue 31, defect 6), once, instead of "correct the fields marked in red" with none marked; the form
        comes back with everything typed and a fresh token (wtforms makes one for each form drawn)."""
        valid = bool(super().validate_form(form))
        token = getattr(form, "csrf_token", None)
        if not valid and token is not None and token.errors:
            limit = getattr(form.meta, "csrf_time_limit", FORM_LIFETIME)
            said = FORM_EXPIRED.format(minutes=int(limit.total_seconds() // 60)) if _expired(token.data) \
                else FORM_UNCHECKED
            if (request.endpoint or "").endswith(".ajax_update"):  # a value edited in a list: its answer says it
                token.errors = [said]
                return valid
            token.errors = []  # said above the form, not under a hidden field (nor by a bulk action's message)
            if any(upload.filename for upload in request.files.values()):
                said += FILES_AGAIN
            flash(said, "error")
            g.admin_form_refused = True
        return valid

    def render(self, template: str, **kwargs: Any) -> Any:
        if g.pop("admin_form_refused", False):  # Flask-Admin's "correct the fields" has nothing to point at
            failed = {gettext(message) for message in FAILED}
            session["_flashes"] = [kept for kept in session.get("_flashes", []) if kept[1] not in failed]
        return super().render(template, **kwargs)

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
