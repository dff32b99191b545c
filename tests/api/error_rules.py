"""What every API error must be, checked by each test's assert_error (app/errors.py): a message in Russian and, when
it is about fields, the one shape ``details.fields`` = {name: [Russian messages]}, never the old ones (``field``,
flask-smorest's ``json``/``query`` by location)."""

from __future__ import annotations

import re
from typing import Any

CYRILLIC = re.compile("[А-Яа-яЁё]")
OLD_SHAPES = {"field", "json", "query", "path", "headers", "cookies", "form", "files"}


def russian(text: Any) -> bool:
    return isinstance(text, str) and bool(CYRILLIC.search(text))


def assert_error_rules(error: dict[str, Any]) -> None:
    assert russian(error["message"]), error
    details = error.get("details") or {}
    assert not OLD_SHAPES & set(details), error
    if "fields" in details:
        named = details["fields"]
        assert isinstance(named, dict) and named, error
        for name, messages in named.items():
            assert isinstance(name, str) and name and isinstance(messages, list) and messages, error
            assert all(russian(message) for message in messages), error
