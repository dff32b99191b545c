"""A content's other names on its page in the admin (app/admin/catalogue.py ``ContentView``): an inline list of
title, language, kind and order, checked by app/services/catalogue/titles.py, each field's problem under the field
and the list's (a repeat, the content's own title) above the form."""

from __future__ import annotations

from typing import Any

from flask_admin.model.form import InlineFormAdmin
from sqlalchemy import inspect
from wtforms import ValidationError
from wtforms.fields import SelectField
from wtforms.validators import Optional, StopValidation

from app.admin.labels import FIELDS
from app.extensions import db
from app.models import AlternativeTitle, Content, TitleKind
from app.services.catalogue.titles import (
    cleaned_language,
    cleaned_title,
    language_problem,
    title_problem,
    titles_problem,
)

TITLE_KINDS = [(TitleKind.INTERNATIONAL.value, "Международное"), (TitleKind.ORIGINAL.value, "Оригинальное"),
               (TitleKind.FORMER.value, "Прежнее"), (TitleKind.MISSPELLING.value, "Частая ошибка"),
               (TitleKind.OTHER.value, "Другое")]
TITLE_FIELDS = {**FIELDS, "title": "Название", "language": "Язык (код: en, ko, fr)", "kind": "Какое это название",
                "position": "Порядок"}


def _field_rule(problem: Any) -> Any:
    """A field's validator from one of the service's checks: its message alone (the column's own checks, said
    otherwise, are not run after it)."""
    def validate(_form: Any, field: Any) -> None:
        said = problem(field.data)
        if said:
            raise StopValidation(said)
    return validate


class AlternativeTitleInline(InlineFormAdmin):
    """One other name: «Parasite», English, international."""

    form_columns = ("id", "title", "language", "kind", "position")
    form_label = "Другое название"
    column_labels = TITLE_FIELDS
    form_overrides = {"kind": SelectField}
    form_args = {
        "title": {"filters": [cleaned_title], "validators": [_field_rule(title_problem)]},
        "language": {"filters": [cleaned_language], "validators": [Optional(), _field_rule(language_problem)],
                     "description": "Пусто, если язык не важен."},
        "kind": {"choices": TITLE_KINDS, "description": "«Частая ошибка» только ищется, на странице не показывается."},
        "position": {"validators": [Optional()], "description": "Меньше: выше в списке «Также известен как»."},
    }

    def on_model_change(self, form: Any, model: AlternativeTitle, is_created: bool) -> None:
        model.kind = TitleKind(model.kind)


def check_alternative_titles(content: Content) -> None:
    """The content's alternative titles as the form leaves them (those deleted now aside): no repeat, not its own
    title; one without an order takes its place in the list; then those renamed or deleted are moved aside."""
    kept = [title for title in content.alternative_titles if title not in db.session.deleted]
    problem = titles_problem(content.title, [title.title for title in kept])
    if problem:
        raise ValidationError(problem)
    for place, title in enumerate(kept):
        if title.position is None:
            title.position = place
    _park_renamed(content)


def _park_renamed(content: Content) -> None:
    """The titles renamed or deleted now first take a title no editor can type (a control character and their id),
    by plain UPDATEs the ORM does not see, so that the save's statements, one row at a time, never meet a title
    another row still holds (two swapped, one removed and typed again): the database checks (content, title) per row.
    The trail records each change once, from the old title to the new (as ``park_renumbered`` does for numbers)."""
    with db.session.no_autoflush:
        moved = {row.id for row in content.alternative_titles if row.id is not None and inspect(row).persistent
                 and inspect(row).attrs.title.history.has_changes()}
        moved |= {row.id for row in db.session.deleted if isinstance(row, AlternativeTitle) and row.id is not None}
        table = AlternativeTitle.__table__
        for row_id in sorted(moved):
            db.session.connection().execute(table.update().where(table.c.id == row_id).values(title=f"\x01{row_id}"))
