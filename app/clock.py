"""The one clock: every rule and record that needs the time asks ``now()``, so that a test can hold or move time for
all of them at once (time-machine, tests/conftest.py ``clock``) instead of sleeping."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    """This moment, timezone-aware, in UTC."""
    return datetime.now(UTC)


def now_to_the_second() -> datetime:
    """This moment without its microseconds: what a JWT's NumericDate keeps (a token handed out again must encode to
    the same string)."""
    return now().replace(microsecond=0)
