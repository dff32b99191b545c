"""Sign-in sessions and their refresh tokens: rotation, reuse detection, revocation.

A sign-in opens a session, the family of its refresh tokens. Each refresh spends the token presented and hands out
its successor (rotation). A token spent a moment ago (within the grace window, at most 10 s) gets the same successor
again: two frames or tabs that refresh at once both go on. A token spent before that is a replay, a sign that it
was stolen: the whole session is revoked, and with it every access token that names it (reuse detection, as
OAuth 2.0 Security BCP §4.14 describes it).

The database holds what is revoked; ``Revocations`` (app/http/revocations.py) is where every worker looks it up on
each request: Redis when there is one, the database otherwise.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from sqlalchemy import select, update

from app.extensions import db
from app.models import Account, AuthSession, RefreshToken
from app.services.errors import Unauthenticated

SESSION_ENDED = "Сеанс завершён: войдите снова"
MAX_SUCCESSORS = 5  # how far along a family a token spent within the grace window is followed


class Revocations(Protocol):
    def add(self, session_ids: Iterable[str]) -> None: ...


@dataclass(frozen=True)
class Grant:
    """What a sign-in or a refresh hands out: the account's claims and the refresh token to encode."""

    account_id: int
    role: str
    session_id: str
    refresh: RefreshToken


def open_session(account: Account, refresh_lifetime: timedelta) -> Grant:
    now = _now()
    session = AuthSession(id=_token_id(), account_id=account.id, created_at=now)
    db.session.add(session)
    refresh = _new_refresh(session.id, now, refresh_lifetime)
    db.session.commit()
    return Grant(account.id, account.role.value, session.id, refresh)


def rotate(token_id: str, session_id: str, refresh_lifetime: timedelta, grace: timedelta,
           revocations: Revocations) -> Grant:
    """The grant for a refresh token (its ``jti`` and ``sid`` claims, already verified as signed by us)."""
    now = _now()
    row = db.session.get(RefreshToken, token_id)
    if row is None or row.session_id != session_id:
        raise Unauthenticated("invalid_refresh_token", SESSION_ENDED)
    session = row.session
    account = db.session.get(Account, session.account_id)
    if session.revoked_at is not None or account is None or account.blocked:
        raise Unauthenticated("session_revoked", SESSION_ENDED)
    if row.expires_at <= now:
        raise Unauthenticated("refresh_token_expired", SESSION_ENDED)
    if row.used_at is None:
        successor = _new_refresh(session.id, now, refresh_lifetime)
        spent = db.session.execute(
            update(RefreshToken).where(RefreshToken.id == row.id, RefreshToken.used_at.is_(None))
            .values(used_at=now, successor_id=successor.id)
        )
        if spent.rowcount == 1:  # type: ignore[attr-defined]
            db.session.commit()
            return Grant(account.id, account.role.value, session.id, successor)
        db.session.rollback()  # another request spent it a moment ago: as a second use, below
        db.session.refresh(row)
    used_at = row.used_at if row.used_at else now
    if now - used_at <= grace:
        latest = _latest_successor(row)
        if latest is not None:
            return Grant(account.id, account.role.value, session.id, latest)
    revoke_sessions([session.id], "refresh_reuse", revocations)
    raise Unauthenticated("refresh_token_reused", SESSION_ENDED)


def revoke_sessions(session_ids: Iterable[str], reason: str, revocations: Revocations) -> list[str]:
    ids = list(session_ids)
    if ids:
        db.session.execute(update(AuthSession).where(AuthSession.id.in_(ids), AuthSession.revoked_at.is_(None))
                           .values(revoked_at=_now(), revoked_reason=reason))
        db.session.commit()
        revocations.add(ids)
    return ids


def revoke_account_sessions(account_id: int, reason: str, revocations: Revocations,
                            keep: str | None = None) -> list[str]:
    """Ends every live session of the account (but ``keep``, the caller's own, when given)."""
    query = select(AuthSession.id).where(AuthSession.account_id == account_id, AuthSession.revoked_at.is_(None))
    if keep is not None:
        query = query.where(AuthSession.id != keep)
    return revoke_sessions(db.session.scalars(query).all(), reason, revocations)


def session_revoked(session_id: str) -> bool:
    """The database's answer: revoked, or no such session."""
    row = db.session.execute(select(AuthSession.revoked_at).where(AuthSession.id == session_id)).first()
    return row is None or row.revoked_at is not None


def _latest_successor(row: RefreshToken) -> RefreshToken | None:
    current = row
    for _ in range(MAX_SUCCESSORS):
        if current.successor_id is None:
            return current if current is not row else None
        successor = db.session.get(RefreshToken, current.successor_id)
        if successor is None:
            return None
        current = successor
    return current


def _new_refresh(session_id: str, now: datetime, lifetime: timedelta) -> RefreshToken:
    token = RefreshToken(id=_token_id(), session_id=session_id, csrf=_token_id(), issued_at=now,
                         expires_at=now + lifetime)
    db.session.add(token)
    return token


def _token_id() -> str:
    return uuid.uuid4().hex


def _now() -> datetime:
    # Whole seconds: a refresh token's iat and exp are JWT NumericDates, and a token handed out again must encode
    # to the same string
    return datetime.now(UTC).replace(microsecond=0)
