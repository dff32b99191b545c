"""Accounts (spec §7 "Authenticator"): sign-up with a mailed code, sign-in, restoring and changing a password, the
account's own details, and what administrators do with accounts.

No answer tells whether an email has an account: a sign-up for a taken email answers as a new one (and mails the
owner instead), a restore for an unknown email answers as for a known one, and a sign-in with an unknown email does
the work of a wrong password. Rules that mail something return the ``Mail`` to send; the caller sends it after the
commit and after its answer, so that no mail names a code that was not stored, and no answer waits on the mail server
(nor is any faster for an email that gets none).

Like every service, these change rows and flush; the request commits (app/transaction.py). A password set and the
end of the account's sessions are one transaction: either both happen or neither.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, or_, select, update

from app.clock import now
from app.database import dialect_insert
from app.extensions import db
from app.models import Account, AccountCode, CodePurpose, Role
from app.models.accounts import normalise_email
from app.services.accounts.passwords import hash_password, password_problem, verify_password
from app.services.accounts.sessions import Revocations, revoke_account_sessions
from app.services.errors import Conflict, Forbidden, Invalid, NotFound, Unauthenticated

INVALID_CREDENTIALS = "Неверный адрес почты или пароль"
BLOCKED = "Учётная запись заблокирована"
INVALID_CODE = "Неверный или устаревший код"
WRONG_OLD_PASSWORD = "Текущий пароль указан неверно"  # noqa: S105 - a message
CODE_DIGITS = 6


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str


@dataclass(frozen=True)
class CodeRules:
    """How long a mailed code lasts and how many wrong tries it takes (ACCOUNT_CODE_*)."""

    lifetime: timedelta = timedelta(minutes=30)
    attempts: int = 5


def find_account(email: str) -> Account | None:
    return db.session.scalar(select(Account).where(Account.email == normalise_email(email)))


def get_account(account_id: int) -> Account:
    account = db.session.get(Account, account_id)
    if account is None:
        raise NotFound("account_not_found", "Учётная запись не найдена", {"id": account_id})
    return account


# Sign-up


def sign_up(email: str, name: str, rules: CodeRules) -> Mail:
    """An unconfirmed account (or the unconfirmed one there is, renamed) and a code mailed to it, which replaces any
    earlier one. No password yet: it comes with the code (``complete_sign_up``), so only who reads the mailbox chooses
    it, and nobody else's sign-up for this email, before or after the owner's, ends with an account whose password
    they know. For an email with a confirmed account: nothing changes and its owner is told someone tried."""
    email = normalise_email(email)
    account = find_account(email)
    if account is not None and account.confirmed:
        return Mail(email, "Попытка регистрации", "Кто-то попытался зарегистрироваться с вашим адресом почты. Если "
                    "это вы и вы забыли пароль, восстановите его на странице входа. Если нет, ничего делать не нужно.")
    if account is None:  # one statement: two sign-ups of one email at once make one account
        db.session.execute(dialect_insert(db.session, Account).values(email=email, name=name.strip(), role=Role.VIEWER)
                           .on_conflict_do_nothing())
        account = db.session.scalars(select(Account).where(Account.email == email)).one()  # ours or the other's
    account.name = name.strip()
    code = _new_code(account, CodePurpose.SIGNUP, rules)
    return Mail(email, "Код подтверждения", f"Ваш код подтверждения: {code}\n"
                f"Он действует {int(rules.lifetime.total_seconds() // 60)} минут. Введите его на странице регистрации "
                "вместе с паролем. Если вы не регистрировались, просто не отвечайте на это письмо.")


def complete_sign_up(email: str, code: str, password: str, rules: CodeRules, name: str | None = None) -> Account:
    """Confirms the account with the mailed code and sets the password sent with it (and the name, when one is sent).
    A weak password is refused before the code is looked at, so it costs no try. A wrong, used, expired or exhausted
    code, or an unknown email, is the same refusal."""
    email = normalise_email(email)
    _refuse_weak(password, email)
    account, _ = _use_code(find_account(email), CodePurpose.SIGNUP, code, rules)
    if not account.confirmed:
        account.password_hash = hash_password(password)
        account.confirmed_at = now()
        if name is not None:
            account.name = name.strip()
    return account


# Sign-in and passwords


def authenticate(email: str, password: str) -> Account:
    """The account these credentials open. An unknown email, an unconfirmed one (it has no password until its code is
    used) and a wrong password are one refusal, for the same work (a dummy hash is verified). Only with the right
    password is an account said to be blocked."""
    account = find_account(email)
    stored = account.password_hash if account is not None and account.confirmed else None
    ok, rehashed = verify_password(stored, password)
    if not ok or account is None:
        raise Unauthenticated("invalid_credentials", INVALID_CREDENTIALS)
    if account.blocked:
        raise Forbidden("account_blocked", BLOCKED)
    if rehashed:  # the hasher's parameters changed since this hash was made
        account.password_hash = rehashed
    return account


def start_restore(email: str, rules: CodeRules) -> Mail | None:
    """A code that sets a new password, mailed to a confirmed account; None (nothing to mail) for any other email."""
    account = find_account(email)
    if account is None or not account.confirmed or account.blocked:
        return None
    code = _new_code(account, CodePurpose.RESTORE, rules)
    return Mail(account.email, "Восстановление пароля", f"Код для нового пароля: {code}\n"
                f"Он действует {int(rules.lifetime.total_seconds() // 60)} минут. Если вы не просили восстановить "
                "пароль, ничего делать не нужно: ваш пароль не изменился.")


def restore_password(email: str, code: str, password: str, rules: CodeRules, revocations: Revocations) -> Account:
    """Sets the password a restore code was mailed for, and ends every session of the account."""
    _refuse_weak(password, normalise_email(email))  # before the lookup: the same answer for an unknown email
    account, _ = _use_code(find_account(email), CodePurpose.RESTORE, code, rules)
    account.password_hash = hash_password(password)
    revoke_account_sessions(account.id, "password_reset", revocations)
    return account


def change_password(account_id: int, old_password: str, new_password: str, revocations: Revocations,
                    keep_session: str | None = None) -> Account:
    """Sets the new password, and ends every session of the account but ``keep_session`` (the caller's own)."""
    account = get_account(account_id)
    ok, _ = verify_password(account.password_hash, old_password)
    if not ok:
        raise Forbidden("wrong_password", WRONG_OLD_PASSWORD)
    _refuse_weak(new_password, account.email)
    account.password_hash = hash_password(new_password)
    revoke_account_sessions(account.id, "password_change", revocations, keep=keep_session)
    return account


def rename(account_id: int, name: str) -> Account:
    account = get_account(account_id)
    account.name = name.strip()
    return account


# Administration


@dataclass(frozen=True)
class Page:
    items: list[Account]
    total: int
    page: int
    page_size: int


def search_accounts(query: str | None, role: Role | None, blocked: bool | None, page: int, page_size: int) -> Page:
    """Accounts whose email or name contains ``query`` (any case), newest first."""
    where = []
    if query and query.strip():
        pattern = "%" + query.strip().lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where.append(or_(Account.email.like(pattern, escape="\\"), func.lower(Account.name).like(pattern, escape="\\")))
    if role is not None:
        where.append(Account.role == role)
    if blocked is not None:
        where.append(Account.blocked_at.is_not(None) if blocked else Account.blocked_at.is_(None))
    total = db.session.scalar(select(func.count()).select_from(Account).where(*where)) or 0
    items = db.session.scalars(
        select(Account).where(*where).order_by(Account.id.desc()).limit(page_size).offset((page - 1) * page_size)
    ).all()
    return Page(list(items), total, page, page_size)


def create_account(email: str, name: str, password: str, role: Role) -> Account:
    """An account an administrator makes: confirmed at once."""
    email = normalise_email(email)
    _refuse_weak(password, email)
    if find_account(email) is not None:
        raise Conflict("email_taken", "Этот адрес почты уже занят", fields=["email"])
    made = db.session.scalar(
        dialect_insert(db.session, Account)
        .values(email=email, name=name.strip(), role=role, password_hash=hash_password(password), confirmed_at=now())
        .on_conflict_do_nothing()
        .returning(Account.id)
    )
    if made is None:  # the same email a moment ago
        raise Conflict("email_taken", "Этот адрес почты уже занят", fields=["email"])
    return get_account(made)


def set_role(email: str, role: Role, revocations: Revocations) -> tuple[Account, bool]:
    """Gives the account of ``email`` the role (an operator's command, app/cli.py); whether it changed. A change ends
    every session of the account: its tokens carry the old role."""
    account = find_account(email)
    if account is None:
        raise NotFound("account_not_found", "Учётная запись не найдена", {"email": normalise_email(email)})
    if account.role == role:
        return account, False
    account.role = role
    revoke_account_sessions(account.id, "role_changed", revocations)
    return account, True


def set_blocked(account_id: int, blocked: bool, by_account_id: int, revocations: Revocations) -> Account:
    """Blocks (or unblocks) an account; a block ends every session of it at once. Nobody blocks themselves (unblocking
    oneself is a no-op: a blocked account cannot ask)."""
    if blocked and account_id == by_account_id:
        raise Conflict("cannot_block_self", "Нельзя заблокировать свою учётную запись")
    account = get_account(account_id)
    if blocked and account.blocked_at is None:
        account.blocked_at = now()
    elif not blocked:
        account.blocked_at = None
    if blocked:
        revoke_account_sessions(account.id, "blocked", revocations)
    return account


# Codes


def _refuse_weak(password: str, email: str) -> None:
    problem = password_problem(password, email)
    if problem:
        raise Invalid("weak_password", problem, fields=["password"])


def _code_hash(account_id: int, purpose: CodePurpose, code: str) -> str:
    return hashlib.sha256(f"{account_id}:{purpose.value}:{code}".encode()).hexdigest()


def _new_code(account: Account, purpose: CodePurpose, rules: CodeRules) -> str:
    """A new code for ``purpose``; the account's earlier ones for it stop working."""
    moment = now()
    db.session.execute(
        update(AccountCode)
        .where(AccountCode.account_id == account.id, AccountCode.purpose == purpose, AccountCode.used_at.is_(None))
        .values(used_at=moment)
    )
    code = f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
    db.session.add(AccountCode(
        account_id=account.id, purpose=purpose, code_hash=_code_hash(account.id, purpose, code),
        created_at=moment, expires_at=moment + rules.lifetime, attempts=0,
    ))
    return code


def _live_code(account: Account, purpose: CodePurpose, rules: CodeRules) -> AccountCode | None:
    return db.session.scalar(
        select(AccountCode)
        .where(AccountCode.account_id == account.id, AccountCode.purpose == purpose, AccountCode.used_at.is_(None),
               AccountCode.expires_at > now(), AccountCode.attempts < rules.attempts)
        .order_by(AccountCode.id.desc())
        .limit(1)
    )


def _use_code(account: Account | None, purpose: CodePurpose, code: str,
              rules: CodeRules) -> tuple[Account, AccountCode]:
    """Spends the account's live code for ``purpose`` if ``code`` is it; a wrong one costs a try. One statement marks
    it used, so two requests with the same code cannot both succeed. The try a wrong code costs stays spent: the
    refusal keeps it (``keep_changes``)."""
    row = _live_code(account, purpose, rules) if account is not None else None
    if row is None or account is None:
        raise Invalid("invalid_code", INVALID_CODE, fields=["code"])
    if not hmac.compare_digest(row.code_hash, _code_hash(account.id, purpose, code)):
        db.session.execute(update(AccountCode).where(AccountCode.id == row.id)
                           .values(attempts=AccountCode.attempts + 1))
        raise Invalid("invalid_code", INVALID_CODE, fields=["code"], keep_changes=True)
    spent = db.session.execute(
        update(AccountCode).where(AccountCode.id == row.id, AccountCode.used_at.is_(None)).values(used_at=now())
    )
    if spent.rowcount != 1:  # type: ignore[attr-defined]  # another request spent it a moment ago
        raise Invalid("invalid_code", INVALID_CODE, fields=["code"])
    return account, row
