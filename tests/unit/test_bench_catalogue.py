"""The catalogue benchmark's checks of its answers (tests/bench/catalogue.py): a figure timed on a wrong answer (an
empty page, a filter not applied, a typo not corrected) must stop the run, not count."""

from __future__ import annotations

from typing import Any

from tests.bench.catalogue import a_mart, a_page, verdict


def card(content_id: int, year: int, *genres: str) -> dict[str, Any]:
    return {"id": content_id, "year": year, "genres": [{"slug": slug, "title": slug} for slug in genres]}


def test_a_page_wants_items_within_the_filters() -> None:
    check = a_page({"genres": ["drama"], "yearFrom": 1990, "yearTo": 2000})
    assert check({"items": [card(1, 1995, "drama", "comedy")], "total": 1}) is None
    assert check({"items": [], "total": 0}) == "no items"
    assert "genres" in (check({"items": [card(2, 1995, "comedy")], "total": 1}) or "")
    assert "outside the years" in (check({"items": [card(3, 2001, "drama")], "total": 1}) or "")
    assert "total" in (check({"items": [card(1, 1995, "drama")], "total": 0}) or "")


def test_a_search_page_reports_the_expected_correction() -> None:
    page = {"items": [card(1, 2000, "drama")], "total": 1}
    assert a_page(search=True)({**page, "corrected": None}) is None
    assert a_page(search=True)({**page, "corrected": "граница"}) is not None
    assert a_page(corrected="граница", search=True)({**page, "corrected": "граница"}) is None
    assert a_page(corrected="граница", search=True)({**page, "corrected": None}) is not None


def test_a_mart_wants_contents_in_every_category() -> None:
    assert a_mart([{"category": {"slug": "new"}, "contents": [card(1, 2000)]}]) is None
    assert a_mart([]) == "no categories"
    assert "popular" in (a_mart([{"category": {"slug": "new"}, "contents": [card(1, 2000)]},
                                 {"category": {"slug": "popular"}, "contents": []}]) or "")


def test_verdict() -> None:
    assert verdict(14.9, 15) == "pass"
    assert verdict(15.1, 15) == "FAIL"
    assert verdict(60, 50, at_most=False) == "pass"
    assert verdict(40, 50, at_most=False) == "FAIL"
    assert verdict(1.0, None) == ""
