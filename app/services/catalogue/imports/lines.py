"""The import file's lines (docs/import.md): read from JSON Lines or CSV, each checked with marshmallow against the
format's shape (types, lengths, ranges, the upsert key), its errors named by field in the file's terms
(``seasons[1].episodes[3].media``: positions in the lists from 1), in Russian.

The schema lives here, beside the rule that uses it, not in app/schemas/: those are the API's, which no service may
import (tests/unit/test_layers.py), and this one describes a file the service reads, not a request."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, pre_load, validate, validates_schema

from app.models.ids import MAX_ID

AGE_RATINGS = (0, 6, 12, 16, 18)
TITLE_KINDS = ("international", "original", "former", "misspelling", "other")
LIST_FIELDS = ("countries", "languages", "genres", "tags", "categories")  # CSV: a cell of values split by ";"
JSON_FIELDS = ("alternativeTitles", "persons", "seasons")  # CSV: a cell of JSON, the same value as in JSON Lines
FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
MAX_LINE = 1_048_576  # characters in one line (one content): far past any real title's


def _messages(**own: str) -> dict[str, Any]:
    return {"required": "Обязательное поле", "null": "Поле не может быть пустым (null)", **own}


class Text(fields.String):
    default_error_messages = _messages(invalid="Ожидается строка", invalid_utf8="Строка не в кодировке UTF-8")

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        return text.strip() if isinstance(text, str) else text


class Whole(fields.Integer):
    default_error_messages = _messages(invalid="Ожидается целое число", too_large="Слишком большое число")


class Rating(fields.Float):
    default_error_messages = _messages(invalid="Ожидается число", special="Значения NaN и Infinity не допускаются",
                                       too_large="Слишком большое число")


class Flag(fields.Boolean):
    default_error_messages = _messages(invalid="Ожидается true или false")


class Many(fields.List):
    default_error_messages = _messages(invalid="Ожидается список")


class One(fields.Nested):
    default_error_messages = _messages(type="Ожидается объект")


def _length(most: int, least: int = 0) -> validate.Length:
    return validate.Length(min=least, max=most, error=f"Длина от {least} до {most} символов" if least else
                           f"Не длиннее {most} символов")


def _range(least: float, most: float) -> validate.Range:
    return validate.Range(min=least, max=most, error=f"Должно быть от {least} до {most}")


class AlternativeTitle(fields.Field):
    """A title as a plain string, or ``{title, language, kind}``."""

    default_error_messages = _messages(invalid="Ожидается строка или объект {title, language, kind}")

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict[str, Any]:
        if isinstance(value, str):
            value = {"title": value}
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        return dict(AlternativeTitleSchema().load(value))


class _Strict(Schema):
    class Meta:
        unknown = RAISE

    error_messages = {"unknown": "Неизвестное поле", "type": "Ожидается объект"}  # noqa: RUF012 - marshmallow's


class AlternativeTitleSchema(_Strict):
    title = Text(required=True, validate=_length(255, 1))
    language = Text(load_default=None, allow_none=True, validate=_length(16))
    kind = Text(load_default="other", validate=validate.OneOf(TITLE_KINDS, error="Допустимые значения: "
                                                                                 + ", ".join(TITLE_KINDS)))


class PersonSchema(_Strict):
    name = Text(required=True, validate=_length(255, 1))
    originalName = Text(load_default=None, allow_none=True, validate=_length(255))
    role = Text(required=True, validate=_length(128, 1))
    character = Text(load_default=None, allow_none=True, validate=_length(255))
    kinopoiskId = Whole(load_default=None, allow_none=True, validate=_range(1, MAX_ID))


class EpisodeSchema(_Strict):
    number = Whole(required=True, validate=_range(0, 100_000))
    title = Text(validate=_length(255, 1))
    description = Text(allow_none=True)
    duration = Whole(allow_none=True, validate=_range(0, 1_000_000))
    media = Text(allow_none=True, validate=_length(1024))


class SeasonSchema(_Strict):
    number = Whole(required=True, validate=_range(0, 10_000))
    title = Text(allow_none=True, validate=_length(255))
    episodes = Many(One(EpisodeSchema), load_default=list)


class LineSchema(_Strict):
    """One content of the file. Only ``kinopoiskId`` or ``imdbId`` is required here; ``title`` and ``type`` are for a
    new content (the writer says so), and a field the line leaves out is left as it is on an update."""

    kinopoiskId = Whole(allow_none=True, validate=_range(1, MAX_ID))
    imdbId = Text(allow_none=True, validate=validate.Regexp(
        r"^tt[0-9]{5,10}$", error="Ожидается идентификатор IMDb вида tt0133093"))
    type = Text(validate=_length(64, 1))
    title = Text(validate=_length(255, 1))
    originalTitle = Text(allow_none=True, validate=_length(255))
    alternativeTitles = Many(AlternativeTitle())
    year = Whole(allow_none=True, validate=_range(1870, 2100))
    description = Text(allow_none=True)
    ageRating = Whole(allow_none=True, validate=validate.OneOf(
        AGE_RATINGS, error="Допустимые значения: " + ", ".join(map(str, AGE_RATINGS))))
    countries = Many(Text(validate=_length(8, 1)))
    languages = Many(Text(validate=_length(16, 1)))
    genres = Many(Text(validate=_length(255, 1)))
    tags = Many(Text(validate=_length(255, 1)))
    categories = Many(Text(validate=_length(128, 1)))
    persons = Many(One(PersonSchema))
    kinopoiskRating = Rating(allow_none=True, validate=_range(0, 10))
    imdbRating = Rating(allow_none=True, validate=_range(0, 10))
    poster = Text(allow_none=True, validate=_length(1024))
    published = Flag()
    seasons = Many(One(SeasonSchema))
    media = Text(allow_none=True, validate=_length(1024))

    @pre_load
    def _blank_is_absent(self, data: Any, **_kwargs: Any) -> Any:
        """An empty string is no value (a CSV's empty cell, a JSON "")."""
        if isinstance(data, dict):
            return {key: value for key, value in data.items() if value != ""}
        return data

    @validates_schema(skip_on_field_errors=False)  # said beside the fields' errors too
    def _keyed(self, data: dict[str, Any], **_kwargs: Any) -> None:
        if data.get("kinopoiskId") is None and data.get("imdbId") is None:
            raise ValidationError("Нужен kinopoiskId или imdbId: по ним контент находится при повторном импорте",
                                  "kinopoiskId")


Problem = tuple[str | None, str]  # (field, message)


@dataclass(frozen=True)
class Line:
    number: int  # 1-based line (JSONL) or row (CSV, the header is line 1)
    data: dict[str, Any] | None  # the checked fields (None: the line did not read, or a field of it is wrong)
    errors: list[Problem]
    # A line with a wrong field: the fields that were right. They are checked against the catalogue too (an unknown
    # genre, a title a new content needs), so that one run names every error of the line; the line is never written.
    rest: dict[str, Any] | None = None

    @property
    def checked(self) -> dict[str, Any] | None:
        """What the catalogue's checks see: the line's fields, or a wrong line's right ones (None: it did not read)."""
        return self.data if self.data is not None else self.rest

    @property
    def wrong(self) -> set[str] | None:
        """A wrong line's wrong top-level fields (``seasons`` for ``seasons[1].episodes[2].media``); None for a line
        whose fields are right."""
        if self.data is not None:
            return None
        return {name.split("[", 1)[0].split(".", 1)[0] for name, _ in self.errors if name}


def file_format(path: Path) -> str | None:
    return FORMATS.get(path.suffix.lower())


def count_lines(path: Path) -> int:
    """How many contents the file holds (its non-blank lines; a CSV's rows after the header)."""
    return sum(1 for _ in _raw(path))


def read_lines(path: Path) -> Iterator[Line]:
    """Each content of the file, checked."""
    schema = LineSchema()
    for number, raw, problems in _raw(path):
        if raw is None:  # the line did not read
            yield Line(number, None, problems)
            continue
        try:
            data = dict(schema.load(raw))
        except ValidationError as error:
            rest = error.valid_data if isinstance(error.valid_data, dict) else {}
            yield Line(number, None, problems + list(flatten(error.messages)), dict(rest))
            continue
        # A CSV cell that did not read: the row is wrong, its other cells checked as a wrong line's right fields are
        yield Line(number, None, problems, data) if problems else Line(number, data, [])


def _raw(path: Path) -> Iterator[tuple[int, dict[str, Any] | None, list[Problem]]]:
    """Each content of the file as read (None: it did not read), with what did not read of it."""
    if file_format(path) == "csv":
        yield from _csv_rows(path)
        return
    with path.open(encoding="utf-8-sig", newline="") as lines:
        for number, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            if len(text) > MAX_LINE:
                yield number, None, [(None, f"Строка длиннее {MAX_LINE:,} символов".replace(",", " "))]
                continue
            try:
                value = json.loads(text)
            except json.JSONDecodeError as error:
                yield number, None, [(None, f"Строка не читается как JSON: ошибка у символа {error.colno}")]
                continue
            if not isinstance(value, dict):
                yield number, None, [(None, "Ожидается объект JSON: одна строка — один контент")]
                continue
            yield number, value, []


def _csv_rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | None, list[Problem]]]:
    known = set(LineSchema().fields)
    with path.open(encoding="utf-8-sig", newline="") as file:
        reader = csv.reader(file)
        header = [name.strip() for name in next(reader, [])]
        unknown = [name for name in header if name not in known]
        if unknown:  # a wrong header maps every cell wrong: no row is read
            yield 1, None, [(None, "Неизвестные столбцы: " + ", ".join(unknown))]
            return
        for cells in reader:
            number = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) != len(header):
                yield number, None, [(None, f"В строке {len(cells)} ячеек, в заголовке {len(header)}")]
                continue
            yield number, *_cells(dict(zip(header, cells, strict=True)))


def _cells(row: dict[str, str]) -> tuple[dict[str, Any], list[Problem]]:
    """A CSV row in the shape of a JSON line: list cells split by ";", JSON cells parsed, empty cells absent; and
    the JSON cells that did not parse (left out of the row)."""
    shaped: dict[str, Any] = {}
    problems: list[Problem] = []
    for name, cell in row.items():
        cell = cell.strip()
        if not cell:
            continue
        if name in LIST_FIELDS:
            shaped[name] = [value.strip() for value in cell.split(";") if value.strip()]
        elif name in JSON_FIELDS:
            try:
                shaped[name] = json.loads(cell)
            except json.JSONDecodeError as error:
                problems.append((name, f"Ячейка не читается как JSON: ошибка у символа {error.colno}"))
        else:
            shaped[name] = cell
    return shaped, problems


def flatten(messages: Any, prefix: str = "") -> Iterator[Problem]:
    """marshmallow's nested errors as (field, message): ``{"seasons": {0: {"number": [...]}}}`` →
    ``("seasons[1].number", …)``."""
    if isinstance(messages, dict):
        for key, inner in messages.items():
            if isinstance(key, int):
                name = f"{prefix}[{key + 1}]"
            elif key == "_schema":
                name = prefix
            else:
                name = f"{prefix}.{key}" if prefix else str(key)
            yield from flatten(inner, name)
    elif isinstance(messages, list | tuple):
        for inner in messages:
            yield from flatten(inner, prefix)
    else:
        yield prefix or None, str(messages)
