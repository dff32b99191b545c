"""Viewers' reports of abuse (spec §7 ``POST /abuse/new``): a review or a content, a reason from a fixed list, an
optional comment; one per reporter and target. Editors work through them in the admin: hide the review, or dismiss the
report, with a note (each change in the audit trail)."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import Enum, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.extensions import db
from app.models.accounts import Account
from app.models.activity import MAX_VIEWER_KEY
from app.models.catalogue import Content
from app.models.moments import Moment
from app.models.reviews import Review

MAX_COMMENT = 1_000
MAX_NOTE = 2_000


class AbuseTarget(enum.StrEnum):
    REVIEW = "review"
    CONTENT = "content"


class AbuseReason(enum.StrEnum):
    SPAM = "spam"
    INSULT = "insult"
    SPOILER = "spoiler"
    ILLEGAL = "illegal"
    WRONG_INFO = "wrong_info"
    BROKEN = "broken"
    OTHER = "other"


# Each reason: its label (the site's form and the admin show it) and what it may be about.
REASONS: dict[AbuseReason, tuple[str, frozenset[AbuseTarget]]] = {
    AbuseReason.SPAM: ("Спам или реклама", frozenset({AbuseTarget.REVIEW})),
    AbuseReason.INSULT: ("Оскорбления или травля", frozenset({AbuseTarget.REVIEW})),
    AbuseReason.SPOILER: ("Спойлеры без предупреждения", frozenset({AbuseTarget.REVIEW})),
    AbuseReason.ILLEGAL: ("Запрещённые материалы", frozenset({AbuseTarget.REVIEW, AbuseTarget.CONTENT})),
    AbuseReason.WRONG_INFO: ("Неверное описание или данные", frozenset({AbuseTarget.CONTENT})),
    AbuseReason.BROKEN: ("Видео не воспроизводится", frozenset({AbuseTarget.CONTENT})),
    AbuseReason.OTHER: ("Другое", frozenset({AbuseTarget.REVIEW, AbuseTarget.CONTENT})),
}
TARGET_LABELS = {AbuseTarget.REVIEW: "Рецензия", AbuseTarget.CONTENT: "Фильм или сериал"}


class AbuseStatus(enum.StrEnum):
    OPEN = "open"
    REVIEW_HIDDEN = "review_hidden"
    DISMISSED = "dismissed"


STATUS_LABELS = {AbuseStatus.OPEN: "Новая", AbuseStatus.REVIEW_HIDDEN: "Рецензия скрыта",
                 AbuseStatus.DISMISSED: "Отклонена"}


def _enum(kind: type[enum.Enum], name: str) -> Enum:
    return Enum(kind, name=name, values_callable=lambda members: [m.value for m in members], native_enum=False,
                length=16, validate_strings=True, create_constraint=True)


class AbuseReport(db.Model):  # type: ignore[name-defined]
    __tablename__ = "abuse_reports"
    __table_args__ = (
        UniqueConstraint("reporter_key", "target", "target_id"),
        Index("ix_abuse_reports_queue", "status", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # who: "user:{id}" or "dev:{device}" (app/http/viewer.py); the account too, when signed in
    reporter_key: Mapped[str] = mapped_column(String(MAX_VIEWER_KEY))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), index=True)
    target: Mapped[AbuseTarget] = mapped_column(_enum(AbuseTarget, "abuse_target"))
    target_id: Mapped[int] = mapped_column(Integer)  # the review's or the content's id, as reported
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), index=True)
    review_id: Mapped[int | None] = mapped_column(ForeignKey("reviews.id", ondelete="SET NULL"), index=True)
    review_text: Mapped[str | None] = mapped_column(Text)  # the review as it was reported (its author may edit it)
    reason: Mapped[AbuseReason] = mapped_column(_enum(AbuseReason, "abuse_reason"))
    comment: Mapped[str | None] = mapped_column(Text)
    status: Mapped[AbuseStatus] = mapped_column(_enum(AbuseStatus, "abuse_status"), default=AbuseStatus.OPEN)
    note: Mapped[str | None] = mapped_column(Text)  # the editor's
    created_at: Mapped[datetime] = mapped_column(Moment())
    handled_at: Mapped[datetime | None] = mapped_column(Moment())
    handled_by_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))

    account: Mapped[Account | None] = relationship(foreign_keys=[account_id])
    handled_by: Mapped[Account | None] = relationship(foreign_keys=[handled_by_id])
    content: Mapped[Content] = relationship()
    review: Mapped[Review | None] = relationship()

    @property
    def reason_label(self) -> str:
        return REASONS[self.reason][0]

    def __str__(self) -> str:
        return f"Жалоба №{self.id}"
