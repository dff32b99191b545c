"""The facets of the lists' filters: a type's (GET /categories/filters/{id}) and a category's (GET
/types/{type}/categories/{slug}/filters), tags and age marks among them; each count is the total of the list with
that filter. And a label filter's values all at once (genresMatch=all: «драма и комедия»).

The demo catalogue (tests/api/test_lists_api.py's docstring)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select, update

from app.caching import store
from app.extensions import db
from app.models import Category, Content, ContentCategory, ContentType, TypeFacets
from app.services.catalogue.facets import count_facets, facets
from tests.api.queries import statements
from tests.api.test_catalogue_api import assert_error
from tests.api.test_lists_api import FILMS_LIST, LISTS, add_categories, body_of, change, ids


def read(client, path, **params: Any) -> Any:
    response = client.get(path, query_string=params)
    assert response.status_code == 200, (path, params, response.get_json())
    return response.get_json()


def test_a_category_s_facets(app, client, demo_catalogue):
    add_categories(app, "film", 1, parent="drama-films", contents=(5,))  # a comedy, under the dramas
    assert read(client, "/types/film/categories/drama-films/filters") == {
        "genres": [{"slug": "drama", "title": "Драма", "count": 2}, {"slug": "comedy", "title": "Комедия", "count": 1},
                   {"slug": "adventure", "title": "Приключения", "count": 1},
                   {"slug": "thriller", "title": "Триллер", "count": 2}],
        "countries": [{"slug": "ru", "title": "Россия", "count": 3}, {"slug": "fr", "title": "Франция", "count": 1}],
        "tags": [{"slug": "road-movie", "title": "Роуд-муви", "count": 1},
                 {"slug": "festival", "title": "Фестивальное кино", "count": 1}],
        "years": [{"year": 2022, "count": 1}, {"year": 2021, "count": 1}, {"year": 2019, "count": 1},
                  {"year": 2018, "count": 1}],
        "ratings": [{"from": 7, "count": 2}, {"from": 6, "count": 1}, {"from": 5, "count": 1}],
        "ages": [{"max": 6, "count": 1}, {"max": 12, "count": 3}, {"max": 18, "count": 4}],
            "voiceAuthors": [{"slug": "dubliazh", "title": "Дубляж", "count": 4},
                         {"slug": "original", "title": "Оригинал", "count": 1}],
    }
    comedies = read(client, "/types/film/categories/comedies/filters")
    assert comedies["genres"] == [{"slug": "comedy", "title": "Комедия", "count": 1}] and comedies["tags"] == []
    assert read(client, "/types/series/categories/new/filters")["ages"] == [{"max": 16, "count": 1}]


def test_a_type_s_facets_carry_tags_and_ages(app, client, demo_catalogue):
    films = read(client, "/categories/filters/1")
    assert films["tags"] == [{"slug": "road-movie", "title": "Роуд-муви", "count": 1},
                             {"slug": "festival", "title": "Фестивальное кино", "count": 1}]
    assert films["ages"] == [{"max": 6, "count": 1}, {"max": 12, "count": 3}, {"max": 18, "count": 4}]
    change(app, update(Content).where(Content.id == 3).values(published=False))
    films = read(client, "/categories/filters/1")
    assert [tag["slug"] for tag in films["tags"]] == ["road-movie"] and films["ages"][-1] == {"max": 12, "count": 3}


@pytest.mark.parametrize(("path", "code"), [
    ("/types/film/categories/nothing/filters", "category_not_found"),
    ("/types/series/categories/comedies/filters", "category_not_found"),
    ("/types/cartoons/categories/new/filters", "content_type_not_found"),
])
def test_the_facets_of_an_unknown_category_are_a_404(client, demo_catalogue, path, code):
    assert_error(client.get(path), 404, code)


def test_facets_kept_before_tags_and_ages_are_counted_again(app, client, demo_catalogue):
    with app.app_context():
        generation = store().generation()
        old = {key: value for key, value in count_facets(1).items() if key not in ("tags", "ages")}
        db.session.merge(TypeFacets(content_type_id=1, generation=generation, facets=old, published=4))
        db.session.commit()
        asked = []
        assert facets(1, generation, when_missing=lambda: asked.append(1)) == count_facets(1)
        assert asked == [1]  # and the refresh is asked for, to keep them whole


def test_a_category_s_facets_cost_the_same_queries_whatever_its_size(app, client, demo_catalogue):
    with statements(app) as few:
        read(client, "/types/film/categories/comedies/filters")
    add_categories(app, "film", 3, parent="drama-films", contents=(5, 1, 3))
    with statements(app) as many:
        read(client, "/types/film/categories/drama-films/filters")
    assert len(few) == len(many) <= 8  # the scope, then seven counts


# --- several values of one filter, all at once -------------------------------------------------------------------


@pytest.mark.parametrize(("query", "expected"), [
    ("genres=drama&genres=adventure&genresMatch=all", [1]),
    ("genres=drama&genres=thriller&genresMatch=all", [3]),
    ("genres=drama&genres=comedy&genresMatch=all", []),
    ("genres=drama&genres=comedy&genresMatch=any", [1, 2, 3, 5]),
    ("genres=drama&genresMatch=all", [1, 2, 3]),
    ("genres=drama&genres=nothing-like-it&genresMatch=all", []),  # an unknown value matches nothing
    ("genres=drama&genres=nothing-like-it", [1, 2, 3]),  # any: the known one
    ("tags=sea&tags=based-on-book&tagsMatch=all", [2]),
    ("countries=ru&countries=fr&countriesMatch=all", []),
    ("voiceAuthors=dubliazh&voiceAuthors=original&voiceAuthorsMatch=all", [1, 2]),
    ("genresMatch=all", [1, 2, 3, 4, 5]),  # nothing asked: nothing narrowed
])
def test_all_of_a_filter_s_values(client, demo_catalogue, query, expected):
    response = client.get(f"/contents?{query}")
    assert ids(response) == expected and response.get_json()["total"] == len(expected)
    assert ids(client.post("/contents", json=body_of(query))) == expected
    films = [content_id for content_id in expected if content_id != 2]
    assert ids(client.get(f"{FILMS_LIST}?{query}")) == [i for i in (1, 3, 4) if i in films]


def test_all_of_a_filter_s_values_in_search(client, demo_catalogue):
    found = read(client, "/v2/contents/search", query="дорога", genres=["drama", "adventure"], genresMatch="all")
    assert [item["id"] for item in found["items"]] == [1]
    found = read(client, "/v2/contents/search", query="дорога", genres=["drama", "comedy"], genresMatch="all")
    assert found["items"] == [] and found["total"] == 0


@pytest.mark.parametrize("path", LISTS)
def test_a_bad_match_is_a_422(client, demo_catalogue, path):
    error = assert_error(client.get(f"{path}?genres=drama&genresMatch=every"), 422, "validation_error")
    assert list(error["details"]["fields"]) == ["genresMatch"]
    assert list(assert_error(client.post(path, json={"genresMatch": "both"}), 422,
                             "validation_error")["details"]["fields"]) == ["genresMatch"]


# --- on a generated catalogue: every count is its list's total ---------------------------------------------------


def totals(client, path, facets_of, **base):
    """(facet, value, count, the list's total with that filter) for each value of each facet; ``base``: the list's
    own parameters."""
    def total(**params):
        return read(client, path, **base, **params, pageSize=1)["total"]

    for kind in ("genres", "countries", "tags", "voiceAuthors"):
        for label in facets_of[kind]:
            yield kind, label["slug"], label["count"], total(**{kind: label["slug"]})
    for year in facets_of["years"]:
        yield "years", year["year"], year["count"], total(yearFrom=year["year"], yearTo=year["year"])
    for age in facets_of["ages"]:
        yield "ages", age["max"], age["count"], total(ageRatingMax=age["max"])
    for band in facets_of["ratings"]:  # a band [from, from + 1): at least from, less at least from + 1
        upper = total(ratingFrom=band["from"] + 1) if band["from"] < 10 else 0
        yield "ratings", band["from"], band["count"], total(ratingFrom=band["from"]) - upper


def test_every_facet_count_is_the_total_of_its_filtered_list(app, client, demo_catalogue):
    app.config["RATE_LIMIT_CATALOGUE_READS"] = "100000 per minute"  # thousands of uncached lists
    assert app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "200"]).exit_code == 0
    with app.app_context():  # a parent with a sub-category sharing some of its titles
        parent = db.session.scalar(select(Category).where(Category.slug == "classics"))
        child_ids = set(db.session.scalars(select(ContentCategory.content_id).where(
            ContentCategory.category_id == parent.id).limit(3)))
        child_ids |= set(db.session.scalars(select(Content.id).where(Content.content_type_id == 1)
                                            .order_by(func.random()).limit(4)))
        db.session.add(Category(content_type_id=1, slug="classics-more", title="Ещё классика", parent_id=parent.id))
        db.session.flush()
        more = db.session.scalar(select(Category.id).where(Category.slug == "classics-more"))
        db.session.add_all(ContentCategory(category_id=more, content_id=i, position=0) for i in child_ids)
        db.session.commit()
        kinds = db.session.execute(select(ContentType.id, ContentType.slug)).all()
    change(app, update(Content).where(Content.id % 6 == 0).values(published=False))
    checked = 0
    for type_id, type_slug in kinds:
        for facet, value, count, total in totals(client, "/contents", read(client, f"/categories/filters/{type_id}"),
                                                 type=type_slug):
            assert count == total, (type_slug, facet, value)
            checked += 1
        slugs = [node["slug"] for node in flatten(read(client, f"/categories/tree/content-type/{type_id}"))]
        for slug in slugs[:8] + (["classics"] if "classics" in slugs else []):
            path = f"/types/{type_slug}/categories/{slug}/contents"
            for facet, value, count, total in totals(client, path, read(client, f"/types/{type_slug}/categories/"
                                                                                f"{slug}/filters")):
                assert count == total, (type_slug, slug, facet, value)
                checked += 1
    assert checked > 300


def flatten(nodes):
    return [row for node in nodes for row in (node, *flatten(node["children"]))]
