"""The admin's session is held on the server (issue 30, hole 5): a sign-in opens a row of auth_sessions and the cookie
names it, so a copied cookie ends with the sign-out, a block, a role change and a password change, whatever the
cookie's own signature and age say."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import time_machine
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import Account, AuthSession, Role
from tests.admin.conftest import EMAILS
from tests.admin.helpers import csrf_of, post_form, sign_in
from tests.api.accounts_helpers import PASSWORD, bearer
from tests.api.accounts_helpers import sign_in as api_sign_in

SIGN_IN = "/admin/session/"


def copy_of(app: Flask, client: FlaskClient) -> FlaskClient:
    """Another browser holding the same admin cookie (stolen, or kept from before a sign-out)."""
    cookie = client.get_cookie("session", path="/admin")
    assert cookie is not None
    other = app.test_client()
    other.set_cookie("session", cookie.value, path="/admin")
    return other


def let_in(client: FlaskClient) -> bool:
    response = client.get("/admin/content/")
    if response.status_code == 200:
        return True
    assert response.status_code == 302 and response.headers["Location"].startswith(SIGN_IN), response.status_code
    return False


def sessions_of(app: Flask, account_id: int) -> list[tuple[str, str | None]]:
    """(id, why it ended) of every session of the account, oldest first."""
    with app.app_context():
        rows = db.session.execute(select(AuthSession.id, AuthSession.revoked_reason)
                                  .where(AuthSession.account_id == account_id).order_by(AuthSession.created_at))
        return [(row.id, row.revoked_reason) for row in rows]


def test_a_sign_in_opens_a_session_on_the_server(app: Flask, accounts: dict[Role, int],
                                                 signed_in: Callable[[Role], FlaskClient]):
    signed_in(Role.EDITOR)
    assert [reason for _, reason in sessions_of(app, accounts[Role.EDITOR])] == [None]


def test_a_copied_cookie_ends_with_the_sign_out(app: Flask, accounts: dict[Role, int],
                                                signed_in: Callable[[Role], FlaskClient]):
    client = signed_in(Role.EDITOR)
    kept = copy_of(app, client)
    assert let_in(kept)
    response = post_form(client, "/admin/session/out", {}, form_url="/admin/")
    assert response.headers["Location"] == SIGN_IN
    assert not let_in(client)
    assert not let_in(kept)  # the cookie is still well signed and young: the server says no
    assert [reason for _, reason in sessions_of(app, accounts[Role.EDITOR])] == ["admin_sign_out"]


def test_signing_in_again_ends_the_session_the_browser_held(app: Flask, accounts: dict[Role, int],
                                                            signed_in: Callable[[Role], FlaskClient]):
    client = signed_in(Role.EDITOR)
    kept = copy_of(app, client)
    response = client.post(SIGN_IN, data={"email": EMAILS[Role.ADMIN], "password": PASSWORD,  # another account
                                          "csrf_token": csrf_of(client, "/admin/")})
    assert response.status_code == 302
    assert not let_in(kept)
    assert let_in(client)
    assert [reason for _, reason in sessions_of(app, accounts[Role.EDITOR])] == ["admin_sign_out"]


def block_in_the_admin(admin: FlaskClient, account_id: int) -> None:
    response = admin.post("/admin/account/action/", data={"action": "block", "rowid": str(account_id),
                                                            "csrf_token": csrf_of(admin, "/admin/account/")})
    assert response.status_code == 302


def make_admin_in_the_admin(admin: FlaskClient, account_id: int) -> None:
    url = f"/admin/account/edit/?id={account_id}"
    response = post_form(admin, url, {"name": "editor", "role": "admin"})
    assert response.status_code == 302, response.get_data(as_text=True)[:300]


def change_password_in_the_api(app: Flask, _admin: FlaskClient, account_id: int) -> None:
    client = app.test_client()
    tokens = api_sign_in(client, EMAILS[Role.EDITOR])
    response = client.post("/user/password/change", headers=bearer(tokens),
                           json={"oldPassword": PASSWORD, "newPassword": "another long passphrase"})
    assert response.status_code == 204, response.get_json()


@pytest.mark.parametrize("change", ["block", "promotion", "password"])
def test_a_copied_cookie_ends_when_the_account_changes(app: Flask, accounts: dict[Role, int],
                                                       signed_in: Callable[[Role], FlaskClient], change: str):
    """A block and a role change made in the admin, and a password changed through the API, end every admin session
    of the account on the server (a promotion too: the session was opened for another role)."""
    editor = signed_in(Role.EDITOR)
    kept = copy_of(app, editor)
    admin = signed_in(Role.ADMIN)
    account_id = accounts[Role.EDITOR]
    [(admin_session, _)] = sessions_of(app, account_id)
    if change == "block":
        block_in_the_admin(admin, account_id)
    elif change == "promotion":
        make_admin_in_the_admin(admin, account_id)
    else:
        change_password_in_the_api(app, admin, account_id)
    assert not let_in(editor)
    assert not let_in(kept)
    reasons = {"block": "blocked", "promotion": "role_changed", "password": "password_change"}
    assert dict(sessions_of(app, account_id))[admin_session] == reasons[change]
    if change == "promotion":  # signed in again, the promoted editor is an administrator
        again = app.test_client()
        assert sign_in(again, EMAILS[Role.EDITOR]).status_code == 302
        assert again.get("/admin/account/").status_code == 200


def test_a_session_ends_on_the_server_after_its_hours(app: Flask, accounts: dict[Role, int],
                                                      signed_in: Callable[[Role], FlaskClient],
                                                      clock: time_machine.Traveller):
    client = signed_in(Role.EDITOR)
    clock.shift(app.config["PERMANENT_SESSION_LIFETIME"].total_seconds() - 60)
    assert let_in(client)
    clock.shift(120)
    assert not let_in(client)


def test_a_forged_session_of_a_viewer_is_refused(app: Flask, accounts: dict[Role, int]):
    """A cookie naming a live session of a viewer (made here as the form never would) opens nothing."""
    from app.admin.access import SESSION_KEY, fingerprint
    from app.services.editorial.sessions import open_admin_session
    from app.transaction import transaction

    with app.app_context(), transaction():
        account = db.session.get(Account, accounts[Role.VIEWER])
        held = {"id": account.id, "session": open_admin_session(account), "fingerprint": fingerprint(account)}
    client = app.test_client()
    with client.session_transaction() as session:
        session[SESSION_KEY] = held
    assert not let_in(client)
