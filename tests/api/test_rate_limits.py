"""Rate limits on what can be flooded (app/http/rates.py): 429 with Retry-After in the error shape, counted per viewer
and per client address, each caller on its own. Limits set low here; the defaults are in app/config.py."""

from __future__ import annotations

import pytest

from tests.api.test_catalogue_api import assert_error

LAST = "/contents/2/episodes/watched/last"


@pytest.fixture
def low_limits(app):
    app.config.update(RATE_LIMIT_VIEWER="3 per minute", RATE_LIMIT_IP="5 per minute",
                      RATE_LIMIT_TRACKING="4 per minute")
    return app


def test_the_pixel_is_limited_per_address_with_retry_after(client, demo_catalogue, low_limits):
    statuses = [client.get("/ad-tracking?event=start").status_code for _ in range(4)]
    assert 429 not in statuses
    response = client.get("/ad-tracking?event=start")
    assert_error(response, 429, "too_many_requests")
    assert 0 < int(response.headers["Retry-After"]) <= 60
    other = client.get("/ad-tracking?event=start", environ_base={"REMOTE_ADDR": "192.0.2.50"})
    assert other.status_code != 429  # another address has its own count


def test_progress_calls_are_limited_per_viewer(app, client, demo_catalogue, viewer_headers):
    app.config.update(RATE_LIMIT_VIEWER="3 per minute", RATE_LIMIT_IP="100 per minute")
    first, second = viewer_headers(), viewer_headers()
    for _ in range(3):
        assert client.get(LAST, headers=first).status_code != 429
    response = client.get(LAST, headers=first)
    assert_error(response, 429, "too_many_requests")
    assert int(response.headers["Retry-After"]) > 0
    assert client.get(LAST, headers=second).status_code != 429  # another viewer at the same address


def test_progress_calls_are_limited_per_address_whoever_the_viewer(app, client, demo_catalogue, viewer_headers):
    app.config.update(RATE_LIMIT_VIEWER="100 per minute", RATE_LIMIT_IP="3 per minute")
    for _ in range(3):
        assert client.get(LAST, headers=viewer_headers()).status_code != 429
    assert_error(client.get(LAST, headers=viewer_headers()), 429, "too_many_requests")  # new identities: no escape
    other_address = {"REMOTE_ADDR": "192.0.2.50"}
    assert client.get(LAST, headers=viewer_headers(), environ_base=other_address).status_code != 429


def test_a_client_cannot_dodge_the_address_count_with_x_forwarded_for(client, demo_catalogue, low_limits):
    for n in range(4):
        client.get("/ad-tracking?event=start", headers={"X-Forwarded-For": f"198.51.100.{n}"})
    assert client.get("/ad-tracking?event=start", headers={"X-Forwarded-For": "198.51.100.99"}).status_code == 429


# Issue 30 (13): the catalogue's reads that cost a query of their own, one count per address
FILTERS = "/categories/filters/1"
EXPENSIVE = [("get", "/contents?genres=drama"), ("post", "/contents"),
             ("get", "/types/film/categories/drama-films/contents?sort=year"),
             ("post", "/v2/types/film/categories/drama-films/contents"),
             ("get", "/v2/contents/search?query=гавань"), ("post", "/v2/contents/search"),
             ("get", FILTERS), ("get", "/contents/most-relevant?type=film")]


def read(client, method: str, path: str, **kwargs):
    body = {"query": "гавань"} if path == "/v2/contents/search" else {}
    return client.get(path, **kwargs) if method == "get" else client.post(path, json=body, **kwargs)


def test_the_expensive_catalogue_reads_share_a_limit_per_address(app, client, demo_catalogue):
    app.config["RATE_LIMIT_CATALOGUE_READS"] = f"{len(EXPENSIVE)} per minute"
    for method, path in EXPENSIVE:  # each a first: none answered from the shared store
        assert read(client, method, path).status_code == 200, (method, path)
    for method, path in EXPENSIVE:  # new addresses (or POSTs, never kept): each would cost a query
        again = path.replace(FILTERS, "/categories/filters/2") + ("&page=2" if "?" in path else "")
        response = read(client, method, again)
        assert_error(response, 429, "too_many_requests")
        assert 0 < int(response.headers["Retry-After"]) <= 60
    other = {"REMOTE_ADDR": "192.0.2.50"}
    assert read(client, "get", "/categories/filters/2", environ_base=other).status_code == 200  # a count of its own


def test_an_answer_the_shared_store_kept_is_not_counted(app, client, demo_catalogue):
    app.config["RATE_LIMIT_CATALOGUE_READS"] = "2 per minute"
    first = client.get("/contents/most-relevant?page=1")
    assert first.status_code == 200 and first.headers["Cache-Control"].startswith("public")
    for _ in range(10):  # the same address again: kept, answered before any view, costs nothing
        assert client.get("/contents/most-relevant?page=1").status_code == 200
    assert client.get("/contents/most-relevant?page=2").status_code == 200  # a new one: the second counted
    assert_error(client.get("/contents/most-relevant?page=3"), 429, "too_many_requests")
    assert client.get("/contents/most-relevant?page=1").status_code == 200  # still kept, still free


def test_the_cheap_reads_are_not_limited_by_it(app, client, demo_catalogue):
    app.config["RATE_LIMIT_CATALOGUE_READS"] = "1 per minute"
    assert read(client, "get", FILTERS).status_code == 200
    assert_error(read(client, "get", "/categories/filters/2"), 429, "too_many_requests")
    for path in ("/contents/1", "/types", "/genres", "/categories/main-mart", "/menu"):
        assert client.get(path).status_code == 200, path


def test_the_document_says_which_reads_are_limited_and_when_to_try_again(client):
    document = client.get("/openapi.json").get_json()
    paths = {"/contents": ["get", "post"], "/types/{type}/categories/{slug}/contents": ["get", "post"],
             "/v2/types/{type}/categories/{slug}/contents": ["get", "post"], "/v2/contents/search": ["get", "post"],
             "/categories/filters/{id}": ["get"], "/contents/most-relevant": ["get"]}
    for path, methods in paths.items():
        for method in methods:
            assert document["paths"][path][method]["responses"]["429"] == {
                "$ref": "#/components/responses/TOO_MANY_REQUESTS"}, (path, method)
    too_many = document["components"]["responses"]["TOO_MANY_REQUESTS"]
    assert too_many["headers"]["Retry-After"]["schema"]["type"] == "integer"
    assert too_many["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
