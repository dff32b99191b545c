"""How every call reads its arguments (app/api/arguments.py): unknown query keys ignored on every call, JSON bodies as
strict as their schemas, a body that is not JSON a 415 where a call takes JSON."""

from __future__ import annotations

from typing import Any

import pytest
from marshmallow import Schema, fields

from app.api.arguments import Blueprint
from app.errors import HTTP_MESSAGES
from tests.api.accounts_helpers import PASSWORD, make_account
from tests.api.test_catalogue_api import assert_error

FOREIGN = {"utm_source": "newsletter", "fbclid": "IwAR0xyz", "_": "1733"}  # what links and cache busters add


def without_request_id(response) -> Any:
    body = response.get_json(silent=True)
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        body["error"].pop("requestId", None)
    return body if body is not None else response.get_data()


def example_address(document: dict[str, Any], path: str, operation: dict[str, Any],
                    shared: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """The address of a documented GET with its path parameters and required query parameters at their examples."""
    query: dict[str, Any] = {}
    for given in [*shared, *operation.get("parameters", [])]:
        parameter = document["components"]["parameters"][given["$ref"].rsplit("/", 1)[1]] if "$ref" in given else given
        example = parameter.get("example", parameter.get("schema", {}).get("example"))
        if parameter["in"] == "path":
            path = path.replace("{" + parameter["name"] + "}", str(example))
        elif parameter["in"] == "query" and parameter.get("required"):
            query[parameter["name"]] = example
    return path, query


def test_every_read_answers_as_without_the_keys_it_does_not_know(app, client, demo_catalogue):
    document = client.get("/openapi.json").get_json()
    answered = 0
    for template, item in document["paths"].items():
        operation = item.get("get")
        if operation is None:
            continue
        path, query = example_address(document, template, operation, item.get("parameters", []))
        plain = client.get(path, query_string=query)
        tagged = client.get(path, query_string={**query, **FOREIGN})
        assert (tagged.status_code, without_request_id(tagged)) == (plain.status_code, without_request_id(plain)), (
            template, plain.status_code, tagged.status_code)
        answered += plain.status_code == 200
    assert answered >= 40  # the reads answered for real, not only refused the same way


@pytest.mark.parametrize(("path", "body"), [
    ("/contents", {}), ("/types/film/categories/drama-films/contents", {"pageSize": 2}),
    ("/v2/types/film/categories/drama-films/contents", {}), ("/v2/contents/search", {"query": "дорога"}),
    ("/countries", {}), ("/episodes/fresh", {}),
])
def test_a_read_by_post_ignores_them_in_its_query_too(client, demo_catalogue, path, body):
    plain = client.post(path, json=body)
    tagged = client.post(f"{path}?utm_source=x&fbclid=y", json=body)
    assert plain.status_code == tagged.status_code == 200
    assert tagged.get_json() == plain.get_json()


def test_a_known_key_with_a_bad_value_is_still_refused(client, demo_catalogue):
    error = assert_error(client.get("/contents?utm_source=x&pageSize=0"), 422, "validation_error")
    assert "pageSize" in str(error["details"]) and "utm_source" not in str(error["details"])


@pytest.mark.parametrize(("path", "body"), [
    ("/contents", {"bogus": 1}),
    ("/v2/contents/search", {"query": "дорога", "utm_source": "x"}),
    ("/countries", {"unknown": 1}),
    ("/authentication", {"email": "a@example.com", "password": "x", "remember": True}),
])
def test_a_body_with_a_field_the_call_does_not_take_is_still_refused(client, demo_catalogue, path, body):
    error = assert_error(client.post(path, json=body), 422, "validation_error")
    assert next(name for name in body if name not in ("query", "email", "password")) in str(error["details"])


def test_no_call_may_refuse_unknown_query_keys_for_itself():
    class Query(Schema):
        page = fields.Int()

    with pytest.raises(TypeError, match="unknown keys are ignored"):
        Blueprint("strict", __name__).arguments(Query, location="query", unknown="raise")


# --- a body that is not JSON -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("send", [
    {"data": {"email": "viewer@example.com", "password": PASSWORD}},  # a form, application/x-www-form-urlencoded
    {"data": {"email": "viewer@example.com", "password": PASSWORD}, "content_type": "multipart/form-data"},
    {"data": '{"email": "viewer@example.com", "password": "x"}', "content_type": "text/plain;charset=UTF-8"},
    {"data": '{"email": "viewer@example.com", "password": "x"}', "content_type": ""},  # fetch's string, no type
])
def test_a_body_that_is_not_json_is_a_415_saying_json_is_expected(app, client, send):
    make_account(app, "viewer@example.com")
    error = assert_error(client.post("/authentication", **send), 415, "unsupported_media_type")
    assert error["message"] == HTTP_MESSAGES[415] == "Тело запроса должно быть JSON (Content-Type: application/json)"


def test_every_call_that_takes_json_refuses_a_form(client, demo_catalogue, viewer_headers):
    for path in ("/contents", "/session-context", "/contents/2/episodes/3/time-progress", "/signup", "/countries"):
        response = client.post(path, data={"time": "5"}, headers=viewer_headers())
        assert_error(response, 415, "unsupported_media_type")


def test_a_call_without_a_body_needs_no_content_type(client, demo_catalogue, viewer_headers):
    """Its body optional (a list read by POST) or taken by none (a mark): as before, whatever the type says."""
    assert client.post("/contents").status_code == 200
    assert client.post("/contents", content_type="application/x-www-form-urlencoded").status_code == 200
    headers = viewer_headers()
    assert client.post("/contents/2/episodes/3/completed", headers=headers).status_code == 204
    marked = client.post("/contents/2/episodes/3/completed", headers=headers, data={"anything": "1"})
    assert marked.status_code == 204  # a call that takes no body never reads one


def test_the_document_says_415_wherever_a_body_is_taken(client):
    document = client.get("/openapi.json").get_json()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            assert ("415" in operation["responses"]) == ("requestBody" in operation), (method, path)
