"""One transaction per request (app/transaction.py): a security flow that changes a password or blocks an account and
ends its sessions does both or neither. A failure injected between the two steps (after the first is written, while
the second runs) leaves the password, the block and every session as they were, and the revocation list is never
told of a revocation that was not committed. Refusals that must stay (a wrong code's try, a replayed refresh token's
revocation) are committed with their refusal."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import registry
from app.extensions import db
from app.models import Account, AccountCode, Role
from app.services.accounts import accounts
from app.services.accounts.sessions import revoke_account_sessions
from app.transaction import after_commit, transaction
from tests.api.accounts_helpers import PASSWORD, bearer, make_account, sign_in
from tests.api.test_catalogue_api import assert_error

NEW_PASSWORD = "another long passphrase"


class Injected(RuntimeError):
    """The failure a test puts between two steps of a flow."""


class Told:
    """Records what the revocation list is told, and answers as the real one does."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.added: list[str] = []

    def add(self, session_ids: Iterable[str]) -> None:
        ids = list(session_ids)
        self.added += ids
        self.real.add(ids)

    def contains(self, session_id: str) -> bool:
        return bool(self.real.contains(session_id))


@pytest.fixture
def told(app: Flask) -> Told:
    recorder = Told(registry.revocations(app))
    registry.register_revocations(app, recorder)
    return recorder


@pytest.fixture
def fail_while_revoking(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """After this, ending an account's sessions writes the revocation, then fails."""

    def arm() -> None:
        def revoke_then_fail(*args: Any, **kwargs: Any) -> list[str]:
            revoke_account_sessions(*args, **kwargs)
            raise Injected("between the two steps")

        monkeypatch.setattr(accounts, "revoke_account_sessions", revoke_then_fail)

    return arm


def password_hash(app: Flask, email: str) -> str | None:
    with app.app_context():
        return db.session.scalar(db.select(Account.password_hash).where(Account.email == email))


def still_signed_in(client: FlaskClient, tokens: dict[str, Any]) -> bool:
    return client.get("/user/details", headers=bearer(tokens)).status_code == 200


def test_a_password_change_that_fails_while_ending_the_sessions_changes_nothing(
        app: Flask, client: FlaskClient, told: Told, fail_while_revoking: Callable[[], None]):
    make_account(app, "anna@example.com")
    here, elsewhere = sign_in(client, "anna@example.com"), sign_in(client, "anna@example.com")
    before = password_hash(app, "anna@example.com")
    fail_while_revoking()
    response = client.post("/user/password/change", headers=bearer(here),
                           json={"oldPassword": PASSWORD, "newPassword": NEW_PASSWORD})
    assert response.status_code == 500
    assert password_hash(app, "anna@example.com") == before
    assert still_signed_in(client, elsewhere) and told.added == []
    assert_error(client.post("/authentication", json={"email": "anna@example.com", "password": NEW_PASSWORD}),
                 401, "invalid_credentials")


def test_a_password_change_ends_the_other_sessions_after_its_commit(app: Flask, client: FlaskClient, told: Told):
    make_account(app, "anna@example.com")
    here, elsewhere = sign_in(client, "anna@example.com"), sign_in(client, "anna@example.com")
    response = client.post("/user/password/change", headers=bearer(here),
                           json={"oldPassword": PASSWORD, "newPassword": NEW_PASSWORD})
    assert response.status_code == 204
    assert len(told.added) == 1
    assert still_signed_in(client, here) and not still_signed_in(client, elsewhere)


def test_a_restore_that_fails_while_ending_the_sessions_changes_nothing(
        app: Flask, client: FlaskClient, mailbox: Any, told: Told, fail_while_revoking: Callable[[], None]):
    make_account(app, "anna@example.com")
    session = sign_in(client, "anna@example.com")
    client.post("/user/password/restore/init", json={"email": "anna@example.com"})
    code = mailbox.code_for("anna@example.com")
    before = password_hash(app, "anna@example.com")
    fail_while_revoking()
    response = client.post("/user/password/restore", json={"email": "anna@example.com", "code": code,
                                                          "password": NEW_PASSWORD})
    assert response.status_code == 500
    assert password_hash(app, "anna@example.com") == before
    assert still_signed_in(client, session) and told.added == []
    with app.app_context():  # the code was not spent either: the owner can try again
        assert db.session.scalar(db.select(AccountCode.used_at).order_by(AccountCode.id.desc()).limit(1)) is None


def test_a_block_that_fails_while_ending_the_sessions_changes_nothing(
        app: Flask, client: FlaskClient, told: Told, fail_while_revoking: Callable[[], None]):
    make_account(app, "root@example.com", Role.ADMIN)
    victim_id = make_account(app, "anna@example.com")
    admin, victim = sign_in(client, "root@example.com"), sign_in(client, "anna@example.com")
    fail_while_revoking()
    assert client.post(f"/administration/block-user/{victim_id}", headers=bearer(admin)).status_code == 500
    with app.app_context():
        assert db.session.get(Account, victim_id).blocked_at is None
    assert still_signed_in(client, victim) and told.added == []


def test_a_block_in_the_admin_that_fails_while_ending_the_sessions_changes_nothing(
        app: Flask, told: Told, fail_while_revoking: Callable[[], None]):
    from tests.admin.helpers import post_form
    from tests.admin.helpers import sign_in as sign_in_admin

    make_account(app, "root@example.com", Role.ADMIN)
    victim_id = make_account(app, "anna@example.com")
    victim = sign_in(app.test_client(), "anna@example.com")
    admin = app.test_client()
    assert sign_in_admin(admin, "root@example.com").status_code == 302
    fail_while_revoking()
    response = post_form(admin, "/admin/account/action/", {"action": "block", "rowid": str(victim_id)},
                         form_url="/admin/account/")
    assert response.status_code == 500
    with app.app_context():
        assert db.session.get(Account, victim_id).blocked_at is None
    assert still_signed_in(app.test_client(), victim) and told.added == []


def test_a_wrong_code_costs_its_try_though_the_request_is_refused(app: Flask, client: FlaskClient, mailbox: Any):
    client.post("/signup", json={"email": "anna@example.com", "name": "Анна"})
    code = mailbox.code_for("anna@example.com")
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    assert_error(client.post("/signup/complete", json={"email": "anna@example.com", "code": wrong,
                                                       "password": PASSWORD}), 422, "invalid_code")
    with app.app_context():
        assert db.session.scalar(db.select(AccountCode.attempts)) == 1


def test_a_replayed_refresh_token_ends_its_session_though_the_request_is_refused(
        app: Flask, client: FlaskClient, told: Told, clock: Any):
    make_account(app, "anna@example.com")
    tokens = sign_in(client, "anna@example.com")
    app.config["REFRESH_GRACE_SECONDS"] = 0
    assert client.post("/authentication/refresh", json={"refreshToken": tokens["refreshToken"]}).status_code == 200
    clock.shift(1)  # past the grace window
    assert_error(client.post("/authentication/refresh", json={"refreshToken": tokens["refreshToken"]}),
                 401, "refresh_token_reused")
    assert len(told.added) == 1
    assert not still_signed_in(client, tokens)


def test_effects_run_after_the_commit_and_never_after_a_rollback(app: Flask):
    ran: list[str] = []
    with app.app_context():
        with transaction():
            db.session.add(Account(email="anna@example.com", name="Анна", role=Role.VIEWER))
            after_commit(lambda: ran.append("kept"))
            assert ran == []
        assert ran == ["kept"]
        with pytest.raises(Injected), transaction():
            db.session.add(Account(email="boris@example.com", name="Борис", role=Role.VIEWER))
            after_commit(lambda: ran.append("dropped"))
            raise Injected("rolled back")
        assert ran == ["kept"]
        assert db.session.scalar(db.select(db.func.count()).select_from(Account)) == 1
        with transaction():  # the dropped effect does not come back with the next commit
            db.session.add(Account(email="vera@example.com", name="Вера", role=Role.VIEWER))
        assert ran == ["kept"]


def test_a_failing_effect_leaves_the_commit_standing(app: Flask):
    def fails() -> None:
        raise Injected("after the commit")

    with app.app_context():
        with transaction():
            db.session.add(Account(email="anna@example.com", name="Анна", role=Role.VIEWER))
            after_commit(fails)
        assert db.session.scalar(db.select(db.func.count()).select_from(Account)) == 1
