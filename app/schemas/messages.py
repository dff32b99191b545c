"""marshmallow's and webargs' messages in Russian: every API error speaks Russian (app/errors.py), and the
libraries have no translations of their own.

A message arrives as text, its numbers and choices already filled in ("Must be greater than or equal to 1 and less
than or equal to 100."), so each English template of the libraries (their fields' ``default_error_messages``, the
validators' messages, webargs' own) is a pattern here with its Russian: ``russian()`` reads the values back out and
puts them into the Russian. A message of ours (a validator's ``error="Укажите имя"``) is Russian already and passes
as it is; English the table does not know becomes ``UNKNOWN`` rather than reach a site (tests/unit/
test_schema_messages.py checks that every message of the installed libraries is in the table)."""

from __future__ import annotations

import itertools
import re

UNKNOWN = "Неверное значение"
_CYRILLIC = re.compile("[А-Яа-яЁё]")

_RANGE_LOW = {"greater than or equal to": "не меньше {min}", "greater than": "больше {min}"}
_RANGE_HIGH = {"less than or equal to": "не больше {max}", "less than": "меньше {max}"}

# (English template, Russian): {name} and {name!r} in the English stand for a value the Russian may name.
_TABLE: list[tuple[str, str]] = [
    # marshmallow's fields
    ("Missing data for required field.", "Обязательное поле"),
    ("Field may not be null.", "Поле не может быть пустым (null)"),
    ("Invalid value.", UNKNOWN),  # validator_failed, and webargs' DEFAULT_VALIDATION_MESSAGE
    ("Invalid type.", "Неверный тип значения"),
    ("Not a valid list.", "Ожидается список"),
    ("Not a valid tuple.", "Ожидается список"),
    ("Not a valid string.", "Ожидается строка"),
    ("Not a valid utf-8 string.", "Строка не в кодировке UTF-8"),
    ("Not a valid UUID.", "Ожидается UUID"),
    ("Not a valid number.", "Ожидается число"),
    ("Number too large.", "Слишком большое число"),
    ("Not a valid integer.", "Ожидается целое число"),
    ("Special numeric values (nan or infinity) are not permitted.", "Значения NaN и Infinity не допускаются"),
    ("Not a valid boolean.", "Ожидается true или false"),
    ("Not a valid datetime.", "Ожидаются дата и время (ISO 8601)"),
    ("Not a valid aware datetime.", "Ожидаются дата и время с часовым поясом (ISO 8601)"),
    ("Not a valid naive datetime.", "Ожидаются дата и время без часового пояса (ISO 8601)"),
    ("Not a valid date.", "Ожидается дата (ISO 8601)"),
    ("Not a valid time.", "Ожидается время (ISO 8601)"),
    ("Not a valid aware time.", "Ожидается время с часовым поясом (ISO 8601)"),
    ("Not a valid naive time.", "Ожидается время без часового пояса (ISO 8601)"),
    ('"{input}" cannot be formatted as a {obj_type}.', "Значение не приводится к дате или времени"),
    ("Not a valid period of time.", "Ожидается промежуток времени"),
    ("{input!r} cannot be formatted as a timedelta.", "Значение не приводится к промежутку времени"),
    ("Not a valid mapping type.", "Ожидается объект"),
    ("Not a valid URL.", "Ожидается адрес (URL)"),
    ("Not a valid email address.", "Неверный адрес почты"),
    ("Not a valid IP address.", "Ожидается IP-адрес"),
    ("Not a valid IPv4 address.", "Ожидается адрес IPv4"),
    ("Not a valid IPv6 address.", "Ожидается адрес IPv6"),
    ("Not a valid IP interface.", "Ожидается IP-интерфейс"),
    ("Not a valid IPv4 interface.", "Ожидается интерфейс IPv4"),
    ("Not a valid IPv6 interface.", "Ожидается интерфейс IPv6"),
    ("Must be one of: {choices}.", "Допустимые значения: {choices}"),  # fields.Enum and validate.OneOf
    # a schema's own
    ("Unknown field.", "Неизвестное поле"),
    ("Invalid input type.", "Ожидается объект JSON"),
    # the validators
    ("Shorter than minimum length {min}.", "Длина не меньше {min}"),
    ("Longer than maximum length {max}.", "Длина не больше {max}"),
    ("Length must be between {min} and {max}.", "Длина от {min} до {max}"),
    ("Length must be {equal}.", "Длина ровно {equal}"),
    ("Must be equal to {other}.", "Должно быть равно {other}"),
    ("String does not match expected pattern.", "Значение не подходит по формату"),
    ("Invalid input.", UNKNOWN),  # validate.Predicate, validate.And
    ("One or more of the choices you made was not in: {choices}.", "Допустимые значения: {choices}"),
    ("One or more of the choices you made was in: {values}.", "Недопустимые значения: {values}"),
    # webargs
    ("Invalid JSON body.", "Тело запроса — не JSON"),
]
# validate.Range: "Must be {low} {min}.", "Must be {high} {max}.", and both
_TABLE += [(f"Must be {low} {{min}}.", f"Должно быть {russian_low}") for low, russian_low in _RANGE_LOW.items()]
_TABLE += [(f"Must be {high} {{max}}.", f"Должно быть {russian_high}") for high, russian_high in _RANGE_HIGH.items()]
_TABLE += [(f"Must be {low} {{min}} and {high} {{max}}.", f"Должно быть {russian_low} и {russian_high}")
           for (low, russian_low), (high, russian_high) in itertools.product(_RANGE_LOW.items(), _RANGE_HIGH.items())
           if (low, high) != ("greater than or equal to", "less than or equal to")]
_TABLE += [("Must be greater than or equal to {min} and less than or equal to {max}.", "Должно быть от {min} до {max}")]

_PLACEHOLDER = re.compile(r"\{(\w+)(?:![rs])?\}")


def _pattern(template: str) -> re.Pattern[str]:
    parts, end = [], 0
    for placeholder in _PLACEHOLDER.finditer(template):
        parts += [re.escape(template[end:placeholder.start()]), f"(?P<{placeholder[1]}>.+?)"]
        end = placeholder.end()
    return re.compile("".join([*parts, re.escape(template[end:])]), re.DOTALL)


# The most specific first: "Must be greater than {min}." would read "or equal to 1" as its {min}
_PATTERNS = [(_pattern(english), russian)
             for english, russian in sorted(_TABLE, key=lambda pair: -len(_PLACEHOLDER.sub("", pair[0])))]


def known(message: str) -> bool:
    """Whether ``message`` is Russian already or one of the table's English messages."""
    return bool(_CYRILLIC.search(message)) or any(pattern.fullmatch(message) for pattern, _ in _PATTERNS)


def russian(message: str) -> str:
    """``message`` in Russian: as it is when it is Russian already, from the table when it is the libraries'."""
    if _CYRILLIC.search(message):
        return message
    for pattern, translation in _PATTERNS:
        found = pattern.fullmatch(message)
        if found:
            return translation.format(**found.groupdict())
    return UNKNOWN


def is_russian(text: str | None) -> bool:
    """Whether ``text`` is written in Russian (has a Cyrillic letter): a message of ours rather than a library's."""
    return bool(text and _CYRILLIC.search(text))
