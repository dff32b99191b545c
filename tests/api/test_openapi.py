"""The OpenAPI document (/openapi.json) against the application's own routes: every API call is in it, with its
methods, its success response, the error responses it documents in the one error shape the service sends."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from openapi_spec_validator import OpenAPIV30SpecValidator

# The routes that are not API calls: pages, built assets, media, the document itself.
NOT_API = {"api-docs.openapi_json", "player.player", "player.preview", "player.demo", "media", "signed_media"}
NOT_API_BLUEPRINTS = {"assets"}
DOCUMENTED_ASSETS = {"assets.embed_lib"}  # /lib.js: publishers call it (app/api/docs.py EMBED_SCRIPT)
ADMIN_PAGES = "/admin/"  # the editors' admin (app/admin): HTML pages and forms, tested in tests/admin
IGNORED_METHODS = {"HEAD", "OPTIONS"}
OWN_ERROR_BODIES = {("/readyz", "get", "503")}  # the readiness probe says what is missing in its own shape


def api_routes(app: Flask) -> set[tuple[str, str]]:
    """(OpenAPI path, method) of every API route the application answers."""
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint in NOT_API or (rule.endpoint.split(".")[0] in NOT_API_BLUEPRINTS
                                         and rule.endpoint not in DOCUMENTED_ASSETS):
            continue
        if rule.rule.startswith(ADMIN_PAGES):
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        routes |= {(path, method.lower()) for method in (rule.methods or set()) - IGNORED_METHODS}
    return routes


@pytest.fixture
def document(client) -> dict:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def documented(document: dict) -> set[tuple[str, str]]:
    return {(path, method) for path, item in document["paths"].items() for method in item if method != "parameters"}


def test_every_api_route_is_documented_with_each_method(app, document):
    routes = api_routes(app)
    assert len(routes) >= 11  # the catalogue reads, the progress calls, the ad calls
    assert routes - documented(document) == set()
    assert documented(document) - routes == set()  # and nothing is documented that does not answer


def test_a_new_undocumented_route_is_noticed(fresh_app):
    fresh_app.add_url_rule("/contents/<int:content_id>/secret", "secret", lambda content_id: "x")
    document = fresh_app.test_client().get("/openapi.json").get_json()
    assert api_routes(fresh_app) - documented(document) == {("/contents/{content_id}/secret", "get")}


def test_every_operation_documents_its_success_and_the_error_shape(document):
    responses = document["components"]["responses"]
    for path, method in documented(document):
        operation = document["paths"][path][method]
        statuses = set(operation["responses"])
        assert any(status.startswith("2") for status in statuses), (path, method)
        assert operation["responses"]["default"] == {"$ref": "#/components/responses/DEFAULT_ERROR"}
        for status in statuses - {"default"}:
            if status.startswith(("4", "5")) and (path, method, status) not in OWN_ERROR_BODIES:
                ref = operation["responses"][status]["$ref"].rsplit("/", 1)[-1]
                schema = responses[ref]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, (path, method, status)


def test_the_documented_error_shape_is_the_one_the_service_sends(client, document):
    schemas = document["components"]["schemas"]
    envelope = schemas["Error"]
    assert envelope["required"] == ["error"] and set(envelope["properties"]) == {"error"}
    detail = schemas[envelope["properties"]["error"]["$ref"].rsplit("/", 1)[-1]]
    details = schemas[detail["properties"]["details"]["allOf"][0]["$ref"].rsplit("/", 1)[-1]]
    assert details["additionalProperties"] is True  # each error's own ids and limits beside the fields
    assert details["properties"]["fields"]["additionalProperties"] == {"type": "array", "items": {"type": "string"}}
    for response in (client.get("/contents/123456"), client.get("/episodes?content-id=x"),
                     client.get("/vast.xml"), client.post("/contents/1/episodes/1/completed")):
        body = response.get_json()
        assert set(body) == {"error"}
        error = body["error"]
        assert set(detail["required"]) <= set(error) <= set(detail["properties"]), error
        assert error["status"] == response.status_code
        assert isinstance(error["code"], str) and isinstance(error["message"], str) and error["message"]


def test_the_document_is_valid_openapi(document):
    """As openapi-spec-validator reads OpenAPI 3.0: its patterns ECMA-262 regular expressions (no \\A or \\Z)."""
    errors = [str(error).splitlines()[0][:300] for error in OpenAPIV30SpecValidator(document).iter_errors()]
    assert document["openapi"].startswith("3.0") and errors == []


def test_each_parameter_is_declared_once_and_ids_start_at_one(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            declared = [(p["in"], p["name"]) for p in [*item.get("parameters", []), *operation.get("parameters", [])]
                        if "name" in p]
            assert len(declared) == len(set(declared)), (path, method, declared)
            for parameter in item.get("parameters", []):
                if parameter["in"] == "path" and parameter["schema"]["type"] == "integer":
                    assert parameter["schema"]["minimum"] == 1, (path, parameter)


def test_the_embed_script_and_availability_say_their_etag(client, demo_catalogue, document):
    for path, address in (("/lib.js", "/lib.js"), ("/contents/{content_id}/available", "/contents/1/available")):
        operation = document["paths"][path]["get"]
        assert "ETag" in operation["responses"]["200"]["headers"] and "304" in operation["responses"], path
        etag = client.get(address).headers["ETag"]
        assert client.get(address, headers={"If-None-Match": etag}).status_code == 304, path
