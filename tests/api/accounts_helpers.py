"""Accounts for the API tests: made through the rules (confirmed, with a role), signed in through the API."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from app import registry
from app.models import Role
from app.services.accounts.accounts import create_account, set_blocked
from app.transaction import transaction

PASSWORD = "a long enough passphrase"


def make_account(app: Flask, email: str, role: Role = Role.VIEWER, password: str = PASSWORD) -> int:
    with app.app_context(), transaction():
        account = create_account(email, email.split("@")[0], password, role)
        return account.id


def block(app: Flask, account_id: int) -> None:
    with app.app_context(), transaction():
        set_blocked(account_id, True, 0, registry.revocations(app))


def sign_in(client: FlaskClient, email: str, password: str = PASSWORD, **kwargs: Any) -> dict[str, Any]:
    response = client.post("/authentication", json={"email": email, "password": password}, **kwargs)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def bearer(tokens: dict[str, Any] | str) -> dict[str, str]:
    token = tokens if isinstance(tokens, str) else tokens["accessToken"]
    return {"Authorization": f"Bearer {token}"}
