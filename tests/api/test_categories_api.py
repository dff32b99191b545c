"""A category's scope (its own titles and its sub-categories', each once: app/services/catalogue/categories.py) in
its list, its count in the tree and its main-mart row; the tree's counts and its empty categories.

The demo catalogue (tests/api/test_lists_api.py's docstring): films new(1) drama-films(1, 3, 4) comedies(5)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, update

from app.extensions import db
from app.models import Category, Content, ContentCategory, ContentType
from tests.api.test_lists_api import FILMS_LIST, add_categories, change, ids


def tree_of(client, type_slug_id, query=""):
    response = client.get(f"/categories/tree/content-type/{type_slug_id}{query}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def flat(nodes, depth=0):
    """(slug, count, depth) of every node, depth first."""
    return [row for node in nodes for row in [(node["slug"], node["count"], depth),
                                              *flat(node["children"], depth + 1)]]


def test_a_parent_lists_its_sub_categories_titles_once(app, client, demo_catalogue):
    (child,) = add_categories(app, "film", 1, parent="drama-films", contents=(5, 1))  # 1 is the parent's too
    with app.app_context():
        db.session.add(Category(content_type_id=1, slug="deeper", title="Глубже", parent_id=child))
        db.session.flush()
        deeper = db.session.scalar(select(Category.id).where(Category.slug == "deeper"))
        db.session.add(ContentCategory(category_id=deeper, content_id=2, position=0))  # a series, linked here
        db.session.commit()
    body = client.get(f"{FILMS_LIST}?pageSize=100").get_json()
    assert sorted(item["id"] for item in body["items"]) == [1, 2, 3, 4, 5] and body["total"] == 5
    assert ids(client.get(f"{FILMS_LIST}?genres=comedy")) == [5]
    assert ids(client.get("/types/film/categories/extra-film-drama-films-0/contents")) == [5, 2, 1]  # 5, 2 at 0
    assert ids(client.get("/types/film/categories/deeper/contents")) == [2]
    nodes = flat(tree_of(client, 1))
    assert nodes == [("new", 1, 0), ("drama-films", 5, 0), ("extra-film-drama-films-0", 3, 1), ("deeper", 1, 2),
                     ("comedies", 1, 0)]


def test_a_title_takes_its_lowest_place_in_a_scope_then_the_newest(app, client, demo_catalogue):
    (child,) = add_categories(app, "film", 1, parent="drama-films")
    # drama-films: 1 at 1, 3 at 3, 4 at 4; its sub-category: 5 at 2, 4 at 0 (4's lowest), 3 at 2 (3's lowest)
    with app.app_context():
        db.session.add_all([ContentCategory(category_id=child, content_id=5, position=2),
                            ContentCategory(category_id=child, content_id=4, position=0),
                            ContentCategory(category_id=child, content_id=3, position=2)])
        db.session.commit()
    assert ids(client.get(FILMS_LIST)) == [4, 1, 5, 3]  # 4 (0), 1 (1), then 5 and 3 at 2: the newest (5) first
    assert ids(client.get(f"{FILMS_LIST}?order=desc")) == [3, 5, 1, 4]


def test_the_tree_leaves_out_empty_categories_unless_asked(app, client, demo_catalogue):
    add_categories(app, "film", 1, parent="new")  # empty
    add_categories(app, "film", 1, parent="comedies", contents=(5,))
    change(app, update(Content).where(Content.id == 1).values(published=False))  # «Новинки» now holds nothing
    assert flat(tree_of(client, 1)) == [("drama-films", 2, 0), ("comedies", 1, 0), ("extra-film-comedies-0", 1, 1)]
    assert flat(tree_of(client, 1, "?includeEmpty=true")) == [
        ("new", 0, 0), ("extra-film-new-0", 0, 1), ("drama-films", 2, 0), ("comedies", 1, 0),
        ("extra-film-comedies-0", 1, 1)]
    assert tree_of(client, 1, "?includeEmpty=false") == tree_of(client, 1)


@pytest.mark.parametrize("query", ["includeEmpty=yes", "includeEmpty=1"])
def test_a_bad_tree_query_is_a_422(client, demo_catalogue, query):
    response = client.get(f"/categories/tree/content-type/1?{query}")
    assert response.status_code == 422 and response.get_json()["error"]["code"] == "validation_error"


def test_a_tree_query_key_it_does_not_know_is_ignored(client, demo_catalogue):
    """(app/api/arguments.py: on every call)"""
    assert tree_of(client, 1, "?include=true") == tree_of(client, 1)


def test_on_a_generated_catalogue_each_count_is_its_list_total(app, client, demo_catalogue):
    assert app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "300"]).exit_code == 0
    with app.app_context():  # a few sub-categories more, each sharing titles with its parent
        kinds = dict(db.session.execute(select(ContentType.slug, ContentType.id)).all())
        for parent in db.session.scalars(select(Category).where(Category.parent_id.is_(None)).limit(6)):
            child = Category(content_type_id=parent.content_type_id, slug=f"{parent.slug}-sub", title="Подраздел",
                             parent=parent)
            db.session.add(child)
            db.session.flush()
            shared = db.session.scalars(select(ContentCategory.content_id).where(
                ContentCategory.category_id == parent.id).limit(5)).all()
            others = db.session.scalars(select(Content.id).where(Content.content_type_id == parent.content_type_id)
                                        .order_by(func.random()).limit(5)).all()
            db.session.add_all(ContentCategory(category_id=child.id, content_id=content_id, position=0)
                               for content_id in set(shared) | set(others))
        db.session.commit()
    change(app, update(Content).where(Content.id % 7 == 0).values(published=False))
    checked = 0
    for type_slug, kind in kinds.items():
        for slug, count, _depth in flat(tree_of(client, kind, "?includeEmpty=true")):
            body = client.get(f"/types/{type_slug}/categories/{slug}/contents?pageSize=100").get_json()
            assert body["total"] == count, (type_slug, slug)
            pages = -(-count // 100)
            seen = [item["id"] for page in range(1, pages + 1) for item in
                    client.get(f"/types/{type_slug}/categories/{slug}/contents?pageSize=100&page={page}")
                    .get_json()["items"]]
            assert len(seen) == len(set(seen)) == count, (type_slug, slug)
            checked += 1
    assert checked > 40
