"""Reverting from the audit trail (issue 31): one change put back, or an object brought back to a point in its history.

Both work on the object as it is now, through the ORM, so that the flush that follows is recorded in the trail like
any edit (app/services/editorial/audit.py: the entry says which entry it reverts). What the trail keeps is JSON (text,
numbers, booleans, ISO 8601 times, enum values, a relation as the names of its rows); each value goes back into its
column's type. Refused, with nothing changed:

- the object is gone (a deleted row is not raised again here: its children and links went with it);
- a row a value names is gone (a type, a season, a genre of that name), naming the field;
- for one change, a field it changed has changed again since (bringing the object back to a point in its history is
  the way to undo several changes at once);
- a creation (undone by deleting the object, on its page, which asks first) or a change with nothing left to revert.

A relation to the object's own children (a content's seasons and rules, a creative's files) is not reverted with it:
each child has its own history, and its own revert. Passwords are never reverted (the trail keeps no value)."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import Enum, Numeric, inspect, select
from sqlalchemy.orm import Mapper, Session

from app.extensions import db
from app.models import AuditAction, AuditEntry
from app.models.ids import storable_id
from app.models.moments import Moment
from app.services.editorial.audit import SECRET_FIELDS
from app.services.errors import Conflict, Invalid, NotFound

GONE = "Этого объекта больше нет: откатывать нечего."
NOT_AN_UPDATE = "Откатить можно изменение. Созданную запись удалите на её странице, удалённую создайте заново."
NOTHING = "Откатывать нечего: объект уже в этом состоянии."
CHANGED_SINCE = "С тех пор эти поля менялись ещё раз: {fields}. Верните объект к нужной точке истории."
REFERENCE_GONE = "Поле «{field}»: «{value}» больше нет, откатить нельзя."
BROKEN_HISTORY = "История объекта прерывалась (его удаляли): откатите изменения по одному."


def mapper_of(table: str) -> Mapper[Any] | None:
    """The mapped class's mapper of a table (the trail names tables)."""
    for mapper in db.Model.registry.mappers:  # type: ignore[attr-defined]
        if mapper.persist_selectable.name == table and mapper.class_.__tablename__ == table:
            return mapper
    return None


def find_row(session: Session, table: str, row_id: Any) -> Any | None:
    """The row of ``table`` whose key is ``row_id`` (as the trail keeps it: "7", or "2,5" for a key of two columns),
    or None."""
    mapper = mapper_of(table)
    if mapper is None or row_id is None:
        return None
    parts = str(row_id).split(",")
    if len(parts) != len(mapper.primary_key):
        return None
    try:
        key = tuple(column.type.python_type(part) for column, part in zip(mapper.primary_key, parts, strict=True))
    except (ValueError, NotImplementedError):
        return None
    if any(isinstance(part, int) and not storable_id(part) for part in key):
        return None
    return session.get(mapper.class_, key[0] if len(key) == 1 else key)


def row_label(session: Session, table: str, row_id: Any) -> str | None:
    """What the row of ``table`` with the key ``row_id`` is called now, or None when it is gone."""
    row = find_row(session, table, row_id)
    return None if row is None else str(row)


def revert_change(session: Session, entry: AuditEntry, labels: dict[str, str]) -> list[str]:
    """Puts back what ``entry`` (an update) changed; the fields not reverted (children), by name."""
    if entry.action is not AuditAction.UPDATE:
        raise Invalid("not_revertable", NOT_AN_UPDATE)
    target = _object(session, entry)
    wanted = {field: pair[0] for field, pair in (entry.changes or {}).items() if not field.startswith("__")}
    state = inspect(target)
    since = [field for field, (_before, after) in (entry.changes or {}).items()
             if _revertable(state.mapper, field) and _stored(target, field) != after]
    if since:
        raise Conflict("changed_since", CHANGED_SINCE.format(fields=", ".join(
            f"«{labels.get(field, field)}»" for field in since)), fields=since)
    return _apply(session, target, wanted, labels)


def revert_to(session: Session, entry: AuditEntry, labels: dict[str, str]) -> list[str]:
    """Brings the object back to what it was right after ``entry``: every field a later entry changed takes the value
    it had before the first of them; the fields not reverted (children), by name."""
    target = _object(session, entry)
    after = (AuditEntry.at > entry.at) | ((AuditEntry.at == entry.at) & (AuditEntry.id > entry.id))
    later = session.scalars(
        select(AuditEntry).where(AuditEntry.object_type == entry.object_type, AuditEntry.object_id == entry.object_id,
                                 after).order_by(AuditEntry.at, AuditEntry.id)).all()
    if any(step.action is not AuditAction.UPDATE for step in later):
        raise Conflict("broken_history", BROKEN_HISTORY)
    wanted: dict[str, Any] = {}
    for step in later:
        for field, (before, _after) in (step.changes or {}).items():
            if not field.startswith("__"):
                wanted.setdefault(field, before)
    wanted = {field: value for field, value in wanted.items() if _stored(target, field) != value}
    if not wanted:
        raise Invalid("nothing_to_revert", NOTHING)
    return _apply(session, target, wanted, labels)


def _object(session: Session, entry: AuditEntry) -> Any:
    found = find_row(session, entry.object_type, entry.object_id)
    if found is None:
        raise NotFound("object_gone", GONE)
    return found


def _revertable(mapper: Mapper[Any], field: str) -> bool:
    """A column, or a many-to-many link (not a secret, not the object's own children)."""
    if field in SECRET_FIELDS:
        return False
    if field in mapper.relationships:
        return mapper.relationships[field].secondary is not None
    return field in mapper.columns


def _stored(target: Any, field: str) -> Any:
    """The field's value now, as the trail would keep it (for comparing)."""
    state = inspect(target)
    if field in state.mapper.relationships:
        return sorted(str(item) for item in getattr(target, field) or ())
    if field not in state.mapper.columns or field in SECRET_FIELDS:
        return None
    value = getattr(target, field)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    return float(value) if isinstance(value, float) else value


def _apply(session: Session, target: Any, wanted: dict[str, Any], labels: dict[str, str]) -> list[str]:
    """Every value read back and checked first, then set: a refusal leaves the object as it was."""
    mapper = inspect(target).mapper
    skipped, values = [], {}
    for field, value in wanted.items():
        if not _revertable(mapper, field):
            if field in mapper.relationships or field in SECRET_FIELDS:
                skipped.append(field)  # its own children (they have their own history), or a secret
        elif field in mapper.relationships:
            values[field] = _rows_named(session, mapper.relationships[field].mapper.class_, value or [], field,
                                        labels.get(field, field))
        else:
            values[field] = _typed(session, mapper.columns[field], value, labels.get(field, field))
    for field, value in values.items():
        setattr(target, field, value)
    session.flush()
    return skipped


def _typed(session: Session, column: Any, value: Any, label: str) -> Any:
    """A value of the trail back in its column's type; a row it names must still be there."""
    if value is None:
        return None
    kind = column.type
    if isinstance(kind, Enum) and kind.enum_class is not None:
        return kind.enum_class(value)
    if isinstance(kind, Moment):
        return datetime.fromisoformat(value)
    if isinstance(kind, Numeric):
        return float(value)
    for key in column.foreign_keys:
        if mapper_of(key.column.table.name) is not None and find_row(session, key.column.table.name, value) is None:
            raise NotFound("reference_gone", REFERENCE_GONE.format(field=label, value=f"№{value}"),
                           fields=[column.key])
    return value


def _rows_named(session: Session, model: Any, names: Iterable[str], field: str, label: str) -> list[Any]:
    """The rows called ``names`` now (the trail keeps a relation as its rows' names); each must be one row."""
    rows: dict[str, list[Any]] = {}
    for row in session.scalars(select(model)):
        rows.setdefault(str(row), []).append(row)
    found = []
    for name in names:
        matching = rows.get(name, [])
        if len(matching) != 1:
            raise NotFound("reference_gone", REFERENCE_GONE.format(field=label, value=name), fields=[field])
        found.append(matching[0])
    return found
