"""A search with the lists' filters (spec §7) finds what the lists' filters let through, no more and no less: on
PostgreSQL it filters on the search documents' copy of the content's filtered columns (migration 9d4b2e7a1c53, kept by
triggers), on SQLite through contents and the link tables. The copy follows the content without a reindex, whoever
changes it (an editor's form, a link written by hand, an import)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.caching import invalidate_catalogue
from app.database import unhurried
from app.demo.synthetic import generate
from app.extensions import db
from app.models import Content, ContentType, Genre
from app.models.taxonomy import content_genres
from app.services.catalogue.filters import filtered, list_request
from app.transaction import transaction

# (the query, the filters): label filters of either match, bounds, a type, a kind; combined
ASKED = [
    ("маяк", {"genres": ["drama", "thriller"]}),
    ("ночь", {"genres": ["drama", "comedy"], "genresMatch": "all"}),
    ("море", {"yearFrom": 1990, "yearTo": 2010}),
    ("дорога", {"countries": ["fr", "ru"], "ratingFrom": 7}),
    ("ночь", {"tags": ["based-on-book", "true-story"], "ageRatingMax": 12}),
    ("дом", {"type": "series", "hasMultipleEpisodes": True}),
    ("дом", {"type": "film", "genres": ["no-such-genre"]}),
    ("ночь", {"hasMultipleEpisodes": False, "yearFrom": 2000, "genres": ["drama"]}),
]
SNAKE = {"genresMatch": "genres_match", "yearFrom": "year_from", "yearTo": "year_to", "ratingFrom": "rating_from",
         "ageRatingMax": "age_rating_max", "hasMultipleEpisodes": "has_multiple_episodes"}


@pytest.fixture
def catalogue(app, demo_catalogue):
    with app.app_context(), unhurried(app, db.engine):  # 2,000 titles at once: a batch
        generate(2000, seed=1)
        invalidate_catalogue()
    return app


def every_id(client, query, **filters):
    found, page = [], 1
    while True:
        response = client.post("/v2/contents/search", json={"query": query, "pageSize": 100, "page": page, **filters})
        assert response.status_code == 200, response.get_json()
        answer = response.get_json()
        found += [item["id"] for item in answer["items"]]
        if len(found) >= answer["total"] or not answer["items"]:
            return found, answer["total"]
        page += 1


def passing(app, filters):
    """The ids the lists' filters let through (through contents, as a list reads them)."""
    request = list_request({SNAKE.get(name, name): value for name, value in filters.items()})
    with app.app_context():
        return set(db.session.scalars(filtered(select(Content.id), request)))


@pytest.mark.parametrize(("query", "filters"), ASKED)
def test_a_filtered_search_is_the_search_less_what_the_filters_refuse(catalogue, client, query, filters):
    everything, _ = every_id(client, query)
    assert len(everything) >= 10  # the query finds enough for the filters to choose among
    found, total = every_id(client, query, **filters)
    let_through = passing(catalogue, filters)
    expected = [content_id for content_id in everything if content_id in let_through]
    if "no-such-genre" in filters.get("genres", ()):
        assert (found, total) == ([], 0)
        return
    # the same titles in the same order, the total counted alike; the filters refused some and let some through
    assert found == expected and total == len(expected)
    assert 0 < len(expected) < len(everything)


def test_the_search_follows_a_contents_filtered_columns_without_a_reindex(app, client, demo_catalogue):
    def found(**filters):
        return every_id(client, "морозова", **filters)[0]

    everything = found()
    assert len(everything) == 2
    target = everything[0]
    with app.app_context(), transaction():
        series = db.session.scalar(select(ContentType.id).where(ContentType.slug == "series"))
        western = Genre(slug="western", title="Вестерн")
        db.session.add(western)
        db.session.flush()
        western_id = western.id
        db.session.execute(content_genres.insert().values(content_id=target, genre_id=western_id))  # a link by hand
        content = db.session.get(Content, target)
        content.year, content.age_rating, content.kinopoisk_rating = 1961, 0, 9.9
        content.content_type_id, content.has_multiple_episodes = series, True
    assert found(genres=["western"]) == [target]
    assert found(yearTo=1961) == [target] and found(yearFrom=1962) == [everything[1]]
    assert found(ageRatingMax=0) == [target] and found(ratingFrom=9.9) == [target]
    assert target in found(type="series", hasMultipleEpisodes=True)
    with app.app_context(), transaction():
        db.session.execute(content_genres.delete().where(content_genres.c.content_id == target,
                                                         content_genres.c.genre_id == western_id))
    assert found(genres=["western"]) == []
