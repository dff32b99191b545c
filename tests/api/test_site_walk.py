"""A site on its own domain walks the catalogue as its pages would (issue 33): the home page, a category page with its
filters paged to the end, the title page, the person page, search. Every list is whole: the same total on every
page, no title twice, none missing, each filtered title matching its filter, each sort in its order. On SQLite in
`make test`, on PostgreSQL in CI."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

PAGE = 9  # not a divisor of the lists' sizes: the last page is a short one


@pytest.fixture
def site(app, demo_catalogue) -> FlaskClient:
    """The demo catalogue and 240 synthetic titles (films and series, their categories, labels and persons)."""
    result = app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "240"])
    assert result.exit_code == 0, result.output
    # a walk reads thousands of uncached lists from one address: a site's server with its own limit (docs/api.md)
    app.config["RATE_LIMIT_CATALOGUE_READS"] = "100000 per minute"
    return app.test_client()


def read(client: FlaskClient, path: str, **params: Any) -> Any:
    response = client.get(path, query_string=params)
    assert response.status_code == 200, (path, params, response.get_json())
    return response.get_json()


def walk(client: FlaskClient, path: str, **params: Any) -> list[dict[str, Any]]:
    """Every item of a paged list, page by page as a site pages it, to the empty page past its end."""
    items: list[dict[str, Any]] = []
    total = None
    page = 1
    while True:
        body = read(client, path, **params, page=page, pageSize=PAGE)
        assert total in (None, body["total"]), f"{path} {params}: the total moved while paging"
        total = body["total"]
        if not body["items"]:
            break
        assert len(body["items"]) == PAGE or page * PAGE >= total, f"{path} {params}: a short page {page}"
        items += body["items"]
        page += 1
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids)) == total, f"{path} {params}: {len(ids)} items, {len(set(ids))} distinct, {total}"
    return items


def in_order(items: list[dict[str, Any]], key: Callable[[dict[str, Any]], Any], descending: bool) -> bool:
    keys = [key(item) for item in items]
    return keys == sorted(keys, reverse=descending)


def test_home_page_rows_are_their_categories_first_titles(site):
    menu = read(site, "/menu")
    assert menu, "the site has a menu"
    for row in read(site, "/categories/main-mart", limit=6):
        category = row["category"]
        listed = walk(site, f"/types/{category['contentType']['slug']}/categories/{category['slug']}/contents")
        assert [card["id"] for card in row["contents"]] == [card["id"] for card in listed[:6]], category["slug"]
    slides = read(site, "/contents/slider-promo")
    assert slides, "the demo has promo slides"
    for card in slides:
        assert read(site, f"/contents/{card['content']['id']}")["id"] == card["content"]["id"]
    walk(site, "/contents/most-relevant")


def test_a_category_page_pages_whole_with_each_filter_and_sort(site):
    for content_type in read(site, "/types"):
        facets = read(site, f"/categories/filters/{content_type['id']}")
        assert len(facets["genres"]) >= 3 and len(facets["years"]) >= 3 and len(facets["countries"]) >= 2, facets
        everything = walk(site, "/contents", type=content_type["slug"])
        assert everything and all(card["contentType"]["slug"] == content_type["slug"] for card in everything)
        for genre in facets["genres"][:3]:
            cards = walk(site, "/contents", type=content_type["slug"], genres=genre["slug"])
            assert len(cards) == genre["count"], genre
            assert all(genre["slug"] in {label["slug"] for label in card["genres"]} for card in cards), genre
        for year in facets["years"][:3]:
            cards = walk(site, "/contents", type=content_type["slug"], yearFrom=year["year"], yearTo=year["year"])
            assert len(cards) == year["count"] and {card["year"] for card in cards} == {year["year"]}, year
        for country in facets["countries"][:2]:
            cards = walk(site, "/contents", type=content_type["slug"], countries=country["slug"])
            assert len(cards) == country["count"], country
            for card in cards[:PAGE]:  # a card has no countries: the title page has
                assert country["slug"] in {c["slug"] for c in read(site, f"/contents/{card['id']}")["countries"]}
        for sort, key in (("year", lambda card: card["year"] or 0),
                          ("rating", lambda card: card["rating"]["kinopoisk"]["value"] or 0)):
            for order in ("asc", "desc"):
                cards = walk(site, "/contents", type=content_type["slug"], sort=sort, order=order)
                assert in_order(cards, key, order == "desc"), (sort, order)
                assert {card["id"] for card in cards} == {card["id"] for card in everything}


def test_every_category_page_pages_whole(site):
    for content_type in read(site, "/types"):
        for node in read(site, f"/categories/tree/content-type/{content_type['id']}"):
            for category in (node, *node["children"]):
                walk(site, f"/types/{content_type['slug']}/categories/{category['slug']}/contents")


def test_title_and_person_pages_of_a_category_page(site):
    cards = read(site, "/contents", type="series", pageSize=5)["items"] + read(site, "/contents", type="film",
                                                                               pageSize=5)["items"]
    persons_seen = 0
    playing = {item["id"] for item in walk(site, "/contents", availableHere="true")}
    for card in cards:
        title = read(site, f"/contents/{card['id']}")
        assert (title["id"], title["title"], title["slug"]) == (card["id"], card["title"], card["slug"])
        assert title["playable"] is (card["id"] in playing) and title["contentType"] == card["contentType"]
        for category in title["categories"]:  # its breadcrumbs lead to lists that hold it
            listed = walk(site, f"/types/{category['contentType']['slug']}/categories/{category['slug']}/contents")
            assert card["id"] in {item["id"] for item in listed}, category
        assert read(site, f"/contents/by-slug/{card['slug']}")["id"] == card["id"]
        episodes = read(site, "/episodes", **{"content-id": card["id"]})
        assert episodes and (len(episodes) > 1) == card["hasMultipleEpisodes"]
        if card["hasMultipleEpisodes"]:
            seasons = read(site, f"/contents/{card['id']}/seasons")
            assert {episode["season"]["id"] for episode in episodes} == {season["id"] for season in seasons}
        for group in title["persons"]:
            for person in group["persons"][:2]:
                filmography = walk(site, f"/persons/{person['id']}/contents")
                assert card["id"] in {item["id"] for item in filmography}, person
                page = read(site, f"/persons/{person['id']}", pageSize=PAGE)
                assert page["name"] == person["name"] and page["contents"]["total"] == len(filmography)
                assert group["type"]["slug"] in {role["slug"] for role in page["roles"]}
                persons_seen += 1
    assert persons_seen


def test_search_finds_a_title_page_by_its_title(site):
    cards = walk(site, "/contents", type="film", sort="rating", order="desc")[::25]
    assert len(cards) >= 5
    for card in cards:
        found = read(site, "/v2/contents/search", query=card["title"], pageSize=5)["items"]
        assert found and found[0]["title"].lower() == card["title"].lower(), (card["title"], found[:1])
        assert card["id"] in {item["id"] for item in walk(site, "/v2/contents/search", query=card["title"])}


RUSSIAN = "абвгдежзийклмнопрстуфхцчшщъыьэюя"


def first_letter(card: dict[str, Any]) -> int:
    """Where a Cyrillic title's first letter stands in the Russian alphabet, ё as е (a site's «По алфавиту»)."""
    letter = card["title"].lower().replace("ё", "е")[0]
    return RUSSIAN.index(letter)


def test_a_category_page_with_its_own_facets(site):
    """What a category page shows: its facets count what a click on each gives, on this category's list; the tree
    counts what its page lists; two genres at once are «драма и комедия»; «По алфавиту» in Russian order."""
    checked = {"genre": 0, "tag": 0, "age": 0, "both": 0, "alphabet": 0}
    for content_type in read(site, "/types"):
        for node in read(site, f"/categories/tree/content-type/{content_type['id']}"):
            path = f"/types/{content_type['slug']}/categories/{node['slug']}"
            listed = walk(site, f"{path}/contents")
            assert node["count"] == len(listed) > 0, node["slug"]  # the tree hides empty categories
            facets = read(site, f"{path}/filters")
            for genre in facets["genres"][:2]:
                cards = walk(site, f"{path}/contents", genres=genre["slug"])
                assert len(cards) == genre["count"], (node["slug"], genre)
                assert all(genre["slug"] in {label["slug"] for label in card["genres"]} for card in cards)
                checked["genre"] += 1
            for tag in facets["tags"][:1]:
                cards = walk(site, f"{path}/contents", tags=tag["slug"])
                assert len(cards) == tag["count"], (node["slug"], tag)
                for card in cards[:3]:  # a card has no tags: the title page has
                    assert tag["slug"] in {label["slug"] for label in read(site, f"/contents/{card['id']}")["tags"]}
                checked["tag"] += 1
            for age in facets["ages"][:2]:
                cards = walk(site, f"{path}/contents", ageRatingMax=age["max"])
                assert len(cards) == age["count"] and all((card["ageRating"] or 0) <= age["max"] for card in cards)
                checked["age"] += 1
            if len(facets["genres"]) >= 2:
                both = [facets["genres"][0]["slug"], facets["genres"][1]["slug"]]
                cards = walk(site, f"{path}/contents", genres=both, genresMatch="all")
                assert all(set(both) <= {label["slug"] for label in card["genres"]} for card in cards), both
                assert len(cards) <= min(facets["genres"][0]["count"], facets["genres"][1]["count"])
                checked["both"] += bool(cards)
            cyrillic = [card for card in walk(site, f"{path}/contents", sort="title")
                        if card["title"][0].lower() in RUSSIAN + "ё"]
            assert in_order(cyrillic, first_letter, descending=False), node["slug"]
            checked["alphabet"] += len({first_letter(card) for card in cyrillic}) > 1
    assert min(checked.values()) >= 3, checked  # every check met real categories, not empty lists
