"""9e3b5f0a7c21: the pending subscriptions an account piled up for one plan (issue 30, 13: a row per request) become
one, the newest; the others are cancelled, not deleted (a payment in flight for one still finds it)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from app import create_app
from app.extensions import db

BEFORE = "4a9d2c7e1b35"


def test_the_newest_pending_one_per_plan_stays_and_the_rule_holds_after(make_database):
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("subscriptions")})
    with app.app_context():
        upgrade(revision=BEFORE)
        with db.engine.begin() as connection:
            connection.execute(sa.text("INSERT INTO accounts (id, email, name, role) VALUES "
                                       "(1, 'a@example.com', 'A', 'viewer'), (2, 'b@example.com', 'B', 'viewer')"))
            connection.execute(sa.text(
                "INSERT INTO subscriptions (id, account_id, plan, status, created_at) VALUES "
                "(1, 1, 'month', 'pending', CURRENT_TIMESTAMP), (2, 1, 'month', 'active', CURRENT_TIMESTAMP), "
                "(3, 1, 'month', 'pending', CURRENT_TIMESTAMP), (4, 1, 'year', 'pending', CURRENT_TIMESTAMP), "
                "(5, 1, 'month', 'pending', CURRENT_TIMESTAMP), (6, 2, 'month', 'pending', CURRENT_TIMESTAMP)"))
        upgrade()
        with db.engine.connect() as connection:
            rows = connection.execute(sa.text(
                "SELECT id, status, cancelled_at IS NOT NULL FROM subscriptions ORDER BY id")).all()
        assert [tuple(row) for row in rows] == [
            (1, "cancelled", True), (2, "active", False), (3, "cancelled", True), (4, "pending", False),
            (5, "pending", False), (6, "pending", False)]
        with db.engine.connect() as connection:
            with pytest.raises(sa.exc.IntegrityError) as refused:  # a second pending one for account 1's month
                connection.execute(sa.text("INSERT INTO subscriptions (id, account_id, plan, status, created_at) "
                                           "VALUES (100, 1, 'month', 'pending', CURRENT_TIMESTAMP)"))
            connection.rollback()
        # the index's refusal (SQLite names its columns, PostgreSQL the index), not the primary key's
        assert "ux_subscriptions_pending_plan" in str(refused.value) or "subscriptions.plan" in str(refused.value)
        downgrade(revision=BEFORE)  # and back
        with db.engine.begin() as connection:
            connection.execute(sa.text("INSERT INTO subscriptions (id, account_id, plan, status, created_at) "
                                       "VALUES (101, 1, 'month', 'pending', CURRENT_TIMESTAMP)"))
        db.engine.dispose()
