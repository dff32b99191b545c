"""The lists' orders: «По алфавиту» (sort=title) in Russian alphabetical order on both databases, by the stored key
(app/models/sort_keys.py); a home row and its "see all" page in one order (docs/api.md, Lists).

The demo catalogue (tests/api/test_lists_api.py's docstring) with titles of the tests' own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select, text, update

from app.extensions import db
from app.models import Category, Content, ContentCategory
from app.models.sort_keys import title_key
from tests.api.test_lists_api import FILMS_LIST, change, ids

# The films' new titles, in the order «По алфавиту» must give (ё with е, before я; numbers as numbers; Latin last)
ALPHABETICAL = {4: "2012", 3: "Ёлки 2", 5: "Ёлки 10", 1: "Ель", 6: "Яблоко", 7: "Ocean's Eleven"}


@pytest.fixture
def retitled(app, demo_catalogue):
    with app.app_context():
        for content_id, title in ALPHABETICAL.items():
            content = db.session.get(Content, content_id)
            if content is None:
                db.session.add(Content(id=content_id, title=title, content_type_id=1, year=2020,
                                       created_at=datetime(2024, 1, 1, tzinfo=UTC)))
            else:
                content.title = title  # through the ORM, as the admin edits: the key follows
        db.session.flush()
        db.session.add_all(ContentCategory(category_id=2, content_id=content_id, position=0)
                           for content_id in (5, 6, 7))
        db.session.commit()
    change(app, update(Content).values(created_at=datetime(2024, 1, 1, tzinfo=UTC)))
    return app


def test_alphabetical_is_russian_order_with_yo_as_ye(client, retitled):
    expected = list(ALPHABETICAL)
    assert ids(client.get("/contents?sort=title&type=film")) == expected
    assert ids(client.get("/contents?sort=title&type=film&order=desc")) == expected[::-1]
    assert ids(client.get(f"{FILMS_LIST}?sort=title")) == [4, 3, 5, 1, 6, 7]  # 1, 3, 4 and the three added
    series_first = ids(client.get("/contents?sort=title"))
    assert series_first == [4, 3, 5, 1, 2, 6, 7]  # «Тихая гавань» between «Ель» and «Яблоко»


def test_alphabetical_pages_follow_one_another(client, retitled):
    pages = [ids(client.get(f"/contents?sort=title&type=film&pageSize=4&page={page}")) for page in (1, 2)]
    assert pages[0] + pages[1] == list(ALPHABETICAL)


def test_the_key_follows_the_title(app, retitled):
    with app.app_context():
        rows = db.session.execute(select(Content.title, Content.title_sort)).all()
        assert all(row.title_sort == title_key(row.title) for row in rows) and len(rows) == 7
        db.session.get(Content, 6).title = "Абрикос"
        db.session.commit()
        assert db.session.get(Content, 6).title_sort == "абрикос"
        assert Content(title=None).title_sort == ""  # a form's empty title is refused by its column, not by the key
        if db.engine.dialect.name == "postgresql":  # compared by code points, whatever the database's own collation
            assert db.session.scalar(text("SELECT collation_name FROM information_schema.columns WHERE "
                                          "table_name = 'contents' AND column_name = 'title_sort'")) == "C"


def test_a_synthetic_catalogue_written_without_the_orm_has_its_keys(app, demo_catalogue):
    assert app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "40"]).exit_code == 0
    with app.app_context():
        rows = db.session.execute(select(Content.title, Content.title_sort)).all()
    assert len(rows) == 45 and all(row.title_sort == title_key(row.title) for row in rows)


def test_every_main_mart_row_is_the_first_page_of_its_category(app, client, demo_catalogue):
    """On a generated catalogue with many equal positions, a parent on the mart (its sub-categories' titles in its
    row), and unpublished titles: the row of each main-mart category is its list's first titles, in the same order."""
    assert app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "300"]).exit_code == 0
    with app.app_context():
        parent = db.session.scalar(select(Category).where(Category.slug == "classics"))
        parent.main_mart = True  # «Советское кино» is under it
        db.session.commit()
    change(app, update(ContentCategory).values(position=ContentCategory.position % 3),  # ties everywhere
           update(Content).where(Content.id % 5 == 0).values(published=False))
    limit = 12
    rows = client.get(f"/categories/main-mart?limit={limit}").get_json()
    assert len(rows) >= 6 and any(row["category"]["slug"] == "classics" for row in rows)
    for row in rows:
        category, kind = row["category"]["slug"], row["category"]["contentType"]["slug"]
        page = client.get(f"/types/{kind}/categories/{category}/contents?pageSize={limit}").get_json()
        assert [card["id"] for card in row["contents"]] == [card["id"] for card in page["items"]], category
        assert len(row["contents"]) == min(limit, page["total"])
