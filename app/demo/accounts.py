"""The demo's accounts, one per role, all with the password ``demo-password`` (docs/accounts.md). Development
only: ``seed_accounts`` refuses to run with ENV=production."""

from __future__ import annotations

from sqlalchemy import select

from app.clock import now
from app.extensions import db
from app.models import Account, Role
from app.services.accounts.passwords import hash_password

DEMO_PASSWORD = "demo-password"  # noqa: S105 - documented in the README, development only
DEMO_ACCOUNTS = (
    ("admin@example.com", "Администратор", Role.ADMIN),
    ("editor@example.com", "Редактор", Role.EDITOR),
    ("viewer@example.com", "Зритель", Role.VIEWER),
)


def seed_accounts(env: str) -> int:
    """Adds the demo accounts that are missing; returns how many it added."""
    if env == "production":
        raise RuntimeError("the demo accounts have a public password: never in production")
    taken = set(db.session.scalars(select(Account.email).where(Account.email.in_([e for e, _, _ in DEMO_ACCOUNTS]))))
    password_hash = hash_password(DEMO_PASSWORD)
    added = 0
    for email, name, role in DEMO_ACCOUNTS:
        if email not in taken:
            db.session.add(Account(email=email, name=name, role=role, password_hash=password_hash,
                                   confirmed_at=now()))
            added += 1
    db.session.commit()
    return added
