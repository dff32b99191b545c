"""One transaction per request, admin hook, CLI command or job: services change rows and flush, never commit; the
edge commits once, in ``transaction()``. Flask's dispatch of every view runs inside one (app/__init__.py), so a view
commits nothing itself; a CLI command or work done after the answer opens its own.

Effects that must follow the commit, never precede it (a revocation written to Redis, a mail with a code), are
registered with ``after_commit`` and run once the commit succeeded; a rollback drops them. A refusal that must keep
what led to it (a wrong code costs a try, a replayed refresh token ends its session) is a domain error raised with
``keep_changes=True``: the transaction commits, then the error goes on to its answer.

A rule that may lose a race for a unique key decides it in one statement (INSERT … ON CONFLICT, UPDATE … WHERE:
app/database.py ``dialect_insert``), never with a rollback that would undo the rest of the request's work."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from app.extensions import db
from app.services.errors import DomainError

log = logging.getLogger(__name__)
_EFFECTS = "effects_after_commit"
_OPEN = "transaction_open"


def after_commit(effect: Callable[[], object]) -> None:
    """Runs ``effect`` once the current transaction has committed (at once when no transaction is under way); never
    when it rolls back. An effect that fails is logged: what was committed stays committed."""
    db.session.info.setdefault(_EFFECTS, []).append(effect)
    if not db.session().in_transaction():
        _run_effects(db.session())


@contextmanager
def transaction() -> Iterator[None]:
    """Commits once when the block ends; rolls back when it raises (but for a domain error that keeps its changes).
    Inside another ``transaction()`` it is part of that one: the outermost commits."""
    session = db.session
    if session.info.get(_OPEN):
        yield
        return
    session.info[_OPEN] = True
    try:
        yield
    except DomainError as refusal:
        if refusal.keep_changes:
            session.commit()
        else:
            session.rollback()
        raise
    except BaseException:
        session.rollback()
        raise
    else:
        if session().in_transaction():  # (a request that never used the session, the player page's, has none to end)
            session.commit()
    finally:
        session.info.pop(_OPEN, None)


def _run_effects(session: Session) -> None:
    effects: list[Callable[[], object]] = session.info.pop(_EFFECTS, [])
    for effect in effects:
        try:
            effect()
        except Exception:
            log.exception("an effect after a commit failed (the commit stands)")


def _drop_effects(session: Session, *_args: Any) -> None:
    session.info.pop(_EFFECTS, None)


def register_effects() -> None:
    """Every session runs its effects after its commit and drops them at a rollback (once per process)."""
    if not event.contains(Session, "after_commit", _run_effects):
        event.listen(Session, "after_commit", _run_effects)
        event.listen(Session, "after_rollback", _drop_effects)
