"""Reviews and votes under concurrency, on PostgreSQL (where requests really run at once): many accounts voting on one
review at the same moment, changing and taking back their votes, each sending its vote twice at once; one account
racing itself to write the same review; many accounts writing reviews of one content at once. Every request answers
(no 500, no 503), and the counters (a review's tallies, a content's count and rating sum) equal what is stored."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from app import create_app
from app.database import unhurried
from app.extensions import db
from app.models import Content, Review, ReviewVote
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.reviews_helpers import FILM, TEXT, reviews_path, write_review
from tests.conftest import empty_tables

pytestmark = pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                                reason="SQLite runs one writer at a time: the races need PostgreSQL")
VOTERS = 24
RACERS = 2 * VOTERS  # the most requests a test sends at once: each voter's vote twice


@pytest.fixture
def racing_app(migrated_database: str, assets_built: Path) -> Iterator[Flask]:
    """An application whose pool holds an open connection for each racing request (as that many workers would, each
    with its own), and which waits for one long enough on a loaded test machine: the race is about the counts, not
    the pool. Opened one after another beforehand: 24 threads connecting at once on a loaded 2-core machine have
    outrun psycopg's 2 s connect timeout, and that is a storm of connections, not this race."""
    app = create_app({"TESTING": True, "DATABASE_URL": migrated_database, "DB_POOL_SIZE": RACERS,
                      "DB_POOL_TIMEOUT_MS": 10_000, "DB_STATEMENT_TIMEOUT_MS": 10_000})
    from app.demo.seed import seed_demo

    with app.app_context(), unhurried(app, db.engine):
        seed_demo()
        db.session.commit()
    with app.app_context():
        opened = [db.engine.connect() for _ in range(RACERS)]
        for connection in opened:
            connection.close()  # back to the pool, open
    yield app
    with app.app_context():
        empty_tables()
        db.session.remove()
        db.engine.dispose()


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Runs every call in a thread of its own, all released together; their results in order."""
    start = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        start.wait()
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def accounts(app: Flask, prefix: str, count: int) -> list[dict[str, str]]:
    found = []
    for number in range(count):
        email = f"{prefix}{number}@example.com"
        make_account(app, email)
        found.append(bearer(sign_in(app.test_client(), email)))
    return found


def stored_votes(app: Flask, review_id: int) -> tuple[tuple[int, int, int], tuple[int, int]]:
    """(the review's tallies, the votes kept: (up, down))."""
    with app.app_context():
        review = db.session.get_one(Review, review_id)
        tallies = (review.votes_up, review.votes_down, review.score)
        up, down = (db.session.scalar(select(func.count()).select_from(ReviewVote)
                                      .where(ReviewVote.review_id == review_id, ReviewVote.value == value))
                    for value in (1, -1))
        db.session.remove()
        return tallies, (up or 0, down or 0)


def vote(app: Flask, headers: dict[str, str], path: str, value: int) -> Callable[[], int]:
    return lambda: app.test_client().post(path, json={"value": value}, headers=headers).status_code


def test_simultaneous_votes_end_in_exact_tallies(racing_app):
    app = racing_app
    author = accounts(app, "author", 1)[0]
    review = write_review(app.test_client(), author)
    path = reviews_path(suffix=f"/{review['id']}/vote")
    voters = accounts(app, "voter", VOTERS)

    # everyone at once, each sending their vote twice at the same moment: +1 from the even, −1 from the odd
    first = [1 if n % 2 == 0 else -1 for n in range(VOTERS)]
    statuses = at_once([vote(app, voters[n], path, first[n]) for n in range(VOTERS) for _ in range(2)])
    assert statuses == [200] * (2 * VOTERS)
    assert stored_votes(app, review["id"]) == ((VOTERS // 2, VOTERS // 2, 0), (VOTERS // 2, VOTERS // 2))

    # then at once: a third turn their vote over, a third take it back, a third vote the same again
    second = [(-first[n] if n % 3 == 0 else 0 if n % 3 == 1 else first[n]) for n in range(VOTERS)]
    statuses = at_once([vote(app, voters[n], path, second[n]) for n in range(VOTERS)])
    assert statuses == [200] * VOTERS
    up, down = second.count(1), second.count(-1)
    assert stored_votes(app, review["id"]) == ((up, down, up - down), (up, down))
    # and the author's own vote, among others', is refused without touching a count
    statuses = at_once([vote(app, author, path, 1), *(vote(app, voters[n], path, second[n]) for n in range(4))])
    assert statuses == [403, 200, 200, 200, 200]
    assert stored_votes(app, review["id"]) == ((up, down, up - down), (up, down))


def test_one_account_racing_itself_writes_one_review(racing_app):
    app = racing_app
    writer = accounts(app, "writer", 1)[0]
    create = reviews_path(FILM, "/create")
    statuses = at_once([lambda rating=rating: app.test_client().post(
        create, json={"text": TEXT, "rating": rating}, headers=writer).status_code for rating in range(1, 9)])
    assert sorted(statuses) == [201] + [409] * 7
    with app.app_context():
        rows = db.session.scalars(select(Review).where(Review.content_id == FILM)).all()
        content = db.session.get_one(Content, FILM)
        assert len(rows) == 1
        assert (content.review_count, content.review_rating_sum) == (1, rows[0].rating)


def test_many_accounts_writing_and_deleting_at_once_keep_the_counts(racing_app):
    app = racing_app
    writers = accounts(app, "many", VOTERS)
    create = reviews_path(FILM, "/create")
    results = at_once([lambda n=n: app.test_client().post(
        create, json={"text": TEXT, "rating": n % 10 + 1}, headers=writers[n]) for n in range(VOTERS)])
    assert [response.status_code for response in results] == [201] * VOTERS
    ids = [response.get_json()["id"] for response in results]
    # half of them delete theirs while the other half change their rating, all at once
    calls = [(lambda n=n: app.test_client().delete(reviews_path(FILM, f"/{ids[n]}"), headers=writers[n]).status_code)
             if n % 2 == 0 else
             (lambda n=n: app.test_client().put(reviews_path(FILM, f"/{ids[n]}"), json={"text": TEXT, "rating": 10},
                                                headers=writers[n]).status_code) for n in range(VOTERS)]
    statuses = at_once(calls)
    assert statuses == [204 if n % 2 == 0 else 200 for n in range(VOTERS)]
    with app.app_context():
        content = db.session.get_one(Content, FILM)
        kept = db.session.execute(select(func.count(), func.sum(Review.rating))
                                  .where(Review.content_id == FILM, Review.hidden_at.is_(None))).one()
        assert (content.review_count, content.review_rating_sum) == (kept[0], kept[1]) == (VOTERS // 2,
                                                                                           10 * (VOTERS // 2))
