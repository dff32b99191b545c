"""A category's list filtered by genres and years: on PostgreSQL one lookup of the contents' list keys
(app/services/catalogue/list_keys.py, a generated column), on SQLite the links; on both, exactly the titles of the
scope, the genres and the years, before and after an editor changes a title's year, genres or categories.

What is expected is worked out here from the link tables in Python, on a synthetic catalogue beside the demo's
(`flask demo catalogue`: categories with sub-categories, 25 genres, years from the 1930s on)."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass

import pytest
from sqlalchemy import delete, insert, select

from app.extensions import db
from app.models import Category, Content, ContentCategory, ContentType, Genre
from app.models.taxonomy import content_genres
from app.services.catalogue.filters import ListRequest
from app.services.catalogue.list_keys import MOST_KEYS, keyed
from tests.api.test_lists_api import change, ids


@dataclass
class Catalogue:
    scopes: dict[tuple[str, str], set[int]]  # (type, slug): the category and its descendants' ids
    links: dict[int, set[int]]  # category: its contents
    genres: dict[int, set[str]]  # content: its genres' slugs
    years: dict[int, int | None]
    shown: set[int]
    slugs: list[str]  # the genres, the commonest first


def read(app) -> Catalogue:
    with app.app_context():
        categories = db.session.execute(select(Category.id, Category.parent_id, Category.slug, ContentType.slug)
                                        .join(ContentType)).all()
        children = defaultdict(set)
        for row in categories:
            children[row.parent_id].add(row.id)

        def under(category):
            return {category}.union(*(under(child) for child in children[category]))

        links = defaultdict(set)
        for category_id, content_id in db.session.execute(select(ContentCategory.category_id,
                                                                 ContentCategory.content_id)):
            links[category_id].add(content_id)
        genres = defaultdict(set)
        for content_id, slug in db.session.execute(select(content_genres.c.content_id, Genre.slug).join(Genre)):
            genres[content_id].add(slug)
        rows = db.session.execute(select(Content.id, Content.year, Content.published, Content.publish_at,
                                         Content.unpublish_at)).all()
        return Catalogue({(row[3], row.slug): under(row.id) for row in categories}, links, genres,
                         {row.id: row.year for row in rows},
                         {row.id for row in rows if row.published and row.publish_at is None
                          and row.unpublish_at is None},
                         sorted(db.session.scalars(select(Genre.slug)),
                                key=lambda slug: -sum(slug in labels for labels in genres.values())))


def expected(catalogue: Catalogue, scope: tuple[str, str], genres: list[str], match: str,
             years: tuple[int, int] | None) -> set[int]:
    members = set().union(*(catalogue.links[category] for category in catalogue.scopes[scope])) & catalogue.shown
    if genres:
        wanted = set(genres)
        members = {content for content in members
                   if (wanted <= catalogue.genres[content] if match == "all" else wanted & catalogue.genres[content])}
    if years:
        members = {content for content in members
                   if catalogue.years[content] is not None and years[0] <= catalogue.years[content] <= years[1]}
    return members


def listed(client, scope, genres, match, years) -> set[int]:
    query = [("genres", genre) for genre in genres] + [("genresMatch", match), ("pageSize", 100), ("sort", "rating")]
    if years:
        query += [("yearFrom", years[0]), ("yearTo", years[1])]
    found, page = [], 1
    while True:
        response = client.get(f"/types/{scope[0]}/categories/{scope[1]}/contents",
                              query_string=[*query, ("page", page)])
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        found += [item["id"] for item in body["items"]]
        if page * 100 >= body["total"]:
            break
        page += 1
    assert len(found) == len(set(found)) == body["total"]
    return set(found)


@pytest.fixture
def synthetic(app, demo_catalogue):
    assert app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "1500"]).exit_code == 0
    return app


def asks(catalogue: Catalogue, count: int, seed: int):
    """``count`` lists of the synthetic catalogue's scopes, their genres (one, two of any, two of all, none) and
    years (a span, one year, none)."""
    rng = random.Random(seed)
    scopes = sorted(scope for scope, ids in catalogue.scopes.items()
                    if sum(len(catalogue.links[category]) for category in ids) >= 40)
    for n in range(count):
        genres = rng.sample(catalogue.slugs[:6], (1, 2, 2, 0)[n % 4])
        start = rng.randrange(1960, 2020)
        years = ((start, start + rng.randrange(5, 40)), (start, start), None)[n % 3]
        yield rng.choice(scopes), genres, ("any", "any", "all", "any")[n % 4], years


def test_the_lists_are_the_scope_the_genres_and_the_years(client, synthetic):
    catalogue = read(synthetic)
    assert sum(1 for scope in catalogue.scopes.values() if len(scope) > 1), "a category with sub-categories"
    nonempty = 0
    for scope, genres, match, years in asks(catalogue, 36, seed=1):
        want = expected(catalogue, scope, genres, match, years)
        assert listed(client, scope, genres, match, years) == want, (scope, genres, match, years)
        nonempty += bool(want)
        past = client.get(f"/types/{scope[0]}/categories/{scope[1]}/contents", query_string={
            "genres": genres, "genresMatch": match, "page": 50, **({"yearFrom": years[0], "yearTo": years[1]}
                                                                    if years else {})}).get_json()
        assert past["items"] == [] and past["total"] == len(want)  # past the last page: counted all the same
    assert nonempty >= 18  # the asks find titles, not only nothing (a single year often finds none)


def test_the_lists_follow_an_editors_changes(app, client, synthetic):
    """The keys are derived from the year and the label arrays (their link tables' triggers): a change of either
    moves a title in or out of a list at once."""
    catalogue = read(app)

    def members(scope):
        return set().union(*(catalogue.links[category] for category in catalogue.scopes[scope])) & catalogue.shown

    scope = max((scope for scope, ids in catalogue.scopes.items() if len(ids) > 1), key=lambda s: len(members(s)))
    genre = max(catalogue.slugs, key=lambda slug: sum(slug in catalogue.genres[content] for content in members(scope)))
    other = next(slug for slug in catalogue.slugs if slug != genre)
    genres, years = [genre], (1931, 2030)
    before = expected(catalogue, scope, genres, "any", years)
    assert len(before) >= 3
    moved, regenred, dated = sorted(before)[:3]
    newcomer = next(content for content in sorted(catalogue.shown - members(scope))
                    if genre not in catalogue.genres[content])
    with app.app_context():
        kept, added = (db.session.scalar(select(Genre.id).where(Genre.slug == slug)) for slug in (genre, other))
        db.session.execute(delete(ContentCategory).where(ContentCategory.content_id == moved,
                                                         ContentCategory.category_id.in_(catalogue.scopes[scope])))
        db.session.execute(delete(content_genres).where(content_genres.c.content_id == regenred,
                                                        content_genres.c.genre_id == kept))
        db.session.get(Content, dated).year = 1930
        if other not in catalogue.genres[dated]:
            db.session.execute(insert(content_genres).values(content_id=dated, genre_id=added))
        sub = max(catalogue.scopes[scope])  # a sub-category (made after its parent): the scope takes it in
        db.session.add(ContentCategory(category_id=sub, content_id=newcomer, position=0))
        db.session.execute(insert(content_genres).values(content_id=newcomer, genre_id=kept))
        db.session.get(Content, newcomer).year = 2001
        db.session.commit()
    change(app)
    after = listed(client, scope, genres, "any", years)
    assert after == (before - {moved, regenred, dated}) | {newcomer}, (moved, regenred, dated, newcomer)
    assert after == expected(read(app), scope, genres, "any", years)
    assert dated in listed(client, scope, [other], "any", (1930, 1930))
    assert dated not in listed(client, scope, [other], "any", (1931, 2030))


@pytest.mark.parametrize(("request_", "keys_genres", "keys_years"), [
    (ListRequest(genres=("drama",), year_from=1980, year_to=2000), True, True),
    (ListRequest(genres=("drama", "comedy")), True, False),
    (ListRequest(year_from=1980, year_to=1980), False, True),
    (ListRequest(genres=("drama", "comedy"), genres_match="all", year_from=1980, year_to=2000), False, True),
    (ListRequest(genres=("drama",), year_from=1980), True, False),  # one bound: filtered, as before
    (ListRequest(genres=("drama",), year_from=1980, year_to=2012), True, False),  # 33 years > MOST_KEYS
    (ListRequest(genres=("drama",), year_from=1800, year_to=2200), True, False),
])
def test_what_the_keys_say_and_what_is_left_to_filter(request_, keys_genres, keys_years):
    lookup = keyed((1,), request_)
    assert lookup.genres == (request_.genres if keys_genres else ())
    assert lookup.years == ((request_.year_from, request_.year_to) if keys_years else None)
    assert lookup.rest.genres == (() if keys_genres else request_.genres)
    assert (lookup.rest.year_from, lookup.rest.year_to) == \
        ((None, None) if keys_years else (request_.year_from, request_.year_to))
    assert lookup.rest.sort == request_.sort and lookup.rest.page == request_.page


@pytest.mark.parametrize("request_", [ListRequest(), ListRequest(countries=("ru",)), ListRequest(year_from=1990),
                                      ListRequest(genres=("drama", "comedy"), genres_match="all")])
def test_no_keys_without_a_genre_or_a_span_of_years(request_):
    assert keyed((1,), request_) is None


def test_no_keys_for_more_than_the_lookup_takes():
    """A lookup's cost is its keys times the titles it finds (list_keys.py): a scope of many categories with several
    genres is listed without keys, and its years are filtered."""
    assert keyed(tuple(range(1, MOST_KEYS + 1)), ListRequest(genres=("a",))) is not None
    assert keyed(tuple(range(1, MOST_KEYS + 2)), ListRequest(genres=("a",))) is None
    lookup = keyed(tuple(range(1, 4)), ListRequest(genres=("a", "b"), year_from=2000, year_to=2001))  # 12 keys
    assert lookup.genres == ("a", "b") and lookup.years == (2000, 2001)
    lookup = keyed(tuple(range(1, 4)), ListRequest(genres=("a", "b"), year_from=2000, year_to=2005))  # 36: 6 keys
    assert lookup.genres == ("a", "b") and lookup.years is None and lookup.rest.year_from == 2000


@pytest.mark.parametrize(("sort", "extra"), [
    ("position", ()), ("rating", ()), ("year", ()), ("newest", ()), ("title", ()),
    ("position", (("ratingFrom", 6),)), ("title", (("countries", "ru"), ("countries", "us"), ("ageRatingMax", 16)))])
def test_each_order_and_page_as_without_the_keys(client, synthetic, monkeypatch, sort, extra):
    """The keyed statement (the titles found first, then sorted: app/services/catalogue/list_keys.py) gives the
    pages the plain one gives, in each sort and both directions, with other filters too."""
    catalogue = read(synthetic)

    def pages(direction):
        return [ids(client.get(f"/types/{scope[0]}/categories/{scope[1]}/contents", query_string=[
            *[("genres", genre) for genre in genres], ("yearFrom", years[0]), ("yearTo", years[1]), ("sort", sort),
            ("order", direction), ("pageSize", 7), ("page", page), *extra])) for page in (1, 2, 3)]

    found = 0
    for scope, genres, _match, years in list(asks(catalogue, 12, seed=2))[:12:3]:  # two genres or one, a span
        years = years or (1970, 2000)
        keyed_pages = {direction: pages(direction) for direction in ("asc", "desc")}
        found += sum(map(len, keyed_pages["asc"]))
        with monkeypatch.context() as patch:
            patch.setattr("app.services.catalogue.lists.keyed", lambda *_args: None)
            change(synthetic)  # the kept answers dropped
            assert {direction: pages(direction) for direction in ("asc", "desc")} == keyed_pages, (scope, genres)
        change(synthetic)
    assert found >= 20  # pages with titles on them
