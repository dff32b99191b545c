"""Passwords (issue 18): argon2id at OWASP's parameters, rehashed on sign-in when they change, and the rules a new
password must meet. A password is never logged, returned or kept in memory longer than the call."""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from app.models.accounts import PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH

# OWASP Password Storage Cheat Sheet, argon2id: 19 MiB of memory, 2 iterations, 1 degree of parallelism
HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1, hash_len=32, salt_len=16, type=Type.ID)
MIN_LENGTH, MAX_LENGTH = PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH
COMMON_PASSWORDS = Path(__file__).resolve().parents[2] / "data" / "common-passwords.txt.gz"

TOO_SHORT = f"Пароль должен быть не короче {MIN_LENGTH} символов"
TOO_LONG = f"Пароль должен быть не длиннее {MAX_LENGTH} символов"
TOO_COMMON = "Этот пароль слишком распространён, выберите другой"
LIKE_EMAIL = "Пароль не должен совпадать с адресом почты"


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    with gzip.open(COMMON_PASSWORDS, "rt", encoding="utf-8") as lines:
        return frozenset(line.strip() for line in lines if line.strip())


def password_problem(password: str, email: str | None = None) -> str | None:
    """Why a new password is refused (in the viewer's language), or None."""
    if len(password) < MIN_LENGTH:
        return TOO_SHORT
    if len(password) > MAX_LENGTH:
        return TOO_LONG
    folded = password.strip().lower()
    if folded in common_passwords():
        return TOO_COMMON
    if email and folded in {email.strip().lower(), email.strip().lower().split("@", 1)[0]}:
        return LIKE_EMAIL
    return None


def hash_password(password: str) -> str:
    return HASHER.hash(password)


# Verified against when an account does not exist, so that an unknown email costs the same time as a wrong password
_DUMMY = HASHER.hash("an account that does not exist")


def verify_password(stored: str | None, password: str) -> tuple[bool, str | None]:
    """(whether `password` matches `stored`, a new hash to store when the parameters changed since). With no stored
    hash (an unknown account) it does the same work and answers no."""
    try:
        ok = HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False, None
    if ok and stored is not None and HASHER.check_needs_rehash(stored):
        return True, hash_password(password)
    return ok, None
