"""Alternative titles in Chromium (issue 34): the editor adds one with the «+ Другое название» button (the admin's
script, under its Content-Security-Policy), picks its kind in Russian, saves, and search finds the title by it."""

from __future__ import annotations

from flask import Flask
from playwright.sync_api import Page, expect

from app.extensions import db
from app.models import AlternativeTitle
from tests.browser.test_admin_forms import SAVE, admin_app, editor_page  # noqa: F401  (the fixtures)

FILM = 4  # the demo's «Потерянная плёнка», with none


def test_an_editor_adds_an_alternative_title_on_the_page(admin_app: tuple[Flask, str], editor_page: Page):  # noqa: F811
    app, origin = admin_app
    page = editor_page
    page.goto(f"{origin}/admin/content/edit/?id={FILM}")
    page.click("#alternative_titles-button")
    page.fill("#alternative_titles-0-title", "The Lost Film")
    page.fill("#alternative_titles-0-language", "en")
    page.select_option("#alternative_titles-0-kind", label="Международное")
    page.click(SAVE)
    expect(page.locator(".alert-success")).to_be_visible()
    with app.app_context():
        rows = db.session.scalars(db.select(AlternativeTitle).where(AlternativeTitle.content_id == FILM)).all()
        assert [(row.title, row.language, row.kind.value) for row in rows] == [("The Lost Film", "en", "international")]
    found = app.test_client().post("/v2/contents/search", json={"query": "the lost film"}).get_json()
    assert [item["id"] for item in found["items"]] == [FILM]
    assert page.errors == []  # type: ignore[attr-defined]
