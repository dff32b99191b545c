"""marshmallow's and webargs' messages in Russian (app/schemas/messages.py): every message the installed libraries
can give is in the table, its values carried over; an upgrade that adds or rewords one fails here rather than show a
site ``UNKNOWN``."""

from __future__ import annotations

import inspect
import itertools
from typing import Any

import pytest
from marshmallow import Schema, ValidationError, fields, validate
from webargs.core import Parser

from app.schemas.messages import UNKNOWN, is_russian, known, russian

SAMPLE = {"choices": "drama, comedy", "input": "x", "obj_type": "datetime", "awareness": "aware"}


def field_messages() -> list[str]:
    """Every default message of every field class of marshmallow, its placeholders filled as the field fills them."""
    found = []
    for _name, kind in inspect.getmembers(fields, inspect.isclass):
        if not issubclass(kind, fields.Field):
            continue
        values = {**SAMPLE, "obj_type": getattr(kind, "OBJ_TYPE", "datetime"),
                  "awareness": getattr(kind, "AWARENESS", "aware")}
        for template in getattr(kind, "default_error_messages", {}).values():
            found.append(template.format(**values))
    return sorted(set(found))


def refusal(validator: Any, value: Any) -> str:
    with pytest.raises(ValidationError) as raised:
        validator(value)
    return raised.value.messages[0]


def validator_messages() -> list[str]:
    inclusive = list(itertools.product([True, False], [True, False]))
    ranges = [refusal(validate.Range(min=low, max=high, min_inclusive=low_in, max_inclusive=high_in), value)
              for (low, high, value), (low_in, high_in) in itertools.product(
                  [(1, 10, 100), (1, None, -5), (None, 10, 100)], inclusive)]
    return [*ranges,
            refusal(validate.Length(min=2), "a"), refusal(validate.Length(max=2), "abc"),
            refusal(validate.Length(min=1, max=2), "abc"), refusal(validate.Length(equal=2), "a"),
            refusal(validate.Equal(3), 4), refusal(validate.Regexp("^a$"), "b"),
            refusal(validate.Predicate("isdigit"), "x"), refusal(validate.OneOf(["a", "b"]), "c"),
            refusal(validate.ContainsOnly(["a"]), ["b"]), refusal(validate.NoneOf(["a"]), "a"),
            refusal(validate.URL(), "nope"), refusal(validate.Email(), "nope"),
            refusal(validate.And(validate.Predicate("isdigit")), "x")]


def schema_messages() -> list[str]:
    class Strict(Schema):
        name = fields.Str()

    errors = Strict().validate({"other": 1})
    errors |= Strict().validate([1])  # type: ignore[arg-type]
    return [message for messages in errors.values() for message in messages]


LIBRARY_MESSAGES = [*field_messages(), *validator_messages(), *schema_messages(), Parser.DEFAULT_VALIDATION_MESSAGE,
                    "Invalid JSON body."]


@pytest.mark.parametrize("message", LIBRARY_MESSAGES)
def test_every_message_of_the_libraries_is_in_the_table(message: str):
    assert known(message), message
    assert is_russian(russian(message)), message


def test_the_values_of_a_message_are_carried_over():
    assert russian("Must be greater than or equal to 1 and less than or equal to 100.") == "Должно быть от 1 до 100"
    assert russian("Must be greater than or equal to 0.") == "Должно быть не меньше 0"  # not "больше or equal to 0"
    assert russian("Must be greater than 0 and less than 5.") == "Должно быть больше 0 и меньше 5"
    assert russian("Longer than maximum length 100.") == "Длина не больше 100"
    assert russian("Must be one of: popular, rating.") == "Допустимые значения: popular, rating"


def test_ours_pass_as_they_are_and_unknown_english_never_does():
    assert russian("Укажите имя") == "Укажите имя"
    assert not known("Some new message.")
    assert russian("Some new message.") == UNKNOWN
