"""What every schema shares: the id field and the one JSON error shape (app/errors.py builds it)."""

from __future__ import annotations

import re
from typing import Any

from marshmallow import INCLUDE, Schema, fields, validate

from app.models.ids import MAX_ID
from app.models.slugs import MAX_SLUG, SLUG

_DIGITS = re.compile(r"[0-9]+")


class Count(fields.Integer):
    """A whole number written with ASCII digits when it comes as text (a query): not '+5', '1e3', '1.0' nor the
    digits of other scripts ('²', '٥'), which Python's int() would take."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and not _DIGITS.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class Id(Count):
    """A row id: a positive 32-bit integer (app/models/ids.py)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("validate", validate.Range(min=1, max=MAX_ID))
        super().__init__(**kwargs)


class FullMatch(validate.Regexp):
    """A string that is wholly of ``body``: ``^(?:body)$`` in the OpenAPI document (ECMA-262 has no ``\\A``/``\\Z``),
    checked with fullmatch here (Python's ``$`` would let a trailing newline through)."""

    def __init__(self, body: str, **kwargs: Any) -> None:
        super().__init__(f"^(?:{body})$", **kwargs)
        self._whole = re.compile(body)

    def __call__(self, value: Any) -> Any:
        if not isinstance(value, str) or self._whole.fullmatch(value) is None:
            raise validate.ValidationError(self._format_error(value))
        return value


class Text(fields.String):
    """Text from outside: no control characters (app/http/limits.py refuses them before any view; the document says
    so, so that a client knows)."""

    PATTERN = r"^[^\u0000-\u001f\u007f]*$"

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"pattern": self.PATTERN, **dict(kwargs.pop("metadata", {}) or {})}
        super().__init__(metadata=metadata, **kwargs)


class ErrorDetailsSchema(Schema):
    """What an error adds: the fields it is about (the one shape of field errors, whoever found them), and whatever
    else it names (ids, limits, the error id of a 500)."""

    class Meta:
        unknown = INCLUDE  # the other keys are each error's own (additionalProperties in the document)

    named_fields = fields.Dict(
        data_key="fields", keys=fields.Str(), values=fields.List(fields.Str()),
        metadata={"description": "each field the request got wrong, with its messages in Russian: a nested field's "
                                 "name joined by dots (persons.0.name), whether it came in the query or the body",
                  "example": {"pageSize": ["Должно быть от 1 до 100"]}})


class ErrorDetailSchema(Schema):
    status = fields.Int(required=True, metadata={"description": "the HTTP status"})
    code = fields.Str(required=True, metadata={"description": "English and stable, for clients to branch on"})
    message = fields.Str(required=True, metadata={"description": "in Russian, for people: a site may show it as it is"})
    details = fields.Nested(ErrorDetailsSchema, metadata={"description": "the fields at fault, ids, the error id of a "
                                                                         "500"})
    requestId = fields.Str(metadata={"description": "this request's id, as in X-Request-Id and our logs"})


class ErrorSchema(Schema):
    """Every API error: ``{"error": {"status", "code", "message", "details"?}}``."""

    error = fields.Nested(ErrorDetailSchema, required=True)


def Slug(example: str, max_length: int = MAX_SLUG, **kwargs: Any) -> fields.String:
    """A slug (app/models/slugs.py), its pattern stated in the document."""
    pattern = f"^{SLUG.pattern}$"
    metadata = {"example": example, "pattern": pattern, **dict(kwargs.pop("metadata", {}) or {})}
    return fields.Str(validate=[validate.Length(min=1, max=max_length), validate.Regexp(pattern)], metadata=metadata,
                      **kwargs)
