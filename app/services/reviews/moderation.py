"""Hiding a review (an editor, after a report: app/services/abuse/reports.py) and showing it again. A hidden review
leaves the content's list and its counts; its author still sees it, marked hidden. Changed through the ORM, so that
the admin's audit trail records who hid it and when."""

from __future__ import annotations

from sqlalchemy import select

from app.clock import now
from app.extensions import db
from app.models import Review
from app.services.errors import NotFound
from app.services.reviews.reviews import NOT_FOUND
from app.services.reviews.totals import count_review


def set_hidden(review_id: int, hidden: bool) -> Review:
    """Hides the review or shows it again (either may be repeated); its content's counts follow."""
    review = db.session.scalars(select(Review).where(Review.id == review_id).with_for_update()
                                .execution_options(populate_existing=True)).first()
    if review is None:
        raise NotFound("review_not_found", NOT_FOUND, {"reviewId": review_id})
    if review.hidden != hidden:
        sign = -1 if hidden else 1
        count_review(review.content_id, sign, sign * review.rating)
        review.hidden_at = now() if hidden else None
        db.session.flush()
    return review
