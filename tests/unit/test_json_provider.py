"""The answers' JSON (app/http/json_provider.py): orjson, writing what Flask's own provider with this service's settings
wrote, byte for byte, for every type either understands."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from flask import Flask, jsonify
from markupsafe import Markup

from app.http.json_provider import OrjsonProvider


@dataclass
class Point:
    x: int
    label: str


VALUES = [
    {"title": "Тихая гавань", "year": 2023, "rating": 7.25, "genres": ["драма"], "nothing": None, "yes": True},
    {"b": 1, "a": 2},  # keys in their order, never sorted
    {1: "одна", 2: "две"},  # int keys written as strings
    {"when": datetime(2026, 11, 28, 17, 30, tzinfo=UTC), "day": date(2026, 1, 2)},  # HTTP dates, as Flask wrote
    {"id": uuid.UUID("12345678-1234-5678-1234-567812345678"), "price": Decimal("1.50")},
    {"point": Point(3, "«три»"), "markup": Markup("<b>x</b>")},
    {"details": {"contentId": 99999999999999999999}},  # past 64 bits: orjson refuses it, the standard library writes it
    ["quotes \" and \\ and \n and \u2028 and emoji 🎬", -0.5, 0.1 + 0.2, 10**18],
]


def standard(value: object) -> str:
    """Flask's default provider with this service's former settings (compact, no key sorting, no ASCII escapes)."""
    from flask.json.provider import _default

    return json.dumps(value, default=_default, ensure_ascii=False, sort_keys=False, separators=(",", ":"))


@pytest.fixture
def plain_app() -> Flask:
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    return app


@pytest.mark.parametrize("value", VALUES)
def test_the_answer_is_what_the_standard_library_wrote(plain_app: Flask, value: object) -> None:
    with plain_app.app_context():
        response = jsonify(value)
        assert response.mimetype == "application/json"
        assert response.get_data(as_text=True) == standard(value) + "\n"
        assert plain_app.json.dumps(value) == standard(value)


def test_a_float_written_with_an_exponent_is_the_same_number(plain_app: Flask) -> None:
    with plain_app.app_context():
        written = plain_app.json.dumps([1e-7, 2.5e20])
    assert written == "[1e-7,2.5e+20]"  # the standard library wrote 1e-07
    assert json.loads(written) == [1e-7, 2.5e20]


def test_options_of_the_standard_library_are_honoured(plain_app: Flask) -> None:
    with plain_app.app_context():
        indented = plain_app.json.dumps({"b": 1, "a": [1]}, indent=2, sort_keys=True)
        assert indented == '{\n  "a": [\n    1\n  ],\n  "b": 1\n}'
    plain_app.debug = True
    with plain_app.app_context():
        assert jsonify({"a": 1}).get_data(as_text=True) == '{\n  "a": 1\n}\n'


def test_it_reads_what_it_writes(plain_app: Flask) -> None:
    with plain_app.app_context():
        assert plain_app.json.loads('{"название": "Солярис", "год": 1972}') == {"название": "Солярис", "год": 1972}
        assert plain_app.json.loads(b'[1, 2.5, null, 99999999999999999999]') == [1, 2.5, None, 99999999999999999999]


def test_what_neither_understands_is_refused(plain_app: Flask) -> None:
    with plain_app.app_context(), pytest.raises(TypeError):
        plain_app.json.dumps({"set": {1, 2}})


def test_the_application_answers_with_it() -> None:
    from app import Application

    assert Application.json_provider_class is OrjsonProvider
