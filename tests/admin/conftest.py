"""Accounts for the admin tests: one per role, made through the rules, and clients signed in through the form."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.models import Role
from tests.admin.helpers import sign_in
from tests.api.accounts_helpers import make_account

EMAILS = {Role.VIEWER: "viewer@example.com", Role.EDITOR: "editor@example.com", Role.ADMIN: "admin@example.com"}


@pytest.fixture
def accounts(app: Flask) -> dict[Role, int]:
    return {role: make_account(app, email, role) for role, email in EMAILS.items()}


@pytest.fixture
def signed_in(app: Flask, accounts: dict[Role, int]) -> Callable[[Role], FlaskClient]:
    """A new client signed in to the admin as the account of ``role`` (an editor or an administrator)."""

    def client_of(role: Role) -> FlaskClient:
        client = app.test_client()
        response = sign_in(client, EMAILS[role])
        assert response.status_code == 302, response.get_data(as_text=True)[:500]
        return client

    return client_of
