"""Who may use the admin: the refusal matrix over every admin address and method (anonymous, viewer, blocked editor,
editor, administrator), the sign-in and sign-out, CSRF on every form, sessions that end with a block, a role change
or a password change."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import registry
from app.admin.access import NO_ACCESS, SESSION_KEY, fingerprint
from app.extensions import db
from app.models import Account, Role
from app.services.accounts.accounts import INVALID_CREDENTIALS
from app.services.editorial.sessions import open_admin_session
from app.transaction import transaction
from tests.admin.conftest import EMAILS
from tests.admin.helpers import csrf_of, flashes, page, post_form, sign_in
from tests.api.accounts_helpers import block, make_account

SIGN_IN = "/admin/session/"
ADMINS_ONLY = re.compile(r"^/admin/(account|operations)/")
OPEN = {"/admin/session/", "/admin/session/out"}  # the sign-in page and the sign-out: anyone


def admin_addresses(app: Flask) -> list[tuple[str, str]]:
    """Every admin address and method, its parameters filled (the demo's content 2, a genre, an audit entry)."""
    found = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/admin/") or rule.endpoint.endswith("static"):
            continue
        url = rule.rule.replace("<object_type>", "contents").replace("<object_id>", "2").replace(
            "<export_type>", "csv").replace("<int:entry_id>", "1").replace("<kind>", "posters").replace(
            "<file>", "none.jpg").replace("<int:job_id>", "1").replace(
            "<any(episode, creative):target>", "episode").replace("<int:target_id>", "1").replace(
            "<upload_id>", "0" * 32)
        assert "<" not in url, f"a parameter the matrix does not fill: {rule.rule}"
        if url.endswith(("/edit/", "/details/")):
            url += "?id=2"
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((method, url))
    return sorted(set(found))


def ask(client: FlaskClient, method: str, url: str) -> Any:
    return client.open(url, method=method, data={"rowid": "2", "action": "publish", "id": "2", "url": url})


def refused_to_sign_in(response: Any) -> bool:
    return response.status_code == 302 and response.headers["Location"].startswith(SIGN_IN)


@pytest.fixture
def everyone(app: Flask, demo_catalogue: Flask, accounts: dict[Role, int],
             signed_in: Callable[[Role], FlaskClient]) -> dict[str, FlaskClient]:
    """A client per kind of caller. The viewer's session is forged (the form never opens one for a viewer)."""
    viewer = app.test_client()
    with app.app_context(), transaction():
        account = db.session.get(Account, accounts[Role.VIEWER])
        held = {"id": account.id, "session": open_admin_session(account), "fingerprint": fingerprint(account)}
    with viewer.session_transaction() as session:
        session[SESSION_KEY] = held
    blocked_id = make_account(app, "blocked-editor@example.com", Role.EDITOR)
    blocked = app.test_client()
    assert sign_in(blocked, "blocked-editor@example.com").status_code == 302
    block(app, blocked_id)
    with app.app_context():  # an audit entry for the history's address
        db.session.commit()
    return {"anonymous": app.test_client(), "viewer": viewer, "blocked editor": blocked,
            "editor": signed_in(Role.EDITOR), "admin": signed_in(Role.ADMIN)}


def test_the_refusal_matrix(app: Flask, everyone: dict[str, FlaskClient]):
    """Anonymous, viewer and blocked editor are sent to the sign-in page from every admin address; the editor is
    refused the accounts (403) and nothing else; the administrator nothing; nobody gets a server error. POSTs carry
    no CSRF token: whatever they reach, they change nothing (checked in the CSRF test)."""
    addresses = admin_addresses(app)
    assert len(addresses) > 80  # the whole admin, not a few pages
    wrong = []
    for who, client in everyone.items():
        for method, url in addresses:
            if url in OPEN:
                continue
            response = ask(client, method, url)
            if who in ("anonymous", "viewer", "blocked editor"):
                expected = refused_to_sign_in(response)
            elif who == "editor" and ADMINS_ONLY.match(url):
                expected = response.status_code == 403
            else:  # let in: an answer of the page itself (a lookup without its query may say 404), never a refusal
                expected = response.status_code not in (401, 403) and response.status_code < 500 \
                    and not refused_to_sign_in(response)
            if not expected:
                wrong.append((who, method, url, response.status_code, response.headers.get("Location")))
    assert wrong == [], "\n".join(map(str, wrong))


def test_the_next_address_after_sign_in_stays_in_the_admin(app: Flask, accounts: dict[Role, int]):
    client = app.test_client()
    response = client.get("/admin/genre/")
    assert response.headers["Location"] == "/admin/session/?next=/admin/genre/?"
    token = csrf_of(client, "/admin/session/?next=/admin/genre/")
    response = client.post("/admin/session/?next=/admin/genre/",
                           data={"email": EMAILS[Role.EDITOR], "password": "a long enough passphrase",
                                 "csrf_token": token})
    assert response.headers["Location"] == "/admin/genre/"
    for elsewhere in ("https://evil.example/admin", "//evil.example/admin", "/\\evil.example", "/api/x"):
        client = app.test_client()
        response = client.post(f"/admin/session/?next={elsewhere}", data={
            "email": EMAILS[Role.EDITOR], "password": "a long enough passphrase",
            "csrf_token": csrf_of(client, "/admin/session/")})
        assert response.headers["Location"] == "/admin/", elsewhere


def test_a_wrong_password_and_an_unknown_email_get_one_answer(app: Flask, accounts: dict[Role, int]):
    answers = []
    for email, password in ((EMAILS[Role.EDITOR], "not the password at all"), ("nobody@example.com", "whatever1234")):
        client = app.test_client()
        response = sign_in(client, email, password)
        assert response.status_code == 200
        answers.append(page(response).xpath("//div[contains(@class, 'invalid-feedback')]/text()"))
        assert client.get("/admin/").status_code == 302
    assert answers == [[INVALID_CREDENTIALS], [INVALID_CREDENTIALS]]


def test_a_viewer_is_told_the_admin_is_not_theirs(app: Flask, accounts: dict[Role, int]):
    client = app.test_client()
    response = sign_in(client, EMAILS[Role.VIEWER])
    assert response.status_code == 200
    assert NO_ACCESS in response.get_data(as_text=True)
    assert refused_to_sign_in(client.get("/admin/"))


def test_the_sign_in_form_refuses_a_post_without_its_token(app: Flask, accounts: dict[Role, int]):
    client = app.test_client()
    response = client.post(SIGN_IN, data={"email": EMAILS[Role.EDITOR], "password": "a long enough passphrase"})
    assert response.status_code == 200
    assert "Форма устарела" in response.get_data(as_text=True)
    assert refused_to_sign_in(client.get("/admin/"))


def test_sign_out_needs_its_token_and_ends_the_session(signed_in: Callable[[Role], FlaskClient]):
    client = signed_in(Role.EDITOR)
    client.post("/admin/session/out")  # no token: a link on another site cannot sign the editor out
    assert client.get("/admin/").status_code == 200
    response = post_form(client, "/admin/session/out", {}, form_url="/admin/")
    assert refused_to_sign_in(response) or response.headers["Location"] == SIGN_IN
    assert refused_to_sign_in(client.get("/admin/"))


@pytest.mark.parametrize("change", ["block", "viewer", "password"])
def test_a_session_ends_when_the_account_changes(app: Flask, accounts: dict[Role, int],
                                                signed_in: Callable[[Role], FlaskClient], change: str):
    client = signed_in(Role.EDITOR)
    assert client.get("/admin/content/").status_code == 200
    with app.app_context():
        account = db.session.get(Account, accounts[Role.EDITOR])
        if change == "block":
            block(app, account.id)
        elif change == "viewer":
            account.role = Role.VIEWER
        else:
            from app.services.accounts.accounts import change_password

            change_password(account.id, "a long enough passphrase", "another long passphrase",
                            registry.revocations(app))
        db.session.commit()
    assert refused_to_sign_in(client.get("/admin/content/"))


def test_model_forms_refuse_a_post_without_its_token(app: Flask, demo_catalogue: Flask,
                                                     signed_in: Callable[[Role], FlaskClient]):
    client = signed_in(Role.EDITOR)
    response = client.post("/admin/genre/new/", data={"title": "Без токена", "slug": "bez-tokena"})
    assert response.status_code == 200
    assert [said[:46] for said in flashes(response)] == ["Форма пришла без действующего защитного кода ("]
    response = client.post("/admin/content/delete/", data={"id": "2"})
    response = client.post("/admin/content/action/", data={"action": "unpublish", "rowid": "2"})
    with app.app_context():
        from app.models import Content, Genre

        assert db.session.scalar(db.select(Genre).where(Genre.slug == "bez-tokena")) is None
        content = db.session.get(Content, 2)
        assert content is not None and content.published
