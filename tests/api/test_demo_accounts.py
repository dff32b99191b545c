"""The demo accounts (docs/accounts.md): one per role, signing in with the documented password; never in
production, where `flask demo seed` (deploy/production.py seeds a production shape's catalogue) leaves them out."""

from __future__ import annotations

import pytest

from app.demo.accounts import DEMO_PASSWORD, seed_accounts
from tests.api.accounts_helpers import bearer, sign_in


def test_the_seed_adds_one_account_per_role_once(app, client):
    with app.app_context():
        assert seed_accounts("development") == 3
        assert seed_accounts("development") == 0  # a second seed adds nothing
    for role in ("admin", "editor", "viewer"):
        tokens = sign_in(client, f"{role}@example.com", DEMO_PASSWORD)
        assert client.get("/user/details", headers=bearer(tokens)).get_json()["role"] == role


def test_no_demo_account_in_production(app, client):
    with app.app_context(), pytest.raises(RuntimeError, match="never in production"):
        seed_accounts("production")
    app.config["ENV"] = "production"
    result = app.test_cli_runner().invoke(args=["demo", "seed"])
    assert result.exit_code == 0, result.output
    assert "demo accounts: none with ENV=production" in result.output
    response = client.post("/authentication", json={"email": "admin@example.com", "password": DEMO_PASSWORD})
    assert response.status_code == 401
