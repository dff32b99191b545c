"""A person page (issue 33): ``GET /persons/{id}`` (who, the kinds of part they take, their published contents, paged)
and ``GET /persons/{id}/contents`` carrying the person whose contents they are."""

import pytest

from tests.api.queries import statements
from tests.api.test_catalogue_api import assert_error
from tests.api.test_reference_api import TOO_BIG, person_id, unpublish

ACTOR = {"slug": "actor", "title": "Актёр"}
OLGA = {"slug": "olga-belova", "name": "Ольга Белова", "originalName": "Olga Belova", "photoUrl": None}


def read(client, path):
    response = client.get(path)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_person_with_roles_and_contents(app, client, demo_catalogue):
    olga = person_id(app, "olga-belova")
    body = read(client, f"/persons/{olga}")
    assert {key: body[key] for key in OLGA} == OLGA and body["id"] == olga
    assert body["roles"] == [ACTOR]
    contents = body["contents"]
    assert (contents["total"], contents["page"], contents["pageSize"]) == (2, 1, 20)
    assert [(item["id"], item["parts"]) for item in contents["items"]] == [
        (2, [{"type": ACTOR, "character": "Следователь"}]), (5, [{"type": ACTOR, "character": "Мария"}])]
    assert set(body) == {"id", *OLGA, "roles", "contents"}


def test_roles_in_the_credits_order_of_types_and_of_published_contents_only(app, client, demo_catalogue):
    anna = person_id(app, "anna-morozova")
    assert read(client, f"/persons/{anna}")["roles"] == [{"slug": "director", "title": "Режиссёр"},
                                                          {"slug": "writer", "title": "Сценарист"}]
    unpublish(app, 2)  # the series she wrote
    body = read(client, f"/persons/{anna}")
    assert body["roles"] == [{"slug": "director", "title": "Режиссёр"}] and body["contents"]["total"] == 1
    pierre = person_id(app, "pierre-laurent")
    unpublish(app, 3)  # his only one: still a person, with nothing to show
    body = read(client, f"/persons/{pierre}")
    assert body["name"] == "Пьер Лоран" and body["roles"] == [] and body["contents"]["items"] == []


def test_the_contents_page_as_the_filmography_pages_them(app, client, demo_catalogue):
    olga = person_id(app, "olga-belova")
    second = read(client, f"/persons/{olga}?page=2&pageSize=1")["contents"]
    filmography = read(client, f"/persons/{olga}/contents?page=2&pageSize=1")
    assert second == {key: filmography[key] for key in ("items", "total", "page", "pageSize")}
    assert [item["id"] for item in second["items"]] == [5] and second["total"] == 2


def test_the_filmography_says_whose_it_is(app, client, demo_catalogue):
    olga = person_id(app, "olga-belova")
    body = read(client, f"/persons/{olga}/contents")
    assert body["person"] == {"id": olga, **OLGA}
    assert read(client, f"/persons/{olga}/contents?page=9")["person"]["id"] == olga  # past the last page too


@pytest.mark.parametrize("path", ["/persons/999", f"/persons/{TOO_BIG}", "/persons/0"])
def test_an_unknown_person_is_a_404(client, demo_catalogue, path):
    error = assert_error(client.get(path), 404, "person_not_found")
    assert error["message"] == "Персона не найдена"


@pytest.mark.parametrize("query", ["pageSize=0", "pageSize=101", "page=x"])
def test_a_bad_page_is_a_422(app, client, demo_catalogue, query):
    assert_error(client.get(f"/persons/{person_id(app, 'olga-belova')}?{query}"), 422, "validation_error")


def test_shared_with_an_etag_and_a_fixed_number_of_queries(app, client, demo_catalogue):
    olga = person_id(app, "olga-belova")
    first = client.get(f"/persons/{olga}")
    assert first.headers["Cache-Control"].startswith("public, max-age=0, s-maxage=")
    assert client.get(f"/persons/{olga}", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    with statements(app) as one:
        read(client, f"/persons/{olga}?pageSize=1")
    with statements(app) as two:
        read(client, f"/persons/{olga}?pageSize=2")
    assert len(one) == len(two) <= 6  # the person, the roles, the count, the page, the parts (the genres)
