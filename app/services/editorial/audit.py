"""The audit trail (app/models/audit.py): what one flush changed, as entries, one per object created, updated or
deleted, with its fields before and after. Called after the flush of a session whose changes someone made in the
admin (app/admin/audit.py), so that every change is recorded, the inline ones (a season, an episode, a rule edited on
its content's page) and the links (genres, countries) too, in the same transaction as the change itself."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import insert, inspect
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import NO_VALUE
from sqlalchemy.orm.state import InstanceState

from app.clock import now
from app.models import Account, AuditAction, AuditEntry

LABEL_LENGTH = 400
SECRET_FIELDS = frozenset({"password_hash", "code_hash"})  # recorded as changed, never with their values
HIDDEN = "•••"
DERIVED_FIELDS = frozenset({"title_sort"})  # kept by the model from another field, whose change the trail records
NOTE = "__revert"  # in an entry's changes: [None, {"entry": id, "whole": bool}], the entry a revert undid (revert.py)


@dataclass(frozen=True)
class Actor:
    """Who made the changes: plain values (the account's row may be expired by a commit, and a flush must not load
    it)."""

    account_id: int
    label: str
    note: dict[str, Any] | None = None  # what the entries of this flush say beside their fields (a revert's)

    @classmethod
    def of(cls, account: Account) -> Actor:
        return cls(account.id, _label(account))


def record_flush(session: Session, actor: Actor) -> int:
    """Insert an entry per object of ``session``'s flush just done (call it from ``after_flush``), made by
    ``actor``; how many."""
    rows = []
    moment = now()
    for action, objects in ((AuditAction.CREATE, session.new), (AuditAction.UPDATE, session.dirty),
                            (AuditAction.DELETE, session.deleted)):
        for obj in objects:
            if isinstance(obj, AuditEntry):
                continue
            changes = _changes(inspect(obj), action)
            if action is AuditAction.UPDATE and not changes:
                continue  # in the session's dirty set, but nothing that is stored changed
            if actor.note is not None:
                changes[NOTE] = [None, actor.note]
            rows.append({"at": moment, "account_id": actor.account_id, "account_label": actor.label, "action": action,
                         "object_type": inspect(obj).mapper.persist_selectable.name,
                         "object_id": _identity(inspect(obj)), "object_label": _label(obj), "changes": changes})
    if rows:
        session.connection().execute(insert(AuditEntry), rows)
    return len(rows)


def record_made(session: Session, actor: Actor, obj: Any) -> None:
    """Records the creation of ``obj``, a row a service inserted by a statement of its own (so that no flush saw it
    new: an account an administrator makes, app/services/accounts/accounts.py ``create_account``), as loaded."""
    state = inspect(obj)
    session.connection().execute(insert(AuditEntry), [{
        "at": now(), "account_id": actor.account_id, "account_label": actor.label, "action": AuditAction.CREATE,
        "object_type": state.mapper.persist_selectable.name, "object_id": _identity(state), "object_label": _label(obj),
        "changes": _changes(state, AuditAction.CREATE)}])


def _changes(state: InstanceState[Any], action: AuditAction) -> dict[str, list[Any]]:
    """{field: [before, after]}: what an update changed; a create's (before null) and a delete's (after null) fields
    as loaded (nothing is loaded for it: a flush must not query)."""
    changes: dict[str, list[Any]] = {}
    for attribute in state.mapper.attrs:
        key = attribute.key
        if key.startswith("_") or key in DERIVED_FIELDS:
            continue
        relation = key in state.mapper.relationships
        if relation and attribute.direction.name == "MANYTOONE":
            continue  # its foreign key column says it, by id; the label would need a query
        history = state.attrs[key].history
        if action is AuditAction.UPDATE:
            if not history.has_changes():
                continue
            before = [*history.unchanged, *history.deleted]
            after = [*history.unchanged, *history.added]
            if not relation:
                before, after = before[:1], after[:1]
        else:
            value = state.attrs[key].loaded_value
            if value is NO_VALUE:
                continue
            current = list(value) if relation else [value]
            before, after = ([], current) if action is AuditAction.CREATE else (current, [])
        pair = [_value(before, relation, action is not AuditAction.CREATE, key),  # a create has no before,
                _value(after, relation, action is not AuditAction.DELETE, key)]  # a delete no after
        if action is AuditAction.UPDATE and pair[0] == pair[1] and key not in SECRET_FIELDS:
            continue  # set again to what it was (a form's Decimal 8.2 over the float 8.2)
        changes[key] = pair
    return changes


def _value(values: list[Any], relation: bool, present: bool, key: str) -> Any:
    if not present:
        return None
    if key in SECRET_FIELDS:
        return HIDDEN if values and values[0] is not None else None
    if relation:
        return sorted(_label(item) for item in values)
    return _json(values[0]) if values else None


def _json(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _identity(state: InstanceState[Any]) -> str:
    """The primary key (after the flush a new object has it, though not yet its identity key)."""
    return ",".join(str(part) for part in state.mapper.primary_key_from_instance(state.obj()))


def _label(obj: Any) -> str:
    return str(obj)[:LABEL_LENGTH]
