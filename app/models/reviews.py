"""Viewers' reviews of contents and the votes on them (spec §7 "Catalogue: reviews").

One review per account and content (a unique key decides a race of two creates). Each review keeps its votes' tallies
(``votes_up``, ``votes_down``, ``score`` = up − down, what "most helpful first" sorts by), and each content keeps the
count and the sum of the ratings of its visible reviews (``Content.review_count``, ``Content.review_rating_sum``):
counters that the rules (app/services/reviews) change by single ``UPDATE … SET x = x + n`` statements in the
transaction of the change they count, under the review row's lock, so that they stay exact whatever runs at once.
A hidden review (an editor hid it after a report) counts nowhere and is shown to its author alone.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, SmallInteger, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.extensions import db
from app.models.accounts import Account
from app.models.catalogue import Content
from app.models.moments import Moment

MIN_RATING = 1
MAX_RATING = 10
MIN_TEXT = 10  # characters besides surrounding spaces: "Отлично!" is a rating, not a review
MAX_TEXT = 5_000  # 30 KB as JSON's \u escapes at worst: within the API's body limit (MAX_REQUEST_BYTES)


class Review(db.Model):  # type: ignore[name-defined]
    __tablename__ = "reviews"
    __table_args__ = (
        UniqueConstraint("content_id", "account_id"),
        # the two orders of a content's list: newest first, most helpful first (both read backwards)
        Index("ix_reviews_content_newest", "content_id", "created_at", "id"),
        Index("ix_reviews_content_helpful", "content_id", "score", "created_at", "id"),
        CheckConstraint(f"rating BETWEEN {MIN_RATING} AND {MAX_RATING}", name="rating_in_range"),
        CheckConstraint("votes_up >= 0 AND votes_down >= 0", name="votes_not_negative"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    text: Mapped[str] = mapped_column(Text)  # as written; every page that shows it escapes it
    rating: Mapped[int] = mapped_column(SmallInteger)
    votes_up: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    votes_down: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    score: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(Moment())
    updated_at: Mapped[datetime] = mapped_column(Moment())
    edited_at: Mapped[datetime | None] = mapped_column(Moment())  # the author's last change, shown as "edited"
    hidden_at: Mapped[datetime | None] = mapped_column(Moment())  # an editor hid it: out of the list and the counts

    account: Mapped[Account] = relationship()
    content: Mapped[Content] = relationship()

    @property
    def hidden(self) -> bool:
        return self.hidden_at is not None

    def __str__(self) -> str:
        return f"Рецензия №{self.id}"


class ReviewVote(db.Model):  # type: ignore[name-defined]
    """One account's vote on one review: +1 (helpful) or −1."""

    __tablename__ = "review_votes"
    __table_args__ = (CheckConstraint("value IN (-1, 1)", name="value_is_one"),)

    review_id: Mapped[int] = mapped_column(ForeignKey("reviews.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
                                            index=True)
    value: Mapped[int] = mapped_column(SmallInteger)
    created_at: Mapped[datetime] = mapped_column(Moment())
