"""The rules of alternative titles (app/services/catalogue/titles.py), as the admin and an import ask them."""

from __future__ import annotations

import pytest

from app.services.catalogue.titles import (
    BAD_LANGUAGE,
    EMPTY,
    TOO_LONG,
    cleaned_language,
    cleaned_title,
    language_problem,
    titles_problem,
)


@pytest.mark.parametrize(("titles", "problem"), [
    (["Parasite", "Gisaengchung"], None),
    ([], None),
    (["Parasite", "  "], EMPTY),
    ([None], EMPTY),
    (["x" * 256], TOO_LONG),
    (["x" * 255], None),
    (["  паразиты "], "Другое название «паразиты» совпадает с названием фильма или сериала."),
    (["Ёлки"], None),  # another title's key: its own is «паразиты»
    (["Parasite", "PARASITE"], "Другое название «PARASITE» указано дважды."),
    (["Жёлтый  дом", "желтый дом"], "Другое название «желтый дом» указано дважды."),  # ё and spacing set aside
])
def test_titles_are_checked_beside_the_contents_own(titles, problem):
    assert titles_problem("Паразиты", titles) == problem


@pytest.mark.parametrize(("language", "problem"), [
    ("en", None), (" KO ", None), ("", None), (None, None), ("fil", None),
    ("english", BAD_LANGUAGE), ("e", BAD_LANGUAGE), ("en-US", BAD_LANGUAGE), ("ру", BAD_LANGUAGE),
])
def test_a_language_is_a_primary_tag(language, problem):
    assert language_problem(language) == problem


def test_what_is_stored_is_cleaned():
    assert cleaned_title("  The   Host ") == "The Host"
    assert cleaned_language(" KO ") == "ko" and cleaned_language("  ") is None
