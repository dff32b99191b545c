"""Time in the admin is Moscow's (issue 31): what a list, the trail or a form shows, and what an editor types into a
form, is Moscow time; what is stored is UTC (app/models/moments.py). One zone for every editor: the product's
audience and its editors are in Russia."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from flask_admin.contrib.sqla.filters import DateTimeBetweenFilter
from flask_admin.form import DateTimeField

SHOWN_ZONE = ZoneInfo("Europe/Moscow")
SHOWN = "%d.%m.%Y %H:%M"
TYPED = "%Y-%m-%d %H:%M:%S"  # Flask-Admin's date picker's


def shown(value: datetime | str | None) -> str:
    """A time as editors read it, Moscow's to the minute (an ISO 8601 text, as the trail keeps times, too)."""
    if value is None or value == "":
        return "—"
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return as_moscow(moment).strftime(SHOWN)


def as_moscow(moment: datetime) -> datetime:
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(SHOWN_ZONE)


class MoscowDateTimeField(DateTimeField):
    """Flask-Admin's date and time field, shown and typed in Moscow time, kept aware (UTC in the database)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("description", "Время московское.")
        super().__init__(*args, **kwargs)
        self.type = "DateTimeField"  # what Flask-Admin's widgets know it as

    def _value(self) -> str:
        if self.raw_data:
            return " ".join(self.raw_data)
        return as_moscow(self.data).strftime(TYPED) if isinstance(self.data, datetime) else ""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or not " ".join(valuelist).strip():
            self.data = None
            return
        try:
            typed = datetime.strptime(" ".join(valuelist).strip(), TYPED)
        except ValueError:
            self.data = None
            raise ValueError("Время: ГГГГ-ММ-ДД ЧЧ:ММ:СС, московское (например, 2026-12-31 18:00:00).") from None
        self.data = typed.replace(tzinfo=SHOWN_ZONE)


class MoscowBetweenFilter(DateTimeBetweenFilter):
    """Flask-Admin's "between" filter on a time, its two ends typed in Moscow time."""

    def clean(self, value: str) -> list[datetime]:
        return [moment.replace(tzinfo=SHOWN_ZONE) for moment in super().clean(value)]
