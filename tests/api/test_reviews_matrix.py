"""Who may call what, over every call of the reviews and abuse reports and every kind of caller: the whole matrix of
answers, compared at once, 100 % as expected (the role checks are the server's: app/api/decorators.py
``require_role``, the rules in app/services/reviews and app/services/abuse).

Callers: nobody; a device identity only; a viewer (another than the author); the review's author; an editor; an
administrator; a blocked account (its token revoked by the block); and a signed-in viewer's cookie without its CSRF
header."""

from __future__ import annotations

import pytest
from flask import Flask

from app.models import Role
from tests.api.accounts_helpers import PASSWORD, bearer, block, make_account, sign_in
from tests.api.reviews_helpers import FILM, TEXT, reviews_path, write_review

CALLERS = ("anonymous", "device", "viewer", "author", "editor", "admin", "blocked", "cookie_without_csrf")
CALLS = ("reasons", "list_get", "list_post", "vote", "report", "update", "create", "delete")
# caller → the status of each call, in CALLS' order (the calls run in that order, each on what the ones before left)
EXPECTED = {
    "anonymous": (200, 200, 200, 401, 401, 401, 401, 401),
    "device": (200, 200, 200, 401, 201, 401, 401, 401),
    "viewer": (200, 200, 200, 200, 201, 403, 201, 403),
    "author": (200, 200, 200, 403, 403, 200, 409, 204),
    "editor": (200, 200, 200, 200, 201, 403, 201, 204),
    "admin": (200, 200, 200, 200, 201, 403, 201, 204),
    "blocked": (200, 200, 401, 401, 401, 401, 401, 401),
    "cookie_without_csrf": (200, 200, 401, 401, 401, 401, 401, 401),
}


def headers_of(app: Flask, caller: str, viewer_headers) -> tuple[dict[str, str], object]:
    """(headers, client) of ``caller``: a client of its own, so that only the cookie caller carries cookies."""
    client = app.test_client()
    emails = {"viewer": ("other@example.com", Role.VIEWER), "editor": ("ed@example.com", Role.EDITOR),
              "admin": ("boss@example.com", Role.ADMIN), "blocked": ("gone@example.com", Role.VIEWER),
              "cookie_without_csrf": ("cookie@example.com", Role.VIEWER)}
    if caller == "anonymous":
        return {}, client
    if caller == "device":
        return viewer_headers(), client
    if caller == "author":
        return bearer(sign_in(app.test_client(), "author@example.com")), client
    email, role = emails[caller]
    account = make_account(app, email, role)
    if caller == "cookie_without_csrf":
        client.post("/authentication", json={"email": email, "password": PASSWORD})  # its cookies stay
        return viewer_headers(), client
    headers = bearer(sign_in(app.test_client(), email))
    if caller == "blocked":
        block(app, account)
    return headers, client


@pytest.mark.parametrize("caller", CALLERS)
def test_every_call_answers_each_caller_as_expected(demo_catalogue, viewer_headers, caller):
    app = demo_catalogue
    make_account(app, "author@example.com")
    author = bearer(sign_in(app.test_client(), "author@example.com"))
    review = write_review(app.test_client(), author)
    headers, client = headers_of(app, caller, viewer_headers)
    one = reviews_path(FILM, f"/{review['id']}")
    calls = {
        "reasons": lambda: client.get("/abuse/reasons", headers=headers),
        "list_get": lambda: client.get(reviews_path(FILM), headers=headers),
        "list_post": lambda: client.post(reviews_path(FILM), json={"sort": "helpful"}, headers=headers),
        "vote": lambda: client.post(f"{one}/vote", json={"value": 1}, headers=headers),
        "report": lambda: client.post("/abuse/new", json={"target": "review", "targetId": review["id"],
                                                          "reason": "spam"}, headers=headers),
        "update": lambda: client.put(one, json={"text": TEXT, "rating": 3}, headers=headers),
        "create": lambda: client.post(reviews_path(FILM, "/create"), json={"text": TEXT, "rating": 6},
                                      headers=headers),
        "delete": lambda: client.delete(one, headers=headers),
    }
    got = {}
    for name in CALLS:
        response = calls[name]()
        got[name] = response.status_code
        assert response.status_code < 500
        if response.status_code >= 400:
            error = response.get_json()["error"]
            assert error["status"] == response.status_code and error["code"] and error["message"]
    assert got == dict(zip(CALLS, EXPECTED[caller], strict=True))
