"""The audit trail as editors read it (issue 31): fields by their Russian names, a related row by its name instead of
its id ("Тип: Фильм → Сериал", "№7 (удалён)" when it is gone), enums and booleans in words, times in Moscow time, a
relation's rows by name, a password as "изменён", and a revert said as such. The trail keeps JSON
(app/services/editorial/audit.py); what it says is made here, when it is read, from the rows as they are now."""

from __future__ import annotations

from typing import Any

from flask import g
from markupsafe import Markup, escape
from sqlalchemy import Boolean

from app.admin.accounts import ROLE_LABELS
from app.admin.ads import AD_FIELDS, POSITIONS
from app.admin.catalogue import AGE_RATINGS, RULE_KINDS
from app.admin.labels import FIELDS
from app.admin.moments import shown
from app.admin.titles import TITLE_KINDS
from app.extensions import db
from app.models import AuditAction, AuditEntry
from app.models.moments import Moment
from app.services.editorial.audit import HIDDEN, NOTE
from app.services.editorial.revert import mapper_of, row_label

ACTIONS = {AuditAction.CREATE.value: "создан", AuditAction.UPDATE.value: "изменён", AuditAction.DELETE.value: "удалён"}
# The words of a field's stored values, by table and field (None: any table)
WORDS: dict[tuple[str | None, str], dict[Any, str]] = {
    ("availability_rules", "kind"): dict(RULE_KINDS),
    ("alternative_titles", "kind"): dict(TITLE_KINDS),
    ("ad_placements", "position"): dict(POSITIONS),
    ("accounts", "role"): {role.value: label for role, label in ROLE_LABELS.items()},
    ("contents", "age_rating"): {int(value): label for value, label in AGE_RATINGS if value},
    ("redirects", "status"): {301: "301: навсегда", 302: "302: временно", 307: "307: временно", 308: "308: навсегда"},
}
LABELS = {**AD_FIELDS, **FIELDS, "person_id": "Персона", "person_type_id": "Роль в фильме",
          "category_id": "Категория", "id": "Номер", "enabled": "Включено", "vast_url": "Внешний VAST",
          "wrapper_depth": "Обёрток", "position": "Порядок", "content_type_id": "Тип", "mime_type": "Тип файла"}

# A field one table names otherwise than the others (``kind`` is an availability rule's «Правило»)
TABLE_LABELS: dict[tuple[str | None, str], str] = {("alternative_titles", "kind"): "Какое это название"}


def field_label(field: str, table: str | None = None) -> str:
    return TABLE_LABELS.get((table, field)) or LABELS.get(field, field)


def changes(entry: AuditEntry) -> Markup:
    """The fields before → after, one per line, each value escaped; a revert's note first."""
    lines = []
    note = (entry.changes or {}).get(NOTE)
    if note and isinstance(note[1], dict):
        lines.append(Markup('<div class="editorial-revert-note">{}</div>').format(revert_note(note[1])))
    table = entry.object_type
    for field, pair in sorted((entry.changes or {}).items(), key=lambda item: field_label(item[0], table)):
        if field.startswith("__") or not isinstance(pair, list) or len(pair) != 2:
            continue
        before, after = (value(table, field, item) for item in pair)
        lines.append(Markup("<div><b>{}</b>: {} → {}</div>").format(field_label(field, table), before, after))
    return Markup("").join(lines)


def revert_note(note: dict[str, Any]) -> str:
    whole = "возврат к состоянию после записи" if note.get("whole") else "откат изменения"
    return f"Это {whole} №{note.get('entry')} журнала."


def value(table: str, field: str, stored: Any) -> Markup:
    """One stored value as editors read it."""
    if stored is None:
        return Markup('<span class="text-muted">—</span>')
    if stored == HIDDEN:
        return Markup("изменён")
    if isinstance(stored, list):
        return escape(", ".join(str(item) for item in stored) or "пусто")
    words = WORDS.get((table, field)) or WORDS.get((None, field))
    if words is not None and stored in words:
        return escape(words[stored])
    column = _column(table, field)
    if isinstance(stored, bool) or (column is not None and isinstance(column.type, Boolean)):
        return escape("да" if stored else "нет")
    if column is not None and isinstance(column.type, Moment) and isinstance(stored, str):
        try:
            return escape(shown(stored))
        except ValueError:
            return escape(stored)
    if column is not None and column.foreign_keys and not isinstance(stored, bool):
        return escape(_name(next(iter(column.foreign_keys)).column.table.name, stored))
    if isinstance(stored, float):
        return escape(f"{stored:g}".replace(".", ","))
    return escape(str(stored))


def _column(table: str, field: str) -> Any:
    found = db.metadata.tables.get(table)
    return None if found is None else found.columns.get(field)


def _name(table: str, row_id: Any) -> str:
    """A related row's name now (read once a request), or its number when it is gone."""
    names = g.setdefault("audit_names", {})
    key = (table, row_id)
    if key not in names:
        names[key] = row_label(db.session(), table, row_id) if mapper_of(table) is not None else None
    return names[key] if names[key] is not None else f"№{row_id} (удалён)"
