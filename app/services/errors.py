"""The errors a rule raises when it says no. They know nothing of HTTP: app/errors.py answers each kind with its
status, and its ``code``, ``message`` and ``details`` become the JSON error (or the player's error screen)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class DomainError(Exception):
    """A rule refused. ``code`` is stable (clients branch on it), ``message`` is for people (in Russian). ``fields``:
    the input fields the refusal is about, each given the message in ``details["fields"]`` (the one shape of field
    errors, app/errors.py). ``keep_changes``: what the rule wrote before refusing is part of the refusal (a wrong code
    costs a try, a replayed token ends its session), so the transaction commits it (app/transaction.py); otherwise a
    refusal leaves nothing behind."""

    def __init__(self, code: str, message: str, details: dict[str, Any] | None = None, *,
                 fields: Iterable[str] = (), keep_changes: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        named = {name: [message] for name in fields}
        self.details = {**(details or {}), "fields": named} if named else details
        self.keep_changes = keep_changes

    @property
    def fields(self) -> dict[str, list[str]]:
        """The messages of each field the refusal names (none when it is about no field)."""
        return dict((self.details or {}).get("fields") or {})


class NotFound(DomainError):
    """What was asked for does not exist (or is not this caller's to see)."""


class Conflict(DomainError):
    """The request contradicts what is stored (a taken name, a stale version)."""


class Invalid(DomainError):
    """The input breaks a rule that a schema cannot see."""


class Forbidden(DomainError):
    """The caller may not do this."""


class Unauthenticated(DomainError):
    """The caller could not be told who they are: wrong credentials, a revoked or reused token, a bad signature."""
