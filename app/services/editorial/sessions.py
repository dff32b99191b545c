"""The admin's sessions, held on the server: a sign-in to the admin opens a row of ``auth_sessions`` (the accounts'
sessions, app/models/accounts.py; one without refresh tokens), and the admin's cookie only names it. Whatever ends an
account's sessions (a block, a role change, a password change or reset: app/services/accounts/) ends its admin
sessions with them, and the sign-out ends its own, so a copied cookie stops working at once.

Every admin request reads the row, with its account, from the database (one query): the database is the record of
revocations, and the Redis revocation list (app/services/accounts/revocations.py) keeps a revoked session only as
long as an access token lives, while an admin session lives ``ADMIN_SESSION_HOURS``."""

from __future__ import annotations

import uuid
from datetime import timedelta

from sqlalchemy import select

from app.clock import now, now_to_the_second
from app.extensions import db
from app.models import Account, AuthSession
from app.services.accounts.sessions import Revocations, revoke_sessions

SIGNED_OUT = "admin_sign_out"


def open_admin_session(account: Account) -> str:
    """A new session of ``account``; its id, for the admin's cookie."""
    session = AuthSession(id=uuid.uuid4().hex, account_id=account.id, created_at=now_to_the_second())
    db.session.add(session)
    db.session.flush()
    return session.id


def admin_session_account(session_id: str, account_id: int, lifetime: timedelta) -> Account | None:
    """The account of a session opened less than ``lifetime`` ago and not revoked; None for any other."""
    return db.session.scalar(
        select(Account).join(AuthSession, AuthSession.account_id == Account.id)
        .where(AuthSession.id == session_id, Account.id == account_id, AuthSession.revoked_at.is_(None),
               AuthSession.created_at > now() - lifetime))


def close_admin_session(session_id: str, revocations: Revocations) -> None:
    """The sign-out: the session ends on the server (a copy of the cookie opens nothing after it)."""
    revoke_sessions([session_id], SIGNED_OUT, revocations)
