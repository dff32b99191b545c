"""What the reviews' and abuse reports' tests share: signed-in callers of each role, a review written through the
API, a content unpublished."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from app.extensions import db
from app.models import Content, Role
from tests.api.accounts_helpers import bearer, make_account, sign_in

FILM = 1  # the demo's published film
SERIES = 2
TEXT = "Неторопливое, честное кино о дороге и о том, что остаётся после неё."


def reviews_path(content_id: int = FILM, suffix: str = "") -> str:
    return f"/v2/contents/{content_id}/reviews{suffix}"


def signed_in(app: Flask, client: FlaskClient, email: str, role: Role = Role.VIEWER) -> dict[str, str]:
    """The bearer header of a new account of ``role`` (signed in on a client of its own: the tests' client carries
    no cookie, so that a call without the header is anonymous)."""
    make_account(app, email, role)
    return bearer(sign_in(app.test_client(), email))


def write_review(client: FlaskClient, headers: dict[str, str], content_id: int = FILM, rating: int = 8,
                 text: str = TEXT) -> dict[str, Any]:
    response = client.post(reviews_path(content_id, "/create"), json={"text": text, "rating": rating},
                           headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def unpublish(app: Flask, content_id: int) -> None:
    with app.app_context():
        db.session.execute(update(Content).where(Content.id == content_id).values(published=False))
        db.session.commit()


def totals(app: Flask, content_id: int = FILM) -> tuple[int, int]:
    """The content's counters as stored: (review count, rating sum)."""
    with app.app_context():
        row = db.session.execute(db.select(Content.review_count, Content.review_rating_sum)
                                 .where(Content.id == content_id)).one()
        db.session.remove()
        return row.review_count, row.review_rating_sum
