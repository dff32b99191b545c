"""Accounts in the admin, for administrators: search, a role changed (the account's API tokens end with it), block
and unblock (its sessions end), and nobody changes their own role or blocks themselves. Editors have no way in (the
refusal matrix, tests/admin/test_access.py): an editor cannot make anyone an administrator, themselves included."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from app.extensions import db
from app.models import Account, AuditEntry, Role
from tests.admin.conftest import EMAILS
from tests.admin.helpers import csrf_of, flashes, page, post_form
from tests.api.accounts_helpers import bearer
from tests.api.accounts_helpers import sign_in as api_sign_in


def edit_account(client: FlaskClient, account_id: int, role: Role, name: str = "viewer") -> object:
    return client.post(f"/admin/account/edit/?id={account_id}", data={
        "name": name, "role": role.value, "csrf_token": csrf_of(client, f"/admin/account/edit/?id={account_id}")})


def test_an_administrator_finds_accounts_by_email(accounts: dict[Role, int], signed_in: Callable[[Role], FlaskClient]):
    admin = signed_in(Role.ADMIN)
    listed = page(admin.get("/admin/account/?search=viewer@"))
    assert [" ".join(cell.split()) for cell in listed.xpath("//td[contains(@class, 'col-email')]/text()")] == [
        EMAILS[Role.VIEWER]]
    assert "Зритель" in listed.xpath("//td[contains(@class, 'col-role')]/text()")[0]


def test_a_role_change_ends_the_accounts_api_sessions_and_is_recorded(
        app: Flask, accounts: dict[Role, int], signed_in: Callable[[Role], FlaskClient]):
    api = app.test_client()
    tokens = api_sign_in(api, EMAILS[Role.VIEWER])
    assert api.get("/user/details", headers=bearer(tokens)).status_code == 200
    admin = signed_in(Role.ADMIN)
    response = edit_account(admin, accounts[Role.VIEWER], Role.EDITOR)
    assert response.status_code == 302, flashes(response)
    with app.app_context():
        assert db.session.get(Account, accounts[Role.VIEWER]).role is Role.EDITOR
        entry = db.session.scalar(db.select(AuditEntry).where(AuditEntry.object_type == "accounts"))
        assert entry.changes["role"] == ["viewer", "editor"] and entry.account_label.endswith("<admin@example.com>")
    assert api.get("/user/details", headers=bearer(tokens)).status_code == 401  # its token said "viewer"


def test_nobody_changes_their_own_role(app: Flask, accounts: dict[Role, int],
                                       signed_in: Callable[[Role], FlaskClient]):
    admin = signed_in(Role.ADMIN)
    response = edit_account(admin, accounts[Role.ADMIN], Role.VIEWER, name="admin")
    assert "Свою роль изменить нельзя: попросите другого администратора." in flashes(response)
    with app.app_context():
        assert db.session.get(Account, accounts[Role.ADMIN]).role is Role.ADMIN


def test_block_and_unblock_from_the_list(app: Flask, accounts: dict[Role, int],
                                         signed_in: Callable[[Role], FlaskClient]):
    editor = signed_in(Role.EDITOR)
    admin = signed_in(Role.ADMIN)
    response = post_form(admin, "/admin/account/action/", {"action": "block", "rowid": [
        str(accounts[Role.EDITOR]), str(accounts[Role.ADMIN])]}, form_url="/admin/account/")
    said = flashes(admin.get(response.headers["Location"]))
    assert "Нельзя заблокировать свою учётную запись" in said and "Заблокировано: 1." in said
    assert editor.get("/admin/").status_code == 302  # the blocked editor is signed out at once
    with app.app_context():
        assert db.session.get(Account, accounts[Role.EDITOR]).blocked
    post_form(admin, "/admin/account/action/", {"action": "unblock", "rowid": [str(accounts[Role.EDITOR])]},
              form_url="/admin/account/")
    with app.app_context():
        assert not db.session.get(Account, accounts[Role.EDITOR]).blocked


def test_an_editor_cannot_reach_any_role(app: Flask, accounts: dict[Role, int],
                                         signed_in: Callable[[Role], FlaskClient]):
    editor = signed_in(Role.EDITOR)
    for target in (accounts[Role.EDITOR], accounts[Role.VIEWER]):
        response = editor.post(f"/admin/account/edit/?id={target}", data={"name": "x", "role": "admin"})
        assert response.status_code == 403
    with app.app_context():
        assert db.session.get(Account, accounts[Role.EDITOR]).role is Role.EDITOR
        assert db.session.get(Account, accounts[Role.VIEWER]).role is Role.VIEWER
