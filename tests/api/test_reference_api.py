"""The catalogue's reference lists (spec §7): /types, /genres, /tags, /languages, /countries, /voice-authors,
/subtitles, /person-types, /person-types/{slug}/persons, /persons/{id}/contents."""


import pytest
from sqlalchemy import select

from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import Content, ContentPerson, ContentType, Genre, Person, PersonType, Tag
from tests.api.queries import statements
from tests.api.test_catalogue_api import assert_error

TOO_BIG = 2**31  # one past the largest id a column holds


def change(app, edit):
    """``edit()`` the catalogue inside an app context, as the admin would: committed, and kept answers made stale."""
    with app.app_context():
        edit()
        db.session.commit()
        invalidate_catalogue()


def unpublish(app, content_id):
    change(app, lambda: setattr(db.session.get(Content, content_id), "published", False))


def person_id(app, slug):
    with app.app_context():
        return db.session.scalar(select(Person.id).where(Person.slug == slug))


def items(response):
    assert response.status_code == 200, response.get_json()
    return response.get_json()["items"]




# --- types ---------------------------------------------------------------------------------------------------------

def test_types_in_position_order(app, client, demo_catalogue):
    assert client.get("/types").get_json() == [{"id": 1, "slug": "film", "title": "Фильм"},
                                               {"id": 2, "slug": "series", "title": "Сериал"}]
    change(app, lambda: setattr(db.session.get(ContentType, 2), "position", -1))
    assert [t["slug"] for t in client.get("/types").get_json()] == ["series", "film"]


def test_a_type_by_id_and_by_slug(client, demo_catalogue):
    assert client.get("/types/2").get_json() == {"id": 2, "slug": "series", "title": "Сериал"}
    assert client.get("/types/by-slug/film").get_json() == {"id": 1, "slug": "film", "title": "Фильм"}


@pytest.mark.parametrize("path", ["/types/999", f"/types/{TOO_BIG}", "/types/0", "/types/by-slug/cartoon",
                                  "/types/by-slug/FILM", "/types/by-slug/%00", f"/types/by-slug/{'a' * 200}"])
def test_an_unknown_type_is_a_404(client, demo_catalogue, path):
    assert_error(client.get(path), 404, "content_type_not_found")


def test_a_type_id_that_is_no_number_names_no_route(client, demo_catalogue):
    assert_error(client.get("/types/abc"), 404, "not_found")


# --- genres, tags, languages, voice authors ------------------------------------------------------------------------

def test_genres_by_title(client, demo_catalogue):
    genres = client.get("/genres").get_json()
    assert [g["title"] for g in genres] == ["Детектив", "Драма", "Комедия", "Приключения", "Триллер"]
    assert genres[1] == {"id": genres[1]["id"], "slug": "drama", "title": "Драма"}


def test_tags_are_a_page_in_the_envelope(client, demo_catalogue):
    body = client.get("/tags").get_json()
    assert set(body) == {"items", "total", "page", "pageSize"}
    assert (body["total"], body["page"], body["pageSize"]) == (4, 1, 20)
    assert [t["title"] for t in body["items"]] == ["Море", "По книге", "Роуд-муви", "Фестивальное кино"]
    assert set(body["items"][0]) == {"id", "slug", "title"}
    assert client.get("/tags?page=3&pageSize=2").get_json() == {"items": [], "total": 4, "page": 3, "pageSize": 2}


def test_tag_pages_keep_one_order_with_ties_broken_by_id(app, client, demo_catalogue):
    change(app, lambda: db.session.add_all(Tag(slug=f"twin-{n}", title="Близнец") for n in range(3)))
    whole = items(client.get("/tags?pageSize=100"))
    walked = [tag for page in range(1, 8) for tag in items(client.get(f"/tags?page={page}&pageSize=1"))]
    assert walked == whole and len(whole) == 7
    twins = [t["id"] for t in whole if t["title"] == "Близнец"]
    assert twins == sorted(twins) and [t["title"] for t in whole][:3] == ["Близнец"] * 3


@pytest.mark.parametrize(("query", "titles"), [
    ("мор", ["Море"]), ("МОР", ["Море"]), ("КИНО", ["Фестивальное кино"]), ("фёст", ["Фестивальное кино"]),
    ("-", ["Роуд-муви"]), ("о", ["Море", "По книге", "Роуд-муви", "Фестивальное кино"]), (".*", []), ("%", []),
    ("_", []), ("[а]", []), ("\\", []), ("' OR 1=1 --", []),
    ("", ["Море", "По книге", "Роуд-муви", "Фестивальное кино"]),
])
def test_tags_filtered_by_a_part_of_the_title(client, demo_catalogue, query, titles):
    found = items(client.get("/tags", query_string={"query": query}))
    assert [t["title"] for t in found] == titles


def test_a_tag_by_id(client, demo_catalogue):
    first = items(client.get("/tags"))[0]
    assert client.get(f"/tags/{first['id']}").get_json() == first
    for path in ("/tags/999", f"/tags/{TOO_BIG}", "/tags/0"):
        assert_error(client.get(path), 404, "tag_not_found")


@pytest.mark.parametrize("query", ["pageSize=0", "pageSize=101", "page=0", "page=abc", "pageSize=1.5", "pageSize=-1",
                                   "pageSize=%2B5", f"page={TOO_BIG}", f"query={'x' * 101}"])
def test_bad_tag_queries_are_422(client, demo_catalogue, query):
    error = assert_error(client.get(f"/tags?{query}"), 422, "validation_error")
    assert query.split("=")[0] in error["details"]["fields"]


def test_a_control_character_in_a_query_is_refused(client, demo_catalogue):
    assert_error(client.get("/tags?query=a%00b"), 400, "bad_request")


def test_languages_by_code(client, demo_catalogue):
    assert client.get("/languages").get_json() == [{"code": "en", "title": "English"},
                                                   {"code": "fr", "title": "Français"},
                                                   {"code": "ru", "title": "Русский"}]


def test_voice_authors_by_title(client, demo_catalogue):
    voices = client.get("/voice-authors").get_json()
    assert [(v["slug"], v["title"]) for v in voices] == [("dubliazh", "Дубляж"), ("original", "Оригинал")]
    assert all(set(v) == {"id", "slug", "title"} for v in voices)


# --- countries -----------------------------------------------------------------------------------------------------

ALL_COUNTRIES = [{"slug": "ru", "title": "Россия"}, {"slug": "us", "title": "США"}, {"slug": "fr", "title": "Франция"}]


@pytest.mark.parametrize("send", [
    lambda c: c.post("/countries"), lambda c: c.post("/countries", json={}), lambda c: c.get("/countries"),
])
def test_countries_by_title_in_the_envelope(client, demo_catalogue, send):
    assert send(client).get_json() == {"items": ALL_COUNTRIES, "total": 3, "page": 1, "pageSize": 20}


@pytest.mark.parametrize(("query", "slugs"), [("фран", ["fr"]), ("US", ["us"]), ("с", ["ru", "us"]), ("zz", [])])
def test_countries_filtered_the_same_by_post_and_get(client, demo_catalogue, query, slugs):
    by_post = client.post("/countries", json={"query": query, "pageSize": 10}).get_json()
    by_get = client.get("/countries", query_string={"query": query, "pageSize": 10}).get_json()
    assert by_post == by_get
    assert [c["slug"] for c in by_post["items"]] == slugs and by_post["total"] == len(slugs)


def test_country_pages(client, demo_catalogue):
    second = client.post("/countries", json={"page": 2, "pageSize": 2}).get_json()
    assert second == {"items": ALL_COUNTRIES[2:], "total": 3, "page": 2, "pageSize": 2}


@pytest.mark.parametrize("body", [{"pageSize": 0}, {"pageSize": 101}, {"page": 0}, {"page": "x"}, {"query": 5},
                                  {"pageSize": TOO_BIG}, {"unknown": 1}, {"query": "x" * 101}, [1]])
def test_bad_country_bodies_are_422(client, demo_catalogue, body):
    assert_error(client.post("/countries", json=body), 422, "validation_error")


def test_a_country_body_that_is_no_json_is_400(client, demo_catalogue):
    response = client.post("/countries", data="{", content_type="application/json")
    assert response.status_code == 400 and "error" in response.get_json()


# --- subtitles -----------------------------------------------------------------------------------------------------

def test_subtitle_languages_with_their_contents(app, client, demo_catalogue):
    both = [{"code": "en", "title": "English", "contents": 2}, {"code": "ru", "title": "Русский", "contents": 2}]
    assert client.get("/subtitles").get_json() == both
    assert client.get("/subtitles?content-id=1").get_json() == [{**language, "contents": 1} for language in both]
    assert client.get("/subtitles?content-id=3").get_json() == []  # published, without subtitles
    unpublish(app, 2)
    assert client.get("/subtitles").get_json() == [{**language, "contents": 1} for language in both]
    assert_error(client.get("/subtitles?content-id=2"), 404, "content_not_found")


@pytest.mark.parametrize(("query", "status"), [("content-id=999", 404), ("content-id=abc", 422),
                                               ("content-id=0", 422), (f"content-id={TOO_BIG}", 422),
                                               ("content-id=", 422)])
def test_bad_subtitle_queries(client, demo_catalogue, query, status):
    code = "content_not_found" if status == 404 else "validation_error"
    assert_error(client.get(f"/subtitles?{query}"), status, code)


# --- person types and persons --------------------------------------------------------------------------------------

def test_person_types_in_position_order(client, demo_catalogue):
    assert client.get("/person-types").get_json() == [{"slug": "director", "title": "Режиссёр"},
                                                      {"slug": "actor", "title": "Актёр"},
                                                      {"slug": "writer", "title": "Сценарист"}]


def test_persons_of_a_type_by_name(client, demo_catalogue):
    body = client.post("/person-types/actor/persons").get_json()
    assert (body["total"], body["page"], body["pageSize"]) == (2, 1, 20)
    ivan, olga = body["items"]
    assert ivan == {"id": ivan["id"], "slug": "ivan-petrov", "name": "Иван Петров", "originalName": "Ivan Petrov",
                    "photoUrl": None}
    assert olga["name"] == "Ольга Белова"
    assert [p["slug"] for p in items(client.get("/person-types/director/persons"))] == ["anna-morozova",
                                                                                       "pierre-laurent"]
    assert [p["slug"] for p in items(client.get("/person-types/writer/persons"))] == ["anna-morozova"]


@pytest.mark.parametrize(("query", "slugs"), [("петр", ["ivan-petrov"]), ("PETROV", ["ivan-petrov"]),
                                              ("ОЛЬГА", ["olga-belova"]), ("zz", []), ("о", ["ivan-petrov",
                                                                                      "olga-belova"])])
def test_persons_filtered_the_same_by_post_and_get(client, demo_catalogue, query, slugs):
    by_post = client.post("/person-types/actor/persons", json={"query": query}).get_json()
    by_get = client.get("/person-types/actor/persons", query_string={"query": query}).get_json()
    assert by_post == by_get
    assert [p["slug"] for p in by_post["items"]] == slugs


def test_person_pages(client, demo_catalogue):
    first = client.post("/person-types/actor/persons", json={"pageSize": 1}).get_json()
    second = client.get("/person-types/actor/persons?page=2&pageSize=1").get_json()
    assert [p["slug"] for p in first["items"] + second["items"]] == ["ivan-petrov", "olga-belova"]
    assert first["total"] == second["total"] == 2


def test_persons_of_unpublished_contents_only_are_left_out(app, client, demo_catalogue):
    unpublish(app, 3)  # Pierre Laurent directed it alone
    assert [p["slug"] for p in items(client.get("/person-types/director/persons"))] == ["anna-morozova"]


@pytest.mark.parametrize("slug", ["producer", "ACTOR", "%00", "a" * 200])
def test_an_unknown_person_type_is_a_404(client, demo_catalogue, slug):
    assert_error(client.post(f"/person-types/{slug}/persons"), 404, "person_type_not_found")
    assert_error(client.get(f"/person-types/{slug}/persons"), 404, "person_type_not_found")


@pytest.mark.parametrize("body", [{"pageSize": 0}, {"pageSize": 101}, {"page": "one"}, {"page": None}, {"name": "x"}])
def test_bad_person_bodies_are_422(client, demo_catalogue, body):
    assert_error(client.post("/person-types/actor/persons", json=body), 422, "validation_error")
    if isinstance(next(iter(body.values())), int):
        assert_error(client.get("/person-types/actor/persons", query_string=body), 422, "validation_error")


# --- a person's contents -------------------------------------------------------------------------------------------

ACTOR = {"slug": "actor", "title": "Актёр"}


def test_a_persons_contents_newest_first_with_their_parts(app, client, demo_catalogue):
    body = client.get(f"/persons/{person_id(app, 'ivan-petrov')}/contents").get_json()
    assert (body["total"], body["page"], body["pageSize"]) == (2, 1, 20)
    harbour, road = body["items"]
    assert (harbour["id"], harbour["year"], road["id"], road["year"]) == (2, 2023, 1, 2021)
    assert harbour["parts"] == [{"type": ACTOR, "character": "Смотритель маяка"}]
    assert road["parts"] == [{"type": ACTOR, "character": "Отец"}]
    assert harbour["slug"] == "tikhaya-gavan" and harbour["contentType"] == {"slug": "series", "title": "Сериал"}
    assert {"id", "slug", "title", "originalTitle", "year", "posterUrl", "contentType", "hasMultipleEpisodes",
            "ageRating", "genres", "rating", "reviews", "parts"} == set(harbour)


def test_every_part_of_the_person_in_one_content_in_credits_order(app, client, demo_catalogue):
    anna = person_id(app, "anna-morozova")

    def also_writes():
        writer = db.session.scalar(select(PersonType).where(PersonType.slug == "writer"))
        db.session.add(ContentPerson(content_id=1, person_id=anna, person_type_id=writer.id))

    change(app, also_writes)
    road = next(c for c in items(client.get(f"/persons/{anna}/contents")) if c["id"] == 1)
    assert road["parts"] == [{"type": {"slug": "director", "title": "Режиссёр"}, "character": None},
                             {"type": {"slug": "writer", "title": "Сценарист"}, "character": None}]


def test_a_persons_unpublished_contents_are_left_out(app, client, demo_catalogue):
    olga = person_id(app, "olga-belova")
    assert [c["id"] for c in items(client.get(f"/persons/{olga}/contents"))] == [2, 5]  # 2023, 2022
    unpublish(app, 2)
    assert client.get(f"/persons/{olga}/contents").get_json()["total"] == 1


@pytest.mark.parametrize("path", ["/persons/999/contents", f"/persons/{TOO_BIG}/contents", "/persons/0/contents"])
def test_an_unknown_person_is_a_404(client, demo_catalogue, path):
    assert_error(client.get(path), 404, "person_not_found")


@pytest.mark.parametrize("query", ["pageSize=0", "pageSize=101", "page=x"])
def test_bad_person_content_queries_are_422(app, client, demo_catalogue, query):
    assert_error(client.get(f"/persons/{person_id(app, 'ivan-petrov')}/contents?{query}"), 422, "validation_error")


# --- shared, and a fixed number of queries -------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/types", "/types/1", "/types/by-slug/film", "/genres", "/tags", "/tags/1",
                                  "/languages", "/countries", "/voice-authors", "/subtitles", "/person-types",
                                  "/person-types/actor/persons", "/persons/{anna}/contents"])
def test_reads_are_shared_with_an_etag(app, client, demo_catalogue, path, viewer_headers):
    path = path.format(anna=person_id(app, "anna-morozova"))
    first = client.get(path, headers=viewer_headers())  # the session context is accepted, never needed
    assert first.status_code == 200
    assert first.headers["Cache-Control"].startswith("public, max-age=0, s-maxage=")
    assert client.get(path, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304


def test_a_read_is_kept_until_the_catalogue_changes(app, client, demo_catalogue):
    assert len(items(client.get("/tags"))) == 4
    with app.app_context():
        db.session.add(Tag(slug="new", title="Новое"))
        db.session.commit()
    assert len(items(client.get("/tags"))) == 4  # the kept answer
    change(app, lambda: None)
    assert len(items(client.get("/tags"))) == 5


def add_credited_contents(app, count=12):
    """``count`` more published films, each with two genres, two tags, and Ivan Petrov as actor and writer."""
    def add():
        ivan = db.session.scalar(select(Person).where(Person.slug == "ivan-petrov"))
        kinds = {k.slug: k for k in db.session.scalars(select(PersonType))}
        genres = list(db.session.scalars(select(Genre)))
        for n in range(count):
            content = Content(title=f"Фильм {n}", content_type_id=1, year=2000 + n, genres=genres[n % 3:n % 3 + 2])
            content.persons = [ContentPerson(person=ivan, person_type=kinds["actor"], character=f"Роль {n}"),
                               ContentPerson(person=ivan, person_type=kinds["writer"])]
            db.session.add(content)
        db.session.add_all(Tag(slug=f"extra-{n}", title=f"Метка {n}") for n in range(count))
    change(app, add)


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/tags"), ("get", "/countries"), ("post", "/countries"), ("get", "/person-types/actor/persons"),
    ("post", "/person-types/writer/persons"), ("get", "/persons/{ivan}/contents"),
])
def test_a_page_costs_the_same_queries_whatever_its_size(app, client, demo_catalogue, method, path):
    add_credited_contents(app)
    path = path.format(ivan=person_id(app, "ivan-petrov"))
    counts = []
    for size in (1, 50):
        with statements(app) as seen:
            if method == "get":
                response = client.get(path, query_string={"pageSize": size})
            else:
                response = client.post(path, json={"pageSize": size})
        assert response.status_code == 200
        assert len(response.get_json()["items"]) == min(size, response.get_json()["total"])
        counts.append(len(seen))
    assert counts[0] == counts[1] > 0
