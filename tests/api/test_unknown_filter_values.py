"""One rule for a filter value that names nothing (docs/api.md, Lists): a well-formed slug no genre, country, tag,
voice author or content type has matches nothing, so every list answers 200 with no items and total 0, as TMDB's
discover and Jellyfin's item queries do; a malformed one is a 422 naming its field, and a resource named in the path
(a category, a type by id, a playlist) that does not exist is a 404.

The demo catalogue (tests/api/test_lists_api.py's docstring); its editors' playlist 1 holds 2, 1 and 5."""

from __future__ import annotations

import pytest

from tests.api.test_catalogue_api import assert_error
from tests.api.test_lists_api import FILMS_LIST

UNKNOWN = [("genres", "no-such-genre"), ("countries", "zz"), ("tags", "no-such-tag"),
           ("voiceAuthors", "no-such-studio")]


def empty(response):
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["items"] == [] and body["total"] == 0, body
    return body


@pytest.mark.parametrize(("name", "value"), UNKNOWN)
def test_an_unknown_label_matches_nothing_on_every_list(client, demo_catalogue, name, value):
    for path in ("/contents", FILMS_LIST, f"/v2{FILMS_LIST}"):
        empty(client.get(path, query_string={name: value}))
        empty(client.post(path, json={name: [value]}))
        empty(client.get(path, query_string={name: [value, "drama" if name == "genres" else value],
                                             f"{name}Match": "all"}))
    empty(client.get("/v2/contents/search", query_string={"query": "дорога", name: value}))
    empty(client.post("/v2/playlists/1/contents", json={name: [value]}))


def test_an_unknown_type_matches_nothing_on_every_list(client, demo_catalogue):
    empty(client.get("/contents?type=cartoons"))
    empty(client.get("/v2/contents/search", query_string={"query": "дорога", "type": "cartoons"}))
    empty(client.get("/contents/most-relevant?type=cartoons"))
    empty(client.get("/episodes/fresh?type=cartoons"))
    empty(client.post("/episodes/fresh", json={"type": "cartoons"}))


def test_a_known_value_beside_an_unknown_one_still_matches_when_any_will_do(client, demo_catalogue):
    body = client.get("/contents", query_string={"genres": ["comedy", "no-such-genre"]}).get_json()
    assert [item["id"] for item in body["items"]] == [5]


@pytest.mark.parametrize(("query", "field"), [("genres=Drama", "genres"), ("type=Фильм", "type"),
                                              ("countries=" + "z" * 200, "countries")])
def test_a_malformed_value_is_a_422_naming_it(client, demo_catalogue, query, field):
    fields = assert_error(client.get(f"/contents?{query}"), 422, "validation_error")["details"]["fields"]
    assert [name.split(".")[0] for name in fields] == [field]  # (a list's item: genres.0)


@pytest.mark.parametrize(("path", "code"), [
    ("/types/film/categories/no-such-category/contents", "category_not_found"),
    ("/types/cartoons/categories/new/contents", "content_type_not_found"),
    ("/types/film/categories/no-such-category/filters", "category_not_found"),
    ("/categories/filters/999", "content_type_not_found"),
    ("/categories/main-mart/content-type/999", "content_type_not_found"),
])
def test_a_resource_named_in_the_path_that_is_not_there_is_a_404(client, demo_catalogue, path, code):
    assert_error(client.get(path), 404, code)
