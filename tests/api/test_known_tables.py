"""The small tables a process holds per catalogue generation (app/services/catalogue/known.py): the genres that label
the cards and the categories of the main mart and of a category's list. A change moves the generation and shows in
the next answer; a genre or category made where this process did not see the change (another process, a statement
without one) is read at once, never missing. Demo catalogue (tests/api/test_lists_api.py's docstring): 1 is a drama
and an adventure."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import event, insert, update

from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import Category, ContentCategory, Genre
from app.models.taxonomy import content_genres

DRAMAS = "/contents?genres=drama&sort=rating"


@pytest.fixture(autouse=True)
def nothing_kept(app, demo_catalogue):
    """Every read runs its view: what is asked is what the process knows, not an answer kept from before."""
    app.config["SHARED_CACHE_SECONDS"] = 0


def genres_of(client, content_id: int, path: str = DRAMAS) -> list[dict[str, str]]:
    response = client.get(path)
    assert response.status_code == 200, response.get_json()
    return next(card["genres"] for card in response.get_json()["items"] if card["id"] == content_id)


def write(app, *statements, changed: bool) -> None:
    with app.app_context():
        for statement in statements:
            db.session.execute(statement)
        db.session.commit()
        if changed:
            invalidate_catalogue()


def test_a_genre_renamed_by_a_change_is_the_next_card_s(app, client):
    assert {"slug": "drama", "title": "Драма"} in genres_of(client, 1)
    write(app, update(Genre).where(Genre.slug == "drama").values(title="Драмы"), changed=True)
    assert {"slug": "drama", "title": "Драмы"} in genres_of(client, 1)


def test_a_genre_made_without_a_change_seen_labels_its_cards_at_once_in_slug_order(app, client):
    assert [genre["slug"] for genre in genres_of(client, 1)] == ["adventure", "drama"]
    with app.app_context():
        made = db.session.execute(insert(Genre).values(slug="biopic", title="Байопик").returning(Genre.id)).scalar_one()
        db.session.commit()
    write(app, insert(content_genres).values(content_id=1, genre_id=made), changed=False)
    assert genres_of(client, 1) == [{"slug": "adventure", "title": "Приключения"},
                                    {"slug": "biopic", "title": "Байопик"}, {"slug": "drama", "title": "Драма"}]


def test_a_category_made_without_a_change_seen_is_found_at_once(app, client):
    assert client.get("/types/film/categories/drama-films/contents").status_code == 200
    with app.app_context():
        made = db.session.execute(insert(Category).values(
            content_type_id=1, slug="classics", title="Классика", position=9, main_mart=False)
            .returning(Category.id)).scalar_one()
        db.session.add(ContentCategory(category_id=made, content_id=3, position=0))
        db.session.commit()
    response = client.get("/types/film/categories/classics/contents")
    assert response.status_code == 200 and [card["id"] for card in response.get_json()["items"]] == [3]
    assert client.get("/types/film/categories/nowhere/contents").get_json()["error"]["code"] == "category_not_found"


def test_a_category_renamed_by_a_change_is_the_next_main_mart_s(app, client):
    assert [entry["category"]["title"] for entry in client.get("/categories/main-mart").get_json()][:1] == ["Новинки"]
    write(app, update(Category).where(Category.slug == "new", Category.content_type_id == 1)
          .values(title="Свежее"), changed=True)
    assert [entry["category"]["title"] for entry in client.get("/categories/main-mart").get_json()][:1] == ["Свежее"]


def test_the_tables_are_read_once_per_generation(app, client):
    with app.app_context():
        engine = db.engine
    reads: list[str] = []
    asking = threading.get_ident()

    def record(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        whole_table = statement.rstrip().endswith("FROM genres") or (
            "FROM categories JOIN content_types" in statement and "WHERE" not in statement)
        if threading.get_ident() == asking and whole_table:
            reads.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        for path in (DRAMAS, "/categories/main-mart", "/types/film/categories/drama-films/contents?genres=drama",
                     "/contents?sort=title", "/categories/main-mart?limit=3"):
            assert client.get(path).status_code == 200
        assert len(reads) == 2  # the genres and the categories, once
        with app.app_context():
            invalidate_catalogue()
        assert client.get("/categories/main-mart").status_code == 200
        assert len(reads) == 4
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_a_page_reads_the_genres_again_once_at_most(app, client):
    """A genre id no genre has (an array written by hand: the triggers keep them right) is left out of the card, and
    its page reads the genres once more, not once per card."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("the cards' genre ids are PostgreSQL's label arrays")
    from sqlalchemy import text

    assert genres_of(client, 1)  # the genres read
    write(app, text("UPDATE contents SET genre_ids = genre_ids || 999999 WHERE id IN (1, 2, 3)"), changed=False)
    with app.app_context():
        engine = db.engine
    reads: list[str] = []
    event.listen(engine, "before_cursor_execute",
                 record := lambda conn, cursor, statement, *args: reads.append(statement)
                 if statement.rstrip().endswith("FROM genres") else None)
    try:
        assert [genre["slug"] for genre in genres_of(client, 1)] == ["adventure", "drama"]
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert len(reads) == 1
