"""Abuse reports (spec §7 POST /abuse/new): a review or a content, a reason of the fixed list, a comment; one per
account or device and target; the reasons' list; every refusal in the error shape."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.extensions import db
from app.models import AbuseReport
from app.services.reviews.moderation import set_hidden
from app.transaction import transaction
from tests.api.reviews_helpers import FILM, SERIES, reviews_path, signed_in, totals, unpublish, write_review
from tests.api.test_catalogue_api import assert_error


def reports(app) -> list[AbuseReport]:
    with app.app_context():
        found = list(db.session.scalars(select(AbuseReport).order_by(AbuseReport.id)))
        db.session.expunge_all()
        db.session.remove()
        return found


@pytest.fixture
def review(demo_catalogue, client):
    return write_review(client, signed_in(demo_catalogue, client, "author@example.com"))


def test_the_reasons_are_listed_with_russian_labels_and_shared(client, demo_catalogue):
    response = client.get("/abuse/reasons")
    assert response.status_code == 200 and "public" in response.headers["Cache-Control"]
    reasons = {reason["code"]: reason for reason in response.get_json()}
    assert reasons["spam"] == {"code": "spam", "label": "Спам или реклама", "targets": ["review"]}
    assert reasons["broken"]["targets"] == ["content"]
    assert reasons["other"]["targets"] == ["content", "review"]


def test_a_device_reports_a_review_once(client, demo_catalogue, viewer_headers, review):
    device = viewer_headers()
    body = {"target": "review", "targetId": review["id"], "reason": "spam", "comment": "Ссылка <b>на</b> казино"}
    first = client.post("/abuse/new", json=body, headers=device)
    assert first.status_code == 201 and first.headers["Cache-Control"] == "no-store"
    filed = first.get_json()
    assert {key: filed[key] for key in ("target", "targetId", "reason", "status")} == {
        "target": "review", "targetId": review["id"], "reason": "spam", "status": "open"}
    again = client.post("/abuse/new", json={**body, "reason": "insult", "comment": None}, headers=device)
    assert again.status_code == 200 and again.get_json() == filed
    other_device = client.post("/abuse/new", json=body, headers=viewer_headers())
    assert other_device.status_code == 201 and other_device.get_json()["id"] != filed["id"]
    stored = reports(demo_catalogue)
    assert len(stored) == 2
    assert stored[0].comment == "Ссылка <b>на</b> казино" and stored[0].review_text == review["text"]
    assert stored[0].account_id is None and stored[0].reporter_key.startswith("dev:")
    assert stored[0].content_id == FILM


def test_an_account_reports_a_content_once_whatever_its_device(client, demo_catalogue, viewer_headers):
    reader = signed_in(demo_catalogue, client, "reader@example.com")
    body = {"target": "content", "targetId": SERIES, "reason": "broken"}
    assert client.post("/abuse/new", json=body, headers={**reader, **viewer_headers()}).status_code == 201
    assert client.post("/abuse/new", json=body, headers={**reader, **viewer_headers()}).status_code == 200
    stored = reports(demo_catalogue)
    assert len(stored) == 1 and stored[0].account_id is not None and stored[0].reporter_key.startswith("user:")
    assert stored[0].review_id is None and stored[0].comment is None


@pytest.mark.parametrize(("target", "reason"), [("content", "spam"), ("content", "spoiler"), ("review", "broken")])
def test_a_reason_must_fit_the_target(client, demo_catalogue, viewer_headers, review, target, reason):
    target_id = review["id"] if target == "review" else FILM
    response = client.post("/abuse/new", json={"target": target, "targetId": target_id, "reason": reason},
                           headers=viewer_headers())
    error = assert_error(response, 422, "reason_not_applicable")
    assert error["message"].startswith("Причина «")
    assert reports(demo_catalogue) == []


@pytest.mark.parametrize("body", [
    {"target": "person", "targetId": 1, "reason": "other"},
    {"target": "review", "targetId": 0, "reason": "other"},
    {"target": "review", "targetId": "1", "reason": "other"},
    {"target": "review", "targetId": 1, "reason": "boring"},
    {"target": "review", "targetId": 1, "reason": "other", "comment": "x" * 1001},
    {"target": "review", "targetId": 1, "reason": "other", "extra": 1},
    {"targetId": 1, "reason": "other"},
])
def test_bad_reports_are_refused(client, demo_catalogue, viewer_headers, body):
    assert_error(client.post("/abuse/new", json=body, headers=viewer_headers()), 422, "validation_error")


def test_an_unknown_or_unpublished_target_is_not_found(client, demo_catalogue, viewer_headers, review):
    device = viewer_headers()
    assert_error(client.post("/abuse/new", json={"target": "review", "targetId": 999, "reason": "spam"},
                             headers=device), 404, "review_not_found")
    assert_error(client.post("/abuse/new", json={"target": "content", "targetId": 999, "reason": "other"},
                             headers=device), 404, "content_not_found")
    unpublish(demo_catalogue, FILM)
    assert_error(client.post("/abuse/new", json={"target": "content", "targetId": FILM, "reason": "other"},
                             headers=device), 404, "content_not_found")
    assert_error(client.post("/abuse/new", json={"target": "review", "targetId": review["id"], "reason": "spam"},
                             headers=device), 404, "review_not_found")


def test_a_hidden_review_is_not_reported(client, demo_catalogue, viewer_headers, review):
    with demo_catalogue.app_context(), transaction():
        set_hidden(review["id"], True)
    assert_error(client.post("/abuse/new", json={"target": "review", "targetId": review["id"], "reason": "spam"},
                             headers=viewer_headers()), 404, "review_not_found")


def test_nobody_reports_their_own_review(client, demo_catalogue):
    author = signed_in(demo_catalogue, client, "self@example.com")
    review = write_review(client, author)
    error = assert_error(client.post("/abuse/new", json={"target": "review", "targetId": review["id"],
                                                         "reason": "spam"}, headers=author), 403, "own_review")
    assert error["message"] == "Нельзя пожаловаться на свою рецензию"


def test_a_reporter_is_needed(client, demo_catalogue, review):
    body = {"target": "review", "targetId": review["id"], "reason": "spam"}
    assert_error(client.post("/abuse/new", json=body), 401, "viewer_unknown")
    assert_error(client.post("/abuse/new", json=body, headers={"X-Session-Context": "forged.identity.value"}), 401,
                 "viewer_unknown")


def test_a_token_that_does_not_hold_is_refused_never_filed_as_the_device(client, demo_catalogue, viewer_headers,
                                                                         clock):
    reader = signed_in(demo_catalogue, client, "late@example.com")
    clock.shift(16 * 60)  # past the access token's 15 minutes
    body = {"target": "content", "targetId": FILM, "reason": "broken"}
    assert_error(client.post("/abuse/new", json=body, headers={**reader, **viewer_headers()}), 401, "token_expired")
    assert reports(demo_catalogue) == []


def test_reports_are_rate_limited_per_viewer_and_per_address(client, demo_catalogue, viewer_headers):
    demo_catalogue.config.update(RATE_LIMIT_ABUSE_REPORTS="2 per minute", RATE_LIMIT_ABUSE_IP="3 per minute")
    device = viewer_headers()
    for content_id in (1, 2):
        body = {"target": "content", "targetId": content_id, "reason": "other"}
        assert client.post("/abuse/new", json=body, headers=device).status_code == 201
    limited = client.post("/abuse/new", json={"target": "content", "targetId": 3, "reason": "other"}, headers=device)
    error = assert_error(limited, 429, "too_many_requests")
    assert error["message"] == "Слишком много жалоб: попробуйте позже" and "Retry-After" in limited.headers
    assert client.post("/abuse/new", json={"target": "content", "targetId": 3, "reason": "other"},
                       headers=viewer_headers()).status_code == 201
    error = assert_error(client.post("/abuse/new", json={"target": "content", "targetId": 4, "reason": "other"},
                                     headers=viewer_headers()), 429, "too_many_requests")
    assert error["message"] == "Слишком много жалоб с этого адреса: попробуйте позже"
    assert len(reports(demo_catalogue)) == 3


def test_a_hidden_review_leaves_the_list_and_the_counts_but_its_author_sees_it(client, demo_catalogue):
    author = signed_in(demo_catalogue, client, "hidden@example.com")
    other = signed_in(demo_catalogue, client, "other@example.com")
    hidden = write_review(client, author, rating=2)
    kept = write_review(client, other, rating=8)
    with demo_catalogue.app_context(), transaction():
        set_hidden(hidden["id"], True)
    assert totals(demo_catalogue) == (1, 8)
    public = client.post(reviews_path(), json={}).get_json()
    assert [item["id"] for item in public["items"]] == [kept["id"]] and public["total"] == 1
    assert [item["id"] for item in client.post(reviews_path(), json={}, headers=other).get_json()["items"]] == [
        kept["id"]]
    own = client.post(reviews_path(), json={}, headers=author).get_json()
    assert {item["id"]: item["hidden"] for item in own["items"]} == {hidden["id"]: True, kept["id"]: False}
    assert_error(client.post(reviews_path(suffix=f"/{hidden['id']}/vote"), json={"value": 1}, headers=other), 404,
                 "review_not_found")
    # its author may change it (it stays hidden and uncounted) or delete it
    changed = client.put(reviews_path(suffix=f"/{hidden['id']}"), json={"text": hidden["text"], "rating": 10},
                         headers=author)
    assert changed.status_code == 200 and changed.get_json()["hidden"] is True
    assert totals(demo_catalogue) == (1, 8)
    assert client.delete(reviews_path(suffix=f"/{hidden['id']}"), headers=author).status_code == 204
    assert totals(demo_catalogue) == (1, 8)
