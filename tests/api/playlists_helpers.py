"""Playlists for the API tests: signed-in viewers, playlists made through the API, contents unpublished."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from app.extensions import db
from app.models import Content, Role
from app.transaction import transaction
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.error_rules import assert_error_rules


def viewer(app: Flask, email: str, role: Role = Role.VIEWER) -> dict[str, str]:
    """The bearer header of a new signed-in account."""
    make_account(app, email, role)
    return bearer(sign_in(app.test_client(), email))


def create(client: FlaskClient, headers: dict[str, str], title: str = "Смотреть на выходных", **fields: Any) -> int:
    response = client.post("/playlists/new", json={"title": title, **fields}, headers=headers)
    assert response.status_code == 201, response.get_json()
    return int(response.get_json()["id"])


def add(client: FlaskClient, headers: dict[str, str], playlist_id: int, *content_ids: int) -> None:
    for content_id in content_ids:
        response = client.post(f"/playlists/{playlist_id}/contents/{content_id}", headers=headers)
        assert response.status_code == 200, response.get_json()


def listed(client: FlaskClient, playlist_id: int, headers: dict[str, str] | None = None, version: str = "",
           **body: Any) -> list[int]:
    response = client.post(f"{version}/playlists/{playlist_id}/contents", json=body, headers=headers or {})
    assert response.status_code == 200, response.get_json()
    return [card["id"] for card in response.get_json()["items"]]


def set_published(app: Flask, content_id: int, published: bool) -> None:
    with app.app_context(), transaction():
        db.session.get(Content, content_id).published = published


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:300])
    error = response.get_json()["error"]
    assert (error["status"], error["code"]) == (status, code)
    assert error["message"] and "Traceback" not in response.get_data(as_text=True)
    assert_error_rules(error)
    return error
