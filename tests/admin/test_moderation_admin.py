"""Moderation in the admin: the abuse reports' queue (hide the review, dismiss, a note), the reviews' list (hide,
show again, delete), each change in the audit trail; viewers' text shown as text, never as markup or a link."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import AbuseReport, AbuseStatus, AuditEntry, Review, Role
from tests.admin.helpers import flashes, page, post_form
from tests.api.reviews_helpers import FILM, reviews_path, totals, write_review
from tests.api.reviews_helpers import signed_in as api_account

EVIL = 'Смотрите <script>alert(1)</script> <a href="http://spam.example/">тут</a> и http://spam.example/x'


@pytest.fixture
def reported(app: Flask, demo_catalogue: Flask, viewer_headers) -> dict[str, int]:
    """Two reviews of the film, the first reported by two devices, the second by one, the film itself by one."""
    client = app.test_client()
    first = write_review(client, api_account(app, client, "w1@example.com"), text=EVIL, rating=2)
    second = write_review(client, api_account(app, client, "w2@example.com"), rating=9)
    ids = {"first": first["id"], "second": second["id"]}
    for name, target, target_id, reason in (("r1", "review", first["id"], "spam"),
                                            ("r2", "review", first["id"], "insult"),
                                            ("r3", "review", second["id"], "spoiler"),
                                            ("r4", "content", FILM, "broken")):
        response = client.post("/abuse/new", json={"target": target, "targetId": target_id, "reason": reason,
                                                    "comment": "<b>жирно</b> http://x.example"},
                               headers=viewer_headers())
        assert response.status_code == 201
        ids[name] = response.get_json()["id"]
    return ids


def report(app: Flask, report_id: int) -> AbuseReport:
    with app.app_context():
        found = db.session.get_one(AbuseReport, report_id)
        db.session.expunge(found)
        db.session.remove()
        return found


def test_the_queue_shows_viewers_text_as_text(reported, signed_in: Callable[[Role], FlaskClient]):
    editor = signed_in(Role.EDITOR)
    response = editor.get("/admin/abuse_queue/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;жирно&lt;/b&gt;" in html
    assert not page(response).xpath("//a[contains(@href, 'spam.example') or contains(@href, 'x.example')]")
    assert "Спам или реклама" in html and "Видео не воспроизводится" in html
    details = editor.get(f"/admin/abuse_report/details/?id={reported['r1']}")
    assert details.status_code == 200 and "&lt;script&gt;" in details.get_data(as_text=True)
    assert not page(details).xpath("//a[contains(@href, 'spam.example')]")
    reviews = editor.get("/admin/review/")
    assert "&lt;script&gt;" in reviews.get_data(as_text=True) and "<script>alert" not in reviews.get_data(as_text=True)


def test_hiding_a_reported_review_closes_its_reports_and_is_in_the_trail(
        app: Flask, reported, signed_in: Callable[[Role], FlaskClient], accounts: dict[Role, int]):
    editor = signed_in(Role.EDITOR)
    assert totals(app) == (2, 11)
    url = f"/admin/abuse_queue/edit/?id={reported['r1']}"
    response = post_form(editor, url, {"decision": "hide", "note": "Реклама казино"})
    assert response.status_code == 302
    first, second = report(app, reported["r1"]), report(app, reported["r2"])
    assert first.status is AbuseStatus.REVIEW_HIDDEN and first.note == "Реклама казино"
    assert first.handled_by_id == accounts[Role.EDITOR] and first.handled_at is not None
    assert second.status is AbuseStatus.REVIEW_HIDDEN and second.note is None
    assert report(app, reported["r3"]).status is AbuseStatus.OPEN
    assert totals(app) == (1, 9)
    public = app.test_client().post(reviews_path(), json={}).get_json()
    assert [item["id"] for item in public["items"]] == [reported["second"]]
    queue = editor.get("/admin/abuse_queue/").get_data(as_text=True)
    assert f"id={reported['r1']}" not in queue and f"id={reported['r3']}" in queue
    with app.app_context():
        entries = db.session.scalars(select(AuditEntry).where(AuditEntry.account_id == accounts[Role.EDITOR])).all()
        touched = {(entry.object_type, entry.object_id) for entry in entries}
        assert ("reviews", str(reported["first"])) in touched
        assert ("abuse_reports", str(reported["r1"])) in touched and ("abuse_reports", str(reported["r2"])) in touched
        hidden = next(entry for entry in entries if entry.object_type == "reviews")
        assert set(hidden.changes) == {"hidden_at"}
    trail = editor.get(f"/admin/audit/object/reviews/{reported['first']}")
    assert trail.status_code == 200  # an editor reads the moderation's trail


def test_dismissing_from_the_list_and_a_content_report(app: Flask, reported,
                                                       signed_in: Callable[[Role], FlaskClient]):
    editor = signed_in(Role.EDITOR)
    response = post_form(editor, "/admin/abuse_queue/action/", {"action": "dismiss", "rowid": [
        str(reported["r3"]), str(reported["r4"])]}, form_url="/admin/abuse_queue/")
    assert "Рассмотрено жалоб: 2." in flashes(editor.get(response.headers["Location"]))
    assert report(app, reported["r3"]).status is AbuseStatus.DISMISSED
    assert report(app, reported["r4"]).status is AbuseStatus.DISMISSED
    assert totals(app) == (2, 11)  # nothing hidden
    # a content's report has no review to hide: said so, nothing changes
    response = post_form(editor, "/admin/abuse_report/action/", {"action": "hide_review", "rowid": [
        str(reported["r4"])]}, form_url="/admin/abuse_report/")
    said = flashes(editor.get(response.headers["Location"]))
    assert any("Жалоба не на рецензию" in line for line in said)
    assert report(app, reported["r4"]).status is AbuseStatus.DISMISSED


def test_the_reviews_list_hides_shows_and_deletes(app: Flask, reported, signed_in: Callable[[Role], FlaskClient]):
    admin = signed_in(Role.ADMIN)
    post_form(admin, "/admin/review/action/", {"action": "hide", "rowid": [str(reported["second"])]},
              form_url="/admin/review/")
    assert totals(app) == (1, 2)
    post_form(admin, "/admin/review/action/", {"action": "show", "rowid": [str(reported["second"])]},
              form_url="/admin/review/")
    assert totals(app) == (2, 11)
    response = post_form(admin, "/admin/review/delete/", {"id": str(reported["first"])}, form_url="/admin/review/")
    assert response.status_code == 302
    assert totals(app) == (1, 9)
    with app.app_context():
        assert db.session.get(Review, reported["first"]) is None
        assert db.session.get(AbuseReport, reported["r1"]).review_id is None  # the report stays, its review gone


def test_viewers_and_anonymous_callers_reach_no_moderation(reported, signed_in: Callable[[Role], FlaskClient],
                                                           app: Flask):
    for url in ("/admin/abuse_queue/", "/admin/abuse_report/", "/admin/review/",
                f"/admin/abuse_queue/edit/?id={reported['r1']}"):
        assert app.test_client().get(url).status_code == 302
