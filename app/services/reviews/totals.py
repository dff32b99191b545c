"""The counters a review change moves: a content's count and rating sum of its visible reviews, a review's vote
tallies. Each is one ``UPDATE … SET x = x + n`` in the transaction of the change it counts: two transactions that
count at once both land, whatever order the database runs them in (PostgreSQL re-reads the row a waiting UPDATE
changes; SQLite runs one writer at a time)."""

from __future__ import annotations

from sqlalchemy import update

from app.extensions import db
from app.models import Content, Review


def count_review(content_id: int, count: int, rating_sum: int) -> None:
    """Adds ``count`` reviews (negative: takes them away) with ratings summing to ``rating_sum`` to the content's
    totals. Its ``updated_at`` stays: a review is no editorial change (the sitemaps' lastmod reads it)."""
    if count == 0 and rating_sum == 0:
        return
    db.session.execute(
        update(Content).where(Content.id == content_id)
        .values(review_count=Content.review_count + count, review_rating_sum=Content.review_rating_sum + rating_sum,
                updated_at=Content.updated_at)
        .execution_options(synchronize_session=False)
    )


def count_votes(review_id: int, up: int, down: int) -> None:
    """Adds ``up`` helpful and ``down`` unhelpful votes (either may be negative) to the review's tallies."""
    if up == 0 and down == 0:
        return
    db.session.execute(
        update(Review).where(Review.id == review_id)
        .values(votes_up=Review.votes_up + up, votes_down=Review.votes_down + down, score=Review.score + up - down)
        .execution_options(synchronize_session=False)
    )
