"""GET /contents/{id}, /contents/{id}/seasons, /episodes?content-id=…, /contents/{id}/available (spec §7)."""

import re
from datetime import UTC, datetime

import pytest

from app import texts
from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import Content, ContentPerson, Genre, Person, PersonType, Tag
from tests.api.error_rules import assert_error_rules
from tests.api.queries import statements
from tests.api.test_player_page import page_context


def assert_error(response, status, code):
    assert response.status_code == status
    assert response.is_json
    error = response.get_json()["error"]
    assert error["status"] == status
    assert error["code"] == code
    assert error["message"]
    assert "Traceback" not in response.get_data(as_text=True)
    assert_error_rules(error)
    return error


# The player's fields of the demo film (spec §3), as GET /contents/1 and the player page's context blob carried them
# before the details were added: the blob must keep carrying exactly these (its size is the first paint's).
FILM_PLAYER_FIELDS = {
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
FILM_DETAILS = {
    "slug": "dolgaya-doroga-domoy",
    "originalTitle": "The Long Way Home",
    "alternativeTitles": [{"title": "The Long Road Home", "language": "en", "kind": "international"},
                          {"title": "Северная трасса", "language": "ru", "kind": "former"}],
    "description": "Отец и сын едут через всю страну, чтобы успеть домой к зиме.",
    "ageRating": 12,
    "genres": [{"slug": "adventure", "title": "Приключения"}, {"slug": "drama", "title": "Драма"}],
    "tags": [{"slug": "road-movie", "title": "Роуд-муви"}],
    "voiceAuthors": [{"slug": "dubliazh", "title": "Дубляж"}, {"slug": "original", "title": "Оригинал"}],
    "subtitles": [{"code": "en", "title": "English"}, {"code": "ru", "title": "Русский"}],
    "persons": [
        {"type": {"slug": "director", "title": "Режиссёр"},
         "persons": [{"id": 1, "slug": "anna-morozova", "name": "Анна Морозова", "character": None}]},
        {"type": {"slug": "actor", "title": "Актёр"},
         "persons": [{"id": 2, "slug": "ivan-petrov", "name": "Иван Петров", "character": "Отец"}]},
    ],
    "reviews": {"count": 0, "averageRating": None},  # viewers' reviews: tests/api/test_reviews_api.py
    # the labels with their titles where the player's fields have slugs and codes (tests/api/test_title_page.py)
    "contentType": {"slug": "film", "title": "Фильм"},
    "countries": [{"slug": "ru", "title": "Россия"}],
    "languages": [{"code": "en", "title": "English"}, {"code": "ru", "title": "Русский"}],
    "categories": [
        {"id": 2, "slug": "drama-films", "title": "Драмы", "contentType": {"slug": "film", "title": "Фильм"},
         "parents": []},
        {"id": 1, "slug": "new", "title": "Новинки", "contentType": {"slug": "film", "title": "Фильм"}, "parents": []},
    ],
    "runtime": 1860,
}
PLAYS = {"playable": True, "reason": None}  # for this viewer's country (tests/api/test_title_page.py)


def test_content_has_the_spec_fields_and_its_details(client, demo_catalogue):
    body = client.get("/contents/1").get_json()
    updated = body.pop("updatedAt")
    assert body == {**FILM_PLAYER_FIELDS, **FILM_DETAILS, **PLAYS}
    # RFC 3339: a date, a time and an offset
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})", updated), updated
    assert datetime.fromisoformat(updated).tzinfo is not None


def test_persons_are_grouped_by_type_in_the_types_order(client, demo_catalogue):
    groups = client.get("/contents/2").get_json()["persons"]
    assert [(g["type"]["slug"], [p["slug"] for p in g["persons"]]) for g in groups] == [
        ("actor", ["olga-belova", "ivan-petrov"]), ("writer", ["anna-morozova"])]
    assert groups[0]["persons"][0] == {"id": 3, "slug": "olga-belova", "name": "Ольга Белова",
                                       "character": "Следователь"}


def test_the_player_pages_blob_keeps_only_the_players_fields(client, demo_catalogue):
    """The page's context blob carries the content as it did before the details (not one key more), while the API
    answers with both."""
    context = page_context(client.get("/?movie_id=1"))
    assert context["content"] == FILM_PLAYER_FIELDS
    series = page_context(client.get("/?movie_id=2"))["content"]
    assert set(series) == set(FILM_PLAYER_FIELDS) and series["title"] == "Тихая гавань"
    assert set(client.get("/contents/1").get_json()) == set(FILM_PLAYER_FIELDS) | set(FILM_DETAILS) | set(PLAYS) | {
        "updatedAt"}


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
                          "isCompleted", "season", "introStart", "introEnd", "creditsStart"}  # markers: issue 35
    # signed for this viewer (tests/api/test_licensed_media.py tells what that means)
    assert re.fullmatch(r"/media/s/[\w-]{22}/\d+/ru/2/titles/series-s1e1/master\.json", first["m3u8MasterFilePath"])
    assert first["isCompleted"] is False
    assert len({e["duration"] for e in episodes}) == 6  # every episode has its own duration


@pytest.mark.parametrize("query", ["", "?content-id=", "?content-id=abc", "?content-id=-3", "?content-id=99999999999"])
def test_episodes_need_a_valid_content_id(client, demo_catalogue, query):
    error = assert_error(client.get(f"/episodes{query}"), 422, "validation_error")
    assert "content-id" in error["details"]["fields"]


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


def test_an_unexpected_failure_is_a_json_500_without_internals(fresh_app):
    @fresh_app.get("/explode")
    def explode():
        raise RuntimeError("secret internals")

    error = assert_error(fresh_app.test_client().get("/explode"), 500, "internal_error")
    assert "secret" not in str(error)
    assert error["details"]["errorId"]


# --- a content by slug or Kinopoisk id; unpublished contents


def unpublish(app, *content_ids):
    with app.app_context():
        for content_id in content_ids:
            db.session.get(Content, content_id).published = False
        db.session.commit()
        invalidate_catalogue()


@pytest.mark.parametrize("path", ["/contents/by-slug/dolgaya-doroga-domoy", "/kinopoisk/contents/1000001"])
def test_a_content_by_slug_or_kinopoisk_id_is_the_same_answer(client, demo_catalogue, path):
    by_id = client.get("/contents/1")
    response = client.get(path)
    assert response.status_code == 200
    assert response.get_json() == by_id.get_json()
    assert response.headers["ETag"] == by_id.headers["ETag"]
    assert response.headers["Cache-Control"].startswith("public, max-age=0, s-maxage=")


@pytest.mark.parametrize("path", [
    "/contents/by-slug/no-such-title", "/contents/by-slug/Тихая-гавань", "/contents/by-slug/tikhaya--gavan",
    "/contents/by-slug/" + "a" * 129, "/contents/by-slug/%27%20OR%201%3D1", "/kinopoisk/contents/424242",
    "/kinopoisk/contents/0", "/kinopoisk/contents/99999999999",
])
def test_an_unknown_slug_or_kinopoisk_id_is_a_404(client, demo_catalogue, path):
    error = assert_error(client.get(path), 404, "content_not_found")
    assert error["message"] == texts.CONTENT_NOT_AVAILABLE


@pytest.mark.parametrize("path", ["/contents/2", "/contents/by-slug/tikhaya-gavan", "/kinopoisk/contents/1000002",
                                  "/contents/2/seasons", "/episodes?content-id=2", "/contents/2/available"])
def test_an_unpublished_content_is_not_found_by_any_read(app, client, demo_catalogue, path):
    assert client.get(path).status_code == 200  # kept in the shared store and in the snapshot: the change must show
    unpublish(app, 2)
    assert_error(client.get(path), 404, "content_not_found")


def test_the_player_page_of_an_unpublished_title_is_not_available(app, client, demo_catalogue):
    """Unpublishing a title takes it out of the player too, at once (its kept page and snapshot go with the catalogue's
    generation): ids are sequential, so an unpublished title must not play by id. The demo's are all published."""
    response = client.get("/?movie_id=1")
    assert response.status_code == 200 and page_context(response)["content"] == FILM_PLAYER_FIELDS
    unpublish(app, 1)
    response = client.get("/?movie_id=1")
    assert response.status_code == 404 and "Контент не доступен" in response.get_data(as_text=True)
    assert "player-context" not in response.get_data(as_text=True)  # no media address of it either


def test_a_kinopoisk_id_names_the_published_content_that_has_it(app, client, demo_catalogue):
    with app.app_context():
        db.session.add(Content(id=60, title="Тихая гавань (новая версия)", content_type_id=2, kinopoisk_id=1000002))
        db.session.commit()
    assert client.get("/kinopoisk/contents/1000002").get_json()["id"] == 2  # both published: the first made
    unpublish(app, 2)
    assert client.get("/kinopoisk/contents/1000002").get_json()["id"] == 60


def test_the_snapshot_costs_the_same_queries_however_many_credits_and_labels(app, client, demo_catalogue):
    app.config["SHARED_CACHE_SECONDS"] = 0
    with statements(app) as few:
        client.get("/contents/2")
    with app.app_context():
        kind = db.session.scalars(db.select(PersonType).where(PersonType.slug == "actor")).one()
        content = db.session.get(Content, 2)
        for n in range(8):
            content.persons.append(ContentPerson(person=Person(slug=f"extra-{n}", name=f"Актёр {n}"),
                                                 person_type=kind, position=10 + n))
            content.genres.append(Genre(slug=f"genre-{n}", title=f"Жанр {n}"))
            content.tags.append(Tag(slug=f"tag-{n}", title=f"Тег {n}"))
        db.session.commit()
        invalidate_catalogue()
    with statements(app) as many:
        body = client.get("/contents/2").get_json()
    assert len(body["persons"][0]["persons"]) == 10 and len(body["genres"]) == 10
    assert len(few) == len(many)


# --- the most relevant contents


def relevance(content, year):
    """The rule docs/api.md states, in Python."""
    ratings = [r for r in (content.kinopoisk_rating, content.imdb_rating) if r is not None]
    rating = sum(ratings) / len(ratings) if ratings else 5.0
    age = max(0, year - (content.year or content.created_at.year))
    return rating * 10 / (10 + age)


def most_relevant(client, query=""):
    response = client.get(f"/contents/most-relevant{query}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_most_relevant_ranking_is_the_documented_rule(app, client, demo_catalogue):
    year = datetime.now(UTC).year
    with app.app_context():
        db.session.add_all([
            Content(id=61, title="Новый хороший", content_type_id=1, year=year, kinopoisk_rating=8.5),
            Content(id=62, title="Старая классика", content_type_id=1, year=year - 40, kinopoisk_rating=9.0,
                    imdb_rating=8.8),
            Content(id=63, title="Без оценок", content_type_id=1, year=year - 1),
            Content(id=64, title="Из будущего", content_type_id=1, year=year + 3, imdb_rating=6.0),
            Content(id=65, title="Без года", content_type_id=1, imdb_rating=6.4),
            Content(id=66, title="Двойник нового", content_type_id=1, year=year, kinopoisk_rating=8.5),
            Content(id=67, title="Пятилетний", content_type_id=1, year=year - 5, imdb_rating=6.4),
            Content(id=68, title="Двухлетний", content_type_id=1, year=year - 2, imdb_rating=6.0),
        ])
        db.session.commit()
        expected = sorted(db.session.scalars(db.select(Content)),
                          key=lambda c: (c.position, -relevance(c, year), -c.id))
    body = most_relevant(client, "?pageSize=100")
    ids = [item["id"] for item in body["items"]]
    assert ids == [c.id for c in expected] and body["total"] == 13
    assert ids[:2] == [66, 61]  # a new 8.5 first; equal scores, the newer id first
    assert ids.index(61) < ids.index(2) < ids.index(62)  # recency damps the 9.0 of forty years ago
    assert ids.index(63) < ids.index(4)  # unrated counts as 5.0; 2018's 5.7 is damped below it
    assert ids.index(65) < ids.index(67)  # no year: the year it was added (this one), so its 6.4 is not damped
    assert ids.index(64) < ids.index(68)  # a year to come counts as this one: its 6.0 is not damped either


def test_the_editorial_position_comes_first(app, client, demo_catalogue):
    with app.app_context():
        db.session.get(Content, 4).position = -1  # lower first
        db.session.get(Content, 2).position = 1  # after every 0
        db.session.commit()
        invalidate_catalogue()
    ids = [item["id"] for item in most_relevant(client)["items"]]
    assert ids[0] == 4 and ids[-1] == 2


def test_most_relevant_pages_are_cards_without_overlap_and_exclude_unpublished(app, client, demo_catalogue):
    unpublish(app, 3)
    pages = [most_relevant(client, f"?page={page}&pageSize=2") for page in (1, 2, 3)]
    ids = [item["id"] for page in pages for item in page["items"]]
    assert sorted(ids) == [1, 2, 4, 5] and pages[0]["total"] == 4 and pages[2]["items"] == []
    assert set(pages[0]["items"][0]) == {"id", "slug", "title", "originalTitle", "year", "posterUrl", "contentType",
                                         "hasMultipleEpisodes", "ageRating", "genres", "rating", "reviews"}
    assert pages[0]["page"] == 1 and pages[0]["pageSize"] == 2


def test_most_relevant_of_one_type(client, demo_catalogue):
    body = most_relevant(client, "?type=series")
    assert [item["id"] for item in body["items"]] == [2] and body["total"] == 1
    assert {item["contentType"]["slug"] for item in most_relevant(client, "?type=film")["items"]} == {"film"}


def test_most_relevant_of_an_unknown_type_is_empty(client, demo_catalogue):
    """A filter value that names nothing matches nothing, as on every list (docs/api.md, Lists)."""
    for query in ("?type=cartoons", "?type=cartoons&availableHere=true&page=2"):
        body = most_relevant(client, query)
        assert body["items"] == [] and body["total"] == 0


@pytest.mark.parametrize("query", ["?type=", "?type=Фильм", "?type=film%20OR%201", "?pageSize=101", "?pageSize=0",
                                   "?page=0", "?page=x", "?type=" + "a" * 65])
def test_most_relevant_refuses_bad_input(client, demo_catalogue, query):
    assert_error(client.get(f"/contents/most-relevant{query}"), 422, "validation_error")


def test_most_relevant_costs_the_same_queries_for_a_page_of_one_or_fifty(app, client, demo_catalogue):
    app.config["SHARED_CACHE_SECONDS"] = 0
    with app.app_context():
        db.session.add_all(Content(title=f"Фильм {n}", content_type_id=1, year=2000 + n % 20, imdb_rating=5 + n % 5,
                                   genres=[Genre(slug=f"g-{n}", title=f"Жанр {n}")]) for n in range(60))
        db.session.commit()
    for query in ("", "&type=film"):
        with statements(app) as one:
            assert len(most_relevant(client, f"?pageSize=1{query}")["items"]) == 1
        with statements(app) as fifty:
            assert len(most_relevant(client, f"?pageSize=50{query}")["items"]) == 50
        assert len(one) == len(fifty) <= 5
