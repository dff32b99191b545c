"""Sign-in sessions and their refresh tokens: rotation, reuse detection, revocation.

A sign-in opens a session, the family of its refresh tokens. Each refresh spends the token presented and hands out
its successor (rotation). A token spent a moment ago (within the grace window, at most 10 s) gets the same successor
again: two frames or tabs that refresh at once both go on. A token spent before that is a replay, a sign that it
was stolen: the whole session is revoked, and with it every access token that names it (reuse detection, as
OAuth 2.0 Security BCP §4.14 describes it).

The database holds what is revoked; ``Revocations`` (app/services/accounts/revocations.py) is where every worker
looks it up on each request: Redis when there is one, the database otherwise. A revocation reaches it after the
commit (app/transaction.py ``after_commit``): never for a change that was rolled back.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import select, update

from app.clock import now_to_the_second
from app.extensions import db
from app.models import Account, AuthSession, RefreshToken
from app.models.accounts import MAX_USER_AGENT, TOKEN_ID
from app.services.errors import NotFound, Unauthenticated
from app.transaction import after_commit

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


def open_session(account: Account, refresh_lifetime: timedelta, user_agent: str | None = None) -> Grant:
    now = now_to_the_second()
    session = AuthSession(id=_token_id(), account_id=account.id, created_at=now, last_seen_at=now,
                          user_agent=(user_agent or None) and user_agent[:MAX_USER_AGENT])
    db.session.add(session)
    refresh = _new_refresh(session.id, now, refresh_lifetime)
    return Grant(account.id, account.role.value, session.id, refresh)


def rotate(token_id: str, session_id: str, refresh_lifetime: timedelta, grace: timedelta,
           revocations: Revocations) -> Grant:
    """The grant for a refresh token (its ``jti`` and ``sid`` claims, already verified as signed by us). A replay
    revokes the session, and the refusal keeps that revocation."""
    now = now_to_the_second()
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
        successor_id = _token_id()
        spent = db.session.execute(  # one statement: of two requests spending it at once, one wins
            update(RefreshToken).where(RefreshToken.id == row.id, RefreshToken.used_at.is_(None))
            .values(used_at=now, successor_id=successor_id)
        )
        if spent.rowcount == 1:  # type: ignore[attr-defined]
            session.last_seen_at = now
            successor = _new_refresh(session.id, now, refresh_lifetime, successor_id)
            return Grant(account.id, account.role.value, session.id, successor)
        db.session.refresh(row)  # another request spent it a moment ago: as a second use, below
    used_at = row.used_at if row.used_at else now
    if now - used_at <= grace:
        latest = _latest_successor(row)
        if latest is not None:
            return Grant(account.id, account.role.value, session.id, latest)
    revoke_sessions([session.id], "refresh_reuse", revocations)
    raise Unauthenticated("refresh_token_reused", SESSION_ENDED, keep_changes=True)


def revoke_sessions(session_ids: Iterable[str], reason: str, revocations: Revocations) -> list[str]:
    """Marks the sessions revoked; the revocation list hears of them once that is committed."""
    ids = list(session_ids)
    if ids:
        db.session.execute(update(AuthSession).where(AuthSession.id.in_(ids), AuthSession.revoked_at.is_(None))
                           .values(revoked_at=now_to_the_second(), revoked_reason=reason))
        after_commit(lambda: revocations.add(ids))
    return ids


def revoke_account_sessions(account_id: int, reason: str, revocations: Revocations,
                            keep: str | None = None) -> list[str]:
    """Ends every live session of the account (but ``keep``, the caller's own, when given)."""
    query = select(AuthSession.id).where(AuthSession.account_id == account_id, AuthSession.revoked_at.is_(None))
    if keep is not None:
        query = query.where(AuthSession.id != keep)
    return revoke_sessions(db.session.scalars(query).all(), reason, revocations)


def live_sessions(account_id: int) -> list[AuthSession]:
    """The account's sessions that can still get tokens (not revoked, a refresh token not yet expired), the last
    used first."""
    live_token = select(RefreshToken.id).where(RefreshToken.session_id == AuthSession.id,
                                               RefreshToken.expires_at > now_to_the_second())
    return list(db.session.scalars(
        select(AuthSession).where(AuthSession.account_id == account_id, AuthSession.revoked_at.is_(None),
                                  live_token.exists())
        .order_by(AuthSession.last_seen_at.desc().nulls_last(), AuthSession.created_at.desc())))


def end_session(account_id: int, session_id: str, reason: str, revocations: Revocations) -> None:
    """Ends one live session of the account; NotFound for any other id (another account's is no different from
    none)."""
    row = db.session.get(AuthSession, session_id) if len(session_id) <= TOKEN_ID else None
    if row is None or row.account_id != account_id or row.revoked_at is not None:
        raise NotFound("session_not_found", "Сеанс не найден", {"sessionId": session_id[:TOKEN_ID]})
    revoke_sessions([session_id], reason, revocations)


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


def _new_refresh(session_id: str, now: datetime, lifetime: timedelta, token_id: str | None = None) -> RefreshToken:
    # whole seconds: a refresh token's iat and exp are JWT NumericDates, and one handed out again must encode the same
    token = RefreshToken(id=token_id or _token_id(), session_id=session_id, csrf=_token_id(), issued_at=now,
                         expires_at=now + lifetime)
    db.session.add(token)
    return token


def _token_id() -> str:
    return uuid.uuid4().hex
