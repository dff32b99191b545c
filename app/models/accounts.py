"""Accounts: who can sign in, with which role; the codes mailed to them; their sign-in sessions and refresh tokens;
their subscriptions and the payment provider's events about them.

A session is one sign-in (one device or browser): a family of refresh tokens, each used once and replaced by the next
(rotation). Revoking a session (sign-out elsewhere, a password change, a block) ends every token of the family.
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import Enum, ForeignKey, Index, Integer, String, func, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.extensions import db
from app.models.moments import Moment

MAX_EMAIL = 254  # RFC 5321's limit on a forward path
MAX_NAME = 100
# A new password's length (app/services/accounts/passwords.py has the other rules): NIST SP 800-63B asks for at least 8;
# 10 with a common-password check and no composition rules. The upper bound limits the work one sign-in asks of the
# hasher.
PASSWORD_MIN_LENGTH = 10
PASSWORD_MAX_LENGTH = 128
TOKEN_ID = 32  # uuid4 hex: session and refresh token ids are unguessable, never sequential
MAX_USER_AGENT = 300  # what a session keeps of the browser's User-Agent


class Role(enum.StrEnum):
    """Who may do what; each role may do what the ones below it may (viewer < editor < admin)."""

    VIEWER = "viewer"
    EDITOR = "editor"
    ADMIN = "admin"

    @property
    def rank(self) -> int:
        return _ROLE_ORDER.index(self)

    def admits(self, held: Role | str | None) -> bool:
        """Whether ``held`` (a role, its value, or nothing) is this role or one above it."""
        try:
            return held is not None and Role(held).rank >= self.rank
        except ValueError:  # not a role at all (a token's forged claim)
            return False


_ROLE_ORDER = (Role.VIEWER, Role.EDITOR, Role.ADMIN)


def normalise_email(email: str) -> str:
    """How an email is stored and looked up: without surrounding spaces, lower-cased."""
    return email.strip().lower()


class CodePurpose(enum.StrEnum):
    SIGNUP = "signup"
    RESTORE = "restore"


class SubscriptionStatus(enum.StrEnum):
    PENDING = "pending"
    ACTIVE = "active"
    CANCELLED = "cancelled"


def _enum(kind: type[enum.Enum], name: str) -> Enum:
    # Stored as their values ("viewer") in a short string with a CHECK, alike on SQLite and PostgreSQL (no type to
    # alter when a value is added)
    return Enum(kind, name=name, values_callable=lambda members: [m.value for m in members], native_enum=False,
                length=16, validate_strings=True, create_constraint=True)


class Account(db.Model):  # type: ignore[name-defined]
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(MAX_EMAIL), unique=True)  # normalise_email's
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    # argon2id (services/accounts/passwords.py); none until the sign-up is confirmed: the password comes with the code
    password_hash: Mapped[str | None] = mapped_column(String(255))
    role: Mapped[Role] = mapped_column(_enum(Role, "account_role"), default=Role.VIEWER)
    created_at: Mapped[datetime] = mapped_column(Moment(), server_default=func.now())
    confirmed_at: Mapped[datetime | None] = mapped_column(Moment())
    blocked_at: Mapped[datetime | None] = mapped_column(Moment())

    subscriptions: Mapped[list[Subscription]] = relationship(
        back_populates="account", order_by="Subscription.id.desc()", cascade="all, delete-orphan"
    )

    @property
    def confirmed(self) -> bool:
        return self.confirmed_at is not None

    @property
    def blocked(self) -> bool:
        return self.blocked_at is not None

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"


class AccountCode(db.Model):  # type: ignore[name-defined]
    """A code mailed to an account: single use, until ``expires_at``, at most a few wrong tries. Only its hash is kept.
    No password travels with a code: who uses it sends the password (a sign-up's, a restore's) along."""

    __tablename__ = "account_codes"
    __table_args__ = (Index("ix_account_codes_account_id_purpose", "account_id", "purpose"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    purpose: Mapped[CodePurpose] = mapped_column(_enum(CodePurpose, "code_purpose"))
    code_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(Moment())
    expires_at: Mapped[datetime] = mapped_column(Moment())
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    used_at: Mapped[datetime | None] = mapped_column(Moment())


class AuthSession(db.Model):  # type: ignore[name-defined]
    """One sign-in: the family of its refresh tokens. Access tokens name it (claim ``sid``)."""

    __tablename__ = "auth_sessions"

    id: Mapped[str] = mapped_column(String(TOKEN_ID), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(Moment())
    # What the account's list of sessions shows: the browser that signed in (its User-Agent, cut to
    # MAX_USER_AGENT), and when the session was last used to get tokens (the sign-in, then each refresh).
    user_agent: Mapped[str | None] = mapped_column(String(MAX_USER_AGENT))
    last_seen_at: Mapped[datetime | None] = mapped_column(Moment())
    revoked_at: Mapped[datetime | None] = mapped_column(Moment())
    revoked_reason: Mapped[str | None] = mapped_column(String(32))


class RefreshToken(db.Model):  # type: ignore[name-defined]
    """One refresh token of a session (its JWT's ``jti``). Used once: ``successor_id`` is the token that replaced it,
    handed out again to a second use within the grace window, and a use after that revokes the session."""

    __tablename__ = "refresh_tokens"

    id: Mapped[str] = mapped_column(String(TOKEN_ID), primary_key=True)
    session_id: Mapped[str] = mapped_column(ForeignKey("auth_sessions.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(TOKEN_ID))  # its double-submit value (flask-jwt-extended)
    issued_at: Mapped[datetime] = mapped_column(Moment())
    expires_at: Mapped[datetime] = mapped_column(Moment())
    used_at: Mapped[datetime | None] = mapped_column(Moment())
    successor_id: Mapped[str | None] = mapped_column(String(TOKEN_ID))

    session: Mapped[AuthSession] = relationship()


PENDING_ONLY = text("status = 'pending'")


class Subscription(db.Model):  # type: ignore[name-defined]
    """A plan an account asked for (pending), paid for (active until ``active_until``) or cancelled. At most one
    pending per account and plan, held by a partial unique index: a repeated request answers that one
    (app/services/accounts/subscriptions.py), so an account keeps at most as many pending rows as there are plans."""

    __tablename__ = "subscriptions"
    __table_args__ = (Index("ux_subscriptions_pending_plan", "account_id", "plan", unique=True,
                            sqlite_where=PENDING_ONLY, postgresql_where=PENDING_ONLY),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    plan: Mapped[str] = mapped_column(String(32))
    status: Mapped[SubscriptionStatus] = mapped_column(
        _enum(SubscriptionStatus, "subscription_status"), default=SubscriptionStatus.PENDING
    )
    created_at: Mapped[datetime] = mapped_column(Moment())
    active_until: Mapped[datetime | None] = mapped_column(Moment())
    cancelled_at: Mapped[datetime | None] = mapped_column(Moment())

    account: Mapped[Account] = relationship(back_populates="subscriptions")


class PaymentEvent(db.Model):  # type: ignore[name-defined]
    """An event of the payment provider, once: a repeat of its ``event_id`` changes nothing."""

    __tablename__ = "payment_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(String(128), unique=True)
    subscription_id: Mapped[int] = mapped_column(ForeignKey("subscriptions.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    received_at: Mapped[datetime] = mapped_column(Moment())
