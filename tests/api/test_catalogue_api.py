"""GET /contents/{id}, /contents/{id}/seasons, /episodes?content-id=…, /contents/{id}/available (spec §7)."""

import re

import pytest

from app import texts


def assert_error(response, status, code):
    assert response.status_code == status
    assert response.is_json
    error = response.get_json()["error"]
    assert error["status"] == status
    assert error["code"] == code
    assert error["message"]
    assert "Traceback" not in response.get_data(as_text=True)
    return error


def test_content_has_the_spec_fields(client, demo_catalogue):
    body = client.get("/contents/1").get_json()
    assert body == {
        "id": 1,
        "title": "Долгая дорога домой",
        "hasMultipleEpisodes": False,
        "posterUrl": "/media/posters/film-long.jpg",
        "contentType": {"slug": "film"},
        "year": 2021,
        "countries": [{"slug": "ru"}],
        "languages": [{"code": "en"}, {"code": "ru"}],
        "kinopoiskId": 1000001,
        "imdbId": "tt0000001",
        "rating": {"kinopoisk": {"value": 7.4}, "imdb": {"value": 7.1, "url": "https://www.imdb.com/title/tt0000001/"}},
    }


def test_content_has_an_etag_and_answers_304(client, demo_catalogue):
    first = client.get("/contents/2")
    assert first.headers["ETag"]
    again = client.get("/contents/2", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_unknown_content_is_one_json_error(client, demo_catalogue):
    error = assert_error(client.get("/contents/999"), 404, "content_not_found")
    assert error["message"] == texts.CONTENT_NOT_AVAILABLE


def test_seasons_in_order(client, demo_catalogue):
    assert client.get("/contents/2/seasons").get_json() == [
        {"id": 1, "order": 1, "title": "Сезон 1"},
        {"id": 2, "order": 2, "title": "Сезон 2"},
    ]
    assert client.get("/contents/1/seasons").get_json() == []
    assert_error(client.get("/contents/999/seasons"), 404, "content_not_found")


def test_episodes_by_content_in_play_order(client, demo_catalogue):
    episodes = client.get("/episodes?content-id=2").get_json()
    assert [(e["season"]["order"], e["order"]) for e in episodes] == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)]
    first = episodes[0]
    assert set(first) == {"id", "order", "title", "description", "duration", "posterPath", "m3u8MasterFilePath",
                          "isCompleted", "season"}
    # signed for this viewer (tests/api/test_licensed_media.py tells what that means)
    assert re.fullmatch(r"/media/s/[\w-]{22}/\d+/ru/titles/series-s1e1/master\.json", first["m3u8MasterFilePath"])
    assert first["isCompleted"] is False
    assert len({e["duration"] for e in episodes}) == 6  # every episode has its own duration


@pytest.mark.parametrize("query", ["", "?content-id=", "?content-id=abc", "?content-id=-3", "?content-id=99999999999"])
def test_episodes_need_a_valid_content_id(client, demo_catalogue, query):
    error = assert_error(client.get(f"/episodes{query}"), 422, "validation_error")
    assert "content-id" in error["details"]["query"]


@pytest.mark.parametrize("path", ["/contents/99999999999", "/contents/99999999999/seasons",
                                  "/contents/99999999999/available", "/contents/0"])
def test_ids_no_column_can_hold_are_unknown_contents(client, demo_catalogue, path):
    # PostgreSQL refuses integers beyond 32 bits; such an id must be a 404, never a 500.
    assert_error(client.get(path), 404, "content_not_found")


def test_episodes_of_an_unknown_content(client, demo_catalogue):
    assert_error(client.get("/episodes?content-id=12345"), 404, "content_not_found")


@pytest.mark.parametrize(("content_id", "country", "domain", "available"), [
    (1, "ru", "https://any.example/page", True),
    (3, "ru", "https://any.example/page", False),   # blocked in Russia
    (3, "de", "https://any.example/page", True),
    (3, None, "https://any.example/page", False),    # no header: DEFAULT_COUNTRY (ru)
    (5, "ru", "https://www.partner.example/film", True),
    (5, "ru", "https://other.example/film", False),  # allowed on the partner's domain only
    (5, "ru", None, False),
])
def test_available(client, demo_catalogue, behind_proxy, content_id, country, domain, available):
    headers = {"X-Viewer-Country": country} if country else {}
    query = f"?domain={domain}" if domain else ""
    response = client.get(f"/contents/{content_id}/available{query}", headers=headers)
    assert response.status_code == 200
    assert response.get_json() == {"available": available}


def test_unknown_route_and_method_are_json_errors(client):
    assert_error(client.get("/no/such/thing"), 404, "not_found")
    response = client.post("/contents/1")
    assert_error(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]


def test_an_unexpected_failure_is_a_json_500_without_internals(app, client):
    @app.get("/explode")
    def explode():
        raise RuntimeError("secret internals")

    error = assert_error(client.get("/explode"), 500, "internal_error")
    assert "secret" not in str(error)
    assert error["details"]["errorId"]
