"""Abuse reports (spec §7 ``POST /abuse/new``): a viewer (an account, or an anonymous device identity) reports a
review or a content for a reason of the fixed list (``REASONS``: each says what it may be about), with an optional
comment. One report per reporter and target: reporting again answers the first one (one INSERT … ON CONFLICT DO
NOTHING decides, two requests at once included). The target must be there to see: a published content, a visible
review of one; nobody reports their own review.

Editors work through the open reports (app/admin/moderation.py): hiding a reported review closes every open report
about it; dismissing closes the report; either may carry a note."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from app.clock import now
from app.database import dialect_insert
from app.extensions import db
from app.models import AbuseReason, AbuseReport, AbuseStatus, AbuseTarget, Content, Review
from app.models.abuse import REASONS, TARGET_LABELS
from app.models.ids import storable_id
from app.services.errors import Conflict, Forbidden, Invalid
from app.services.reviews.moderation import set_hidden
from app.services.reviews.reviews import require_published, review_not_found


@dataclass(frozen=True)
class Filed:
    report: AbuseReport
    created: bool  # False: the reporter had reported this target already, and this is that report


def file_report(reporter_key: str, account_id: int | None, target: AbuseTarget, target_id: int,
                reason: AbuseReason, comment: str | None) -> Filed:
    label, targets = REASONS[reason]
    if target not in targets:
        raise Invalid("reason_not_applicable", f"Причина «{label}» не подходит: {TARGET_LABELS[target].lower()}",
                      {"reason": reason.value, "target": target.value})
    content_id, review_id, review_text = _target(target, target_id, account_id)
    statement = dialect_insert(db.session, AbuseReport).values(
        reporter_key=reporter_key, account_id=account_id, target=target, target_id=target_id, content_id=content_id,
        review_id=review_id, review_text=review_text, reason=reason, comment=comment or None,
        status=AbuseStatus.OPEN, created_at=now())
    inserted = db.session.scalar(statement.on_conflict_do_nothing(
        index_elements=["reporter_key", "target", "target_id"]).returning(AbuseReport.id))
    report_id = inserted or db.session.scalar(select(AbuseReport.id).where(
        AbuseReport.reporter_key == reporter_key, AbuseReport.target == target, AbuseReport.target_id == target_id))
    return Filed(db.session.get_one(AbuseReport, report_id), inserted is not None)


def _target(target: AbuseTarget, target_id: int, account_id: int | None) -> tuple[int, int | None, str | None]:
    """(the content, the review, its text) a report is about; NotFound unless it is there to see."""
    if target is AbuseTarget.CONTENT:
        require_published(target_id)
        return target_id, None, None
    row = db.session.execute(
        select(Review.content_id, Review.account_id, Review.text).join(Content, Content.id == Review.content_id)
        .where(Review.id == target_id, Review.hidden_at.is_(None), Content.published)
    ).first() if storable_id(target_id) else None
    if row is None:
        raise review_not_found(target_id)
    if account_id is not None and row.account_id == account_id:
        raise Forbidden("own_review", "Нельзя пожаловаться на свою рецензию", {"reviewId": target_id})
    return row.content_id, target_id, row.text


def hide_reported_review(report: AbuseReport, editor_id: int, note: str | None) -> int:
    """Hides the review ``report`` is about and closes every open report about it (this one with ``note``); how many
    reports it closed. Conflict when the report is about no review (a content's, or one since deleted)."""
    if report.review_id is None:
        raise Conflict("no_review", "Жалоба не на рецензию, или рецензию уже удалили", {"reportId": report.id})
    set_hidden(report.review_id, True)
    others = db.session.scalars(select(AbuseReport).where(
        AbuseReport.review_id == report.review_id, AbuseReport.status == AbuseStatus.OPEN)).all()
    closed = 0
    for each in {report, *others}:
        if each.status is AbuseStatus.OPEN or each is report:
            _close(each, AbuseStatus.REVIEW_HIDDEN, editor_id, note if each is report else None)
            closed += 1
    return closed


def dismiss(report: AbuseReport, editor_id: int, note: str | None) -> None:
    _close(report, AbuseStatus.DISMISSED, editor_id, note)


def _close(report: AbuseReport, status: AbuseStatus, editor_id: int, note: str | None) -> None:
    report.status, report.handled_at, report.handled_by_id = status, now(), editor_id
    if note:
        report.note = note

