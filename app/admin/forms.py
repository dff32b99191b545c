"""What every form of the admin shares: Flask-Admin's SecureForm (its CSRF token), no control character in anything a
field receives, and the one rule for the addresses editors type.

``EditorForm`` is the base of every model view's form (app/admin/base.py ``form_base_class``; their inline forms,
seasons, episodes, rules, files, are nested in it and checked with it) and of the sign-in (app/admin/access.py). A
field that received a control character (Unicode's Cc: NUL, which PostgreSQL cannot store, and the rest; tab, newline
and carriage return are text in a multi-line field) is refused on that field, in Russian, before any of its own
validators runs (a taken slug's check would query the database with it) and before anything is saved; the other
fields are checked as usual, and the form comes back as typed. This file imports nothing else of the admin, so that
access.py and base.py may both build on it."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from datetime import timedelta
from typing import Any

from flask_admin.form import SecureForm
from wtforms import Field, FieldList, Form, FormField, ValidationError
from wtforms.widgets import TextArea

from app.services.editorial.addresses import address_problem

CONTROL_REFUSED = "Уберите служебный (управляющий) символ: такой текст не сохранить."
MULTI_LINE = frozenset("\t\n\r")
FORM_LIFETIME = timedelta(minutes=30)


def _leaves(fields: Iterable[Field]) -> Iterator[Field]:
    """Every field of a form, those of its nested forms and lists (inline forms) included."""
    for field in fields:
        if isinstance(field, FormField):
            yield from _leaves(field.form)
        elif isinstance(field, FieldList):
            yield from _leaves(field.entries)
        else:
            yield field


def has_control_character(text: str, multi_line: bool = False) -> bool:
    return any(unicodedata.category(character) == "Cc" and not (multi_line and character in MULTI_LINE)
               for character in text)


def _received_control_character(field: Field) -> bool:
    multi_line = isinstance(field.widget, TextArea)
    return any(isinstance(value, str) and has_control_character(value, multi_line)
               for value in getattr(field, "raw_data", None) or ())


def _refuse(field: Field) -> None:
    """The field fails its validation with CONTROL_REFUSED, none of its validators run."""
    def validate(_form: Form, _extra_validators: Any = ()) -> bool:
        field.errors = [CONTROL_REFUSED]
        return False

    field.validate = validate


class EditorForm(SecureForm):
    class Meta:
        csrf_time_limit = FORM_LIFETIME  # wtforms' default, said here: a form open longer is refused (base.py says why)

    def validate(self, extra_validators: Any = None) -> bool:
        for field in _leaves(self):
            if _received_control_character(field):
                _refuse(field)
        return bool(super().validate(extra_validators))


class Address:
    """A field's validator: an http(s) address (``web``), or a path of this site (``site_path``), by the one rule of
    app/services/editorial/addresses.py. Spaces around it are dropped; an empty field is left to the field's own
    required check."""

    def __init__(self, *, web: bool = True, site_path: bool = False) -> None:
        self.web = web
        self.site_path = site_path

    def __call__(self, _form: Form, field: Field) -> None:
        if isinstance(field.data, str):
            field.data = field.data.strip()
        if not field.data:
            return
        problem = address_problem(field.data, web=self.web, site_path=self.site_path)
        if problem:
            raise ValidationError(problem[0].upper() + problem[1:] + ".")
