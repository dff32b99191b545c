"""Calls from a site on its own origin (app/http/cors.py): an origin of SITE_ORIGINS may read the API's answers with
credentials, every other origin gets no Access-Control-Allow-Origin (its browser refuses the answer), and no cache
hands one origin's answer to another. The same in a real browser: tests/browser/test_site_origin.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from app import create_app
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.http.cors import api_blueprints, api_paths
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.conftest import empty_tables

SITE, OTHER_SITE, STRANGER = "https://kino.example", "http://127.0.0.1:9001", "https://elsewhere.example"
SERIES, EPISODE = 2, 3
VIEWER_HEADERS = "authorization, content-type, x-csrf-token, x-session-context"


@pytest.fixture
def site_app(migrated_database: str, assets_built: Path, tmp_path: Path) -> Iterator[Flask]:
    """An application whose SITE_ORIGINS lists two sites (the CORS rules are made with the application), with the
    demo catalogue and an account."""
    app = create_app({"TESTING": True, "DATABASE_URL": migrated_database, "MEDIA_ROOT": str(tmp_path / "media"),
                      "SITE_ORIGINS": f"{SITE}  {OTHER_SITE},"})
    with app.app_context(), unhurried(app, db.engine):
        seed_demo()
    make_account(app, "site-viewer@example.com")
    yield app
    with app.app_context(), unhurried(app, db.engine):  # emptying is no request: not within the requests' deadline
        empty_tables()
        db.session.remove()


def cross_origin_headers(response) -> dict[str, str]:
    return {name: value for name, value in response.headers.items() if name.lower().startswith("access-control-")}


def vary_of(response) -> set[str]:
    return {part.strip().lower() for part in response.headers.get("Vary", "").split(",") if part.strip()}


def preflight(client, path: str, origin: str, method: str, headers: str = VIEWER_HEADERS):
    return client.options(path, headers={"Origin": origin, "Access-Control-Request-Method": method,
                                         "Access-Control-Request-Headers": headers})


def test_a_listed_site_reads_with_credentials_and_the_headers_it_needs(site_app):
    response = site_app.test_client().get(f"/contents/{SERIES}", headers={"Origin": SITE})
    assert response.status_code == 200 and response.get_json()["id"] == SERIES
    assert response.headers["Access-Control-Allow-Origin"] == SITE  # the one asking, never "*"
    assert response.headers["Access-Control-Allow-Credentials"] == "true"
    exposed = {name.strip().lower() for name in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"authorization", "x-request-id", "retry-after", "etag"} <= exposed
    assert "origin" in vary_of(response)


def test_every_listed_origin_is_answered_as_itself(site_app):
    response = site_app.test_client().get("/types", headers={"Origin": OTHER_SITE})
    assert response.headers["Access-Control-Allow-Origin"] == OTHER_SITE


@pytest.mark.parametrize("origin", [STRANGER, "https://kino.example.evil.example", "http://kino.example", "null"])
def test_any_other_origin_is_refused_as_before(site_app, origin):
    response = site_app.test_client().get(f"/contents/{SERIES}", headers={"Origin": origin})
    assert response.status_code == 200  # answered; the browser keeps it from the page: no Allow-Origin
    assert cross_origin_headers(response) == {}
    assert "origin" in vary_of(response)  # and no cache gives this answer to a listed site


def test_a_call_without_an_origin_gets_no_cross_origin_headers(site_app):
    response = site_app.test_client().get(f"/contents/{SERIES}")
    assert cross_origin_headers(response) == {}
    assert "origin" in vary_of(response)


def test_the_preflight_of_a_viewer_call_is_answered_and_kept_by_the_browser(site_app):
    """No X-Session-Context nor token in a preflight: still 200, not 401 viewer_unknown."""
    path = f"/contents/{SERIES}/episodes/{EPISODE}/time-progress"
    response = preflight(site_app.test_client(), path, SITE, "POST")
    assert response.status_code == 200
    headers = response.headers
    assert headers["Access-Control-Allow-Origin"] == SITE
    assert headers["Access-Control-Allow-Credentials"] == "true"
    assert {name.strip() for name in headers["Access-Control-Allow-Headers"].split(",")} == set(
        VIEWER_HEADERS.split(", "))
    assert "POST" in headers["Access-Control-Allow-Methods"]
    assert 600 <= int(headers["Access-Control-Max-Age"]) <= 86_400
    assert "origin" in vary_of(response)


def test_a_preflight_asking_for_a_header_the_api_does_not_read_does_not_get_it(site_app):
    response = preflight(site_app.test_client(), "/contents", SITE, "POST", "content-type, x-anything")
    assert response.headers["Access-Control-Allow-Headers"] == "content-type"  # the browser then refuses the call


def test_a_preflight_from_another_origin_is_refused(site_app):
    response = preflight(site_app.test_client(), f"/contents/{SERIES}/episodes/{EPISODE}/time-progress",
                         STRANGER, "POST")
    assert cross_origin_headers(response) == {}


def test_preflights_are_never_counted_by_the_rate_limits(site_app):
    site_app.config.update(RATE_LIMIT_AUTH_IP="3 per minute", RATE_LIMIT_VIEWER="3 per minute")
    client = site_app.test_client()
    for _ in range(6):
        assert preflight(client, "/authentication", SITE, "POST", "content-type").status_code == 200
        assert preflight(client, f"/contents/{SERIES}/episodes/{EPISODE}/completed", SITE, "POST").status_code == 200
    tokens = sign_in(client, "site-viewer@example.com", headers={"Origin": SITE})
    saved = client.post(f"/contents/{SERIES}/episodes/{EPISODE}/completed", headers={"Origin": SITE, **bearer(tokens)})
    assert saved.status_code == 204


def test_sign_in_refresh_and_a_cookie_write_from_a_site(site_app):
    """The spec's flow from another origin: the new token read from Authorization (exposed), the cookies set (the
    browser keeps them for a credentialed call), a cookie-authenticated write with its CSRF header."""
    client = site_app.test_client()
    signed = client.post("/authentication", json={"email": "site-viewer@example.com",
                                                  "password": "a long enough passphrase"}, headers={"Origin": SITE})
    assert signed.status_code == 200
    assert signed.headers["Access-Control-Allow-Origin"] == SITE
    assert signed.headers["Authorization"].startswith("Bearer ")
    assert "authorization" in signed.headers["Access-Control-Expose-Headers"].lower()
    tokens = signed.get_json()
    refreshed = client.post("/authentication/refresh", headers={"Origin": SITE},
                            json={"refreshToken": tokens["refreshToken"], "accessToken": tokens["accessToken"]})
    assert refreshed.status_code == 200 and refreshed.headers["Access-Control-Allow-Origin"] == SITE
    assert refreshed.headers["Authorization"] == f"Bearer {refreshed.get_json()['accessToken']}"
    csrf = client.get_cookie("csrf_access_token").value
    saved = client.post(f"/contents/{SERIES}/episodes/{EPISODE}/time-progress", json={"time": 42},
                        headers={"Origin": SITE, "X-CSRF-TOKEN": csrf})  # the authToken cookie, no bearer header
    assert saved.status_code == 204 and saved.headers["Access-Control-Allow-Origin"] == SITE


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/contents/404404", 404),
    ("GET", f"/contents/{SERIES}/episodes/progress", 401),  # no viewer: the blueprint's own check
    ("POST", "/authentication", 422),
    ("GET", "/contents/no-such-call/here", 404),  # an unknown address under an API path
])
def test_a_site_reads_the_errors_too(site_app, method, path, status):
    response = site_app.test_client().open(path, method=method, json={} if method == "POST" else None,
                                           headers={"Origin": SITE})
    assert response.status_code == status
    assert response.headers["Access-Control-Allow-Origin"] == SITE


def test_a_kept_answer_carries_only_the_asking_origins_headers(site_app, monkeypatch):
    """The shared-response store keeps the catalogue's reads: what it gives to the next caller is never the first
    caller's Access-Control-Allow-Origin."""
    import app.api.catalogue as api

    runs: list[int] = []
    original = api.get_snapshot
    monkeypatch.setattr(api, "get_snapshot", lambda *args, **kwargs: runs.append(1) or original(*args, **kwargs))
    client = site_app.test_client()
    first = client.get(f"/contents/{SERIES}", headers={"Origin": SITE})
    stranger = client.get(f"/contents/{SERIES}", headers={"Origin": STRANGER})
    other = client.get(f"/contents/{SERIES}", headers={"Origin": OTHER_SITE})
    none = client.get(f"/contents/{SERIES}")
    assert len(runs) == 1  # the three others came from the store
    assert first.headers["Access-Control-Allow-Origin"] == SITE
    assert cross_origin_headers(stranger) == {} and cross_origin_headers(none) == {}
    assert other.headers["Access-Control-Allow-Origin"] == OTHER_SITE
    assert {response.get_data() for response in (first, stranger, other, none)} == {first.get_data()}


@pytest.mark.parametrize("path", ["/?movie_id=1", "/admin/", "/lib.js", "/demo", "/media/posters/none.jpg"])
def test_only_the_api_answers_other_origins(site_app, path):
    response = site_app.test_client().get(path, headers={"Origin": SITE})
    assert cross_origin_headers(response) == {}


def test_without_site_origins_no_origin_is_allowed(client, demo_catalogue):
    response = client.get(f"/contents/{SERIES}", headers={"Origin": SITE})
    assert cross_origin_headers(response) == {}
    assert "origin" not in vary_of(response)
    refused = preflight(client, f"/contents/{SERIES}/episodes/{EPISODE}/time-progress", SITE, "POST")
    assert cross_origin_headers(refused) == {}


@pytest.mark.parametrize("value", ["*", "https://kino.example/films", "kino.example", "https://*.kino.example"])
def test_a_site_origin_that_is_not_an_origin_is_refused_at_start(value):
    with pytest.raises(ValueError, match="SITE_ORIGINS"):
        create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SITE_ORIGINS": value})


def test_the_api_paths_reach_no_other_blueprint(site_app):
    """The rule is made from the routes: a first segment shared with the player, the admin or the media refuses to
    start rather than open them to other origins."""
    pattern = api_paths(site_app, api_blueprints(site_app))
    assert pattern.match("/contents/2") and pattern.match("/types") and pattern.match("/sitemap3.xml")
    assert not pattern.match("/contents-extra") and not pattern.match("/") and not pattern.match("/admin/")
    assert not pattern.match("/media/x") and not pattern.match("/assets/x.js") and not pattern.match("/season-1")
    with pytest.raises(ValueError, match="share a first path segment"):
        api_paths(site_app, api_blueprints(site_app) | {"sign_in"})  # the admin's sign-in: /admin/… is the admin's
