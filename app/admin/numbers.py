"""Every number an editor types in the admin, one rule (issue 31, defect 2): read on the server as typed, never by the
browser (a `type=number` input drops what it cannot read: "2О24" with a Cyrillic О arrived as 224, "7,5" as 75), in
Russian, with its range, and the form keeps what was typed when it is refused.

Whole numbers are ASCII digits (Python's int() would take "٢٠٢٤" and "2_024"); a decimal takes a comma or a point
("7,5" and "7.5" are 7.5). Each column's range is in ``RANGES`` (a year 1888 to next year, a rating 0 to 10, an order
or a duration from 1, a position from 0); a column not named there is 0 to 2³¹−1, what every database's integer
holds. ``EditorConverter`` (every model view's form converter, app/admin/base.py, and so every inline form's) gives
each Integer and Numeric column these fields."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from flask_admin.contrib.sqla.fields import QuerySelectField
from flask_admin.contrib.sqla.form import AdminModelConverter
from flask_admin.model.form import converts
from wtforms import Field, Form, ValidationError
from wtforms.fields import DecimalField, IntegerField
from wtforms.widgets import TextInput

from app.admin.moments import MoscowDateTimeField
from app.clock import now
from app.models.ids import MAX_ID

FIRST_FILM_YEAR = 1888  # Roundhay Garden Scene
WHOLE = re.compile(r"-?[0-9]+")
DECIMAL = re.compile(r"-?[0-9]+(?:[.,][0-9]+)?")
NOT_WHOLE = "«{typed}» не целое число: введите цифрами, например {example}."
NOT_DECIMAL = "«{typed}» не число: введите цифрами, дробную часть через запятую, например 7,5."
TOO_PRECISE = "Не больше {places} знака после запятой."


def _next_year() -> int:
    return now().year + 1


# (table, column): (lowest, highest, example); highest may be a function (read at each check)
Bound = int | Callable[[], int]
RANGES: dict[tuple[str, str], tuple[Bound, Bound, str]] = {
    ("contents", "year"): (FIRST_FILM_YEAR, _next_year, "2024"),
    ("contents", "kinopoisk_rating"): (0, 10, "7,5"),
    ("contents", "imdb_rating"): (0, 10, "7,5"),
    ("contents", "kinopoisk_id"): (1, MAX_ID, "301"),
    ("seasons", "order"): (1, 10_000, "1"),
    ("episodes", "order"): (1, 100_000, "1"),
    ("episodes", "duration"): (1, 7 * 24 * 3600, "5400"),
    ("ad_creatives", "duration"): (1, 24 * 3600, "15"),
    ("ad_placements", "wrapper_depth"): (0, 5, "0"),
    ("ad_media_files", "width"): (1, 100_000, "1280"),
    ("ad_media_files", "height"): (1, 100_000, "720"),
    ("ad_media_files", "bitrate"): (1, 10_000_000, "2000"),
}
DEFAULT_RANGE: tuple[Bound, Bound, str] = (0, MAX_ID, "10")


def _bound(value: Bound) -> int:
    return value() if callable(value) else value


class InRange:
    """A field's validator: its number between ``lowest`` and ``highest`` (each a number or read at each check)."""

    def __init__(self, lowest: Bound, highest: Bound) -> None:
        self.lowest, self.highest = lowest, highest

    def __call__(self, _form: Form, field: Field) -> None:
        if field.data is None:
            return
        lowest, highest = _bound(self.lowest), _bound(self.highest)
        if not lowest <= field.data <= highest:
            raise ValidationError(f"Допустимо от {_shown(lowest)} до {_shown(highest)}.")


def _shown(number: int) -> str:
    """As Russian writes a number: groups of three digits apart (a no-break space), from 10 000."""
    return f"{number:,}".replace(",", "\u00a0") if abs(number) >= 10_000 else str(number)


def _typed(valuelist: list[Any]) -> str | None:
    """What the field received, spaces around it dropped; None when nothing."""
    if not valuelist or valuelist[0] is None:
        return None
    text = str(valuelist[0]).strip()
    return text or None


class WholeNumberField(IntegerField):
    """A whole number typed in a text input (numeric keyboard on a phone), ASCII digits only."""

    widget = TextInput()

    def __init__(self, *args: Any, example: str = "10", **kwargs: Any) -> None:
        render_kw = {"inputmode": "numeric", "autocomplete": "off", **(kwargs.pop("render_kw", None) or {})}
        super().__init__(*args, render_kw=render_kw, **kwargs)
        self.example = example
        self.type = "StringField"  # edited in a list (Flask-Admin's x-editable) as text too, read here all the same

    def process_formdata(self, valuelist: list[Any]) -> None:
        typed = _typed(valuelist)
        if typed is None:
            self.data = None
            return
        if not WHOLE.fullmatch(typed) or len(typed) > 12:
            self.data = None
            raise ValueError(NOT_WHOLE.format(typed=typed[:40], example=self.example))
        self.data = int(typed)


class DecimalNumberField(DecimalField):
    """A decimal number typed with a comma or a point, at most ``places`` digits after it."""

    widget = TextInput()

    def __init__(self, *args: Any, places: int = 1, **kwargs: Any) -> None:
        render_kw = {"inputmode": "decimal", "autocomplete": "off", **(kwargs.pop("render_kw", None) or {})}
        super().__init__(*args, places=places, render_kw=render_kw, **kwargs)
        self.type = "StringField"  # as above

    def process_formdata(self, valuelist: list[Any]) -> None:
        typed = _typed(valuelist)
        if typed is None:
            self.data = None
            return
        if not DECIMAL.fullmatch(typed) or len(typed) > 20:
            self.data = None
            raise ValueError(NOT_DECIMAL.format(typed=typed[:40]))
        try:
            number = Decimal(typed.replace(",", "."))
        except InvalidOperation:  # pragma: no cover - the pattern admits only what Decimal reads
            self.data = None
            raise ValueError(NOT_DECIMAL.format(typed=typed[:40])) from None
        if self.places is not None and -number.as_tuple().exponent > self.places:  # type: ignore[operator]
            self.data = None
            raise ValueError(TOO_PRECISE.format(places=self.places))
        self.data = number

    def _value(self) -> str:
        if self.raw_data:
            return str(self.raw_data[0])
        if self.data is None:
            return ""
        return f"{Decimal(str(self.data)):f}".replace(".", ",")  # as Russians write it: 7,5


def _range(column: Any) -> tuple[Bound, Bound, str]:
    return RANGES.get((column.table.name, column.name), DEFAULT_RANGE)


NOTHING_CHOSEN = "— не выбрано —"


class EditorConverter(AdminModelConverter):
    """Flask-Admin's converter, but every Integer and Numeric column gets the fields above with its range, every time
    is typed in Moscow time (app/admin/moments.py), and a related row's choice that may stay empty says so in Russian
    (wtforms shows the empty choice's value, "__None")."""

    @converts("app.models.moments.Moment")
    def handle_moment(self, field_args: Any, **extra: Any) -> MoscowDateTimeField:
        return MoscowDateTimeField(**field_args)

    def _convert_relation(self, name: Any, prop: Any, property_is_association_proxy: Any, kwargs: Any) -> Any:
        field = super()._convert_relation(name, prop, property_is_association_proxy, kwargs)
        if getattr(field, "field_class", None) is QuerySelectField and field.kwargs.get("allow_blank"):
            field.kwargs.setdefault("blank_text", NOTHING_CHOSEN)
        return field

    @converts("Integer")
    def handle_integer_types(self, column: Any, field_args: Any, **extra: Any) -> WholeNumberField:
        lowest, highest, example = _range(column)
        field_args["validators"] = [*field_args.get("validators", []), InRange(lowest, highest)]
        return WholeNumberField(example=example, **field_args)

    @converts("Numeric")
    def handle_decimal_types(self, column: Any, field_args: Any, **extra: Any) -> DecimalNumberField:
        lowest, highest, _example = _range(column)
        field_args["validators"] = [*field_args.get("validators", []), InRange(lowest, highest)]
        field_args.pop("places", None)
        return DecimalNumberField(places=getattr(column.type, "scale", None) or 1, **field_args)
