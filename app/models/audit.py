"""The audit trail: every create, update and delete made in the admin, with who, when, which object and its fields
before and after. Rows are only ever added (app/services/editorial/audit.py); the admin shows them and offers no way to
edit or delete them. Who and which object are also kept as text, so that an entry still reads right after the account or
the object is gone."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Enum, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.extensions import db
from app.models.accounts import Account
from app.models.moments import Moment


class AuditAction(enum.StrEnum):
    CREATE = "create"
    UPDATE = "update"
    DELETE = "delete"


class AuditEntry(db.Model):  # type: ignore[name-defined]
    __tablename__ = "audit_entries"
    __table_args__ = (Index("ix_audit_entries_object", "object_type", "object_id", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(Moment(), index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), index=True)
    account_label: Mapped[str] = mapped_column(String(400))  # "name <email>" when the change was made
    action: Mapped[AuditAction] = mapped_column(Enum(
        AuditAction, name="audit_action", values_callable=lambda members: [m.value for m in members],
        native_enum=False, length=16, validate_strings=True, create_constraint=True))
    object_type: Mapped[str] = mapped_column(String(64))  # the table: contents, genres, accounts…
    object_id: Mapped[str] = mapped_column(String(64))
    object_label: Mapped[str] = mapped_column(String(400))  # what the object was called then
    # {field: [before, after]}: an update's changed fields; a create's every field (before null); a delete's (after
    # null). Values as JSON: text, numbers, booleans, lists of names for relations, ISO 8601 for times.
    changes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)

    account: Mapped[Account | None] = relationship()

    def __str__(self) -> str:
        return f"{self.object_label} ({self.action.value})"
