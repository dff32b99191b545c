"""Votes on reviews: +1 (helpful) or −1 from any signed-in account but the author, one per account and review;
voting again with the other value changes it, with 0 takes it back. A hidden review takes no votes.

Every vote on a review runs under its row's lock (``locked_review``), taken first: the account's earlier vote is
read, changed and counted (app/services/reviews/totals.py) one request at a time per review, so that the tallies
always equal the votes kept, however many come at once."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select

from app.clock import now
from app.database import dialect_insert
from app.extensions import db
from app.models import Review, ReviewVote
from app.services.errors import Forbidden
from app.services.reviews.reviews import locked_review, require_writer
from app.services.reviews.totals import count_votes


@dataclass(frozen=True)
class Tally:
    review_id: int
    up: int
    down: int
    score: int
    my_vote: int | None

    @property
    def votes(self) -> dict[str, int]:
        return {"up": self.up, "down": self.down, "score": self.score}


def vote(account_id: int, content_id: int, review_id: int, value: int) -> Tally:
    """The account's vote ``value`` (1, −1, or 0 to take it back) on the review; the review's tallies after it."""
    require_writer(account_id)
    review = locked_review(content_id, review_id, viewer_id=-1)  # hidden: not found, whoever asks
    if review.account_id == account_id:
        raise Forbidden("own_review", "Нельзя голосовать за свою рецензию", {"reviewId": review_id})
    before = db.session.scalar(select(ReviewVote.value).where(ReviewVote.review_id == review_id,
                                                              ReviewVote.account_id == account_id)) or 0
    if value != before:
        if value == 0:
            db.session.execute(delete(ReviewVote).where(ReviewVote.review_id == review_id,
                                                        ReviewVote.account_id == account_id))
        else:
            statement = dialect_insert(db.session, ReviewVote).values(
                review_id=review_id, account_id=account_id, value=value, created_at=now())
            db.session.execute(statement.on_conflict_do_update(
                index_elements=["review_id", "account_id"], set_={"value": value, "created_at": now()}))
        count_votes(review_id, int(value == 1) - int(before == 1), int(value == -1) - int(before == -1))
    up, down, score = db.session.execute(
        select(Review.votes_up, Review.votes_down, Review.score).where(Review.id == review_id)).one()
    return Tally(review_id, up, down, score, value or None)
