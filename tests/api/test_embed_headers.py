"""The embed page's security headers, the parent origin it hands the player, and /lib.js (spec §7)."""

import base64
import hashlib
import re

import pytest

from tests.api.test_player_page import page_context


def csp_of(response) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in response.headers["Content-Security-Policy"]
                                                 .split(";"))}


def inline(html: str, tag: str) -> list[str]:
    return re.findall(rf"<{tag}>(.*?)</{tag}>", html, re.S)


def sha256_source(text: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


def test_the_player_page_allows_its_inline_script_and_style_by_their_hashes(client, demo_catalogue):
    response = client.get("/?movie_id=1")
    html = response.get_data(as_text=True)
    policy = csp_of(response)
    [script], [style] = inline(html, "script"), inline(html, "style")
    assert policy["script-src"] == ["'self'", sha256_source(script)]
    assert policy["style-src"] == ["'self'", sha256_source(style)]
    assert "X-Frame-Options" not in response.headers  # publishers frame it
    assert policy["frame-ancestors"] == ["'self'", "http:", "https:"]
    assert "http:" in policy["media-src"]  # ENV=development: plain-http ad hosts too
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_every_page_view_gets_the_same_policy_so_that_a_cache_may_keep_the_page(client, demo_catalogue):
    first, second = (client.get("/?movie_id=1") for _ in range(2))
    assert first.headers["Content-Security-Policy"] == second.headers["Content-Security-Policy"]
    assert first.get_data() == second.get_data()


@pytest.mark.parametrize(("query", "status"), [("/", 400), ("/?movie_id=404404", 404), ("/?movie_id=abc", 404)])
def test_the_error_screens_are_embeddable_and_under_the_same_policy(client, demo_catalogue, query, status):
    response = client.get(query)
    assert response.status_code == status
    policy = csp_of(response)
    assert policy["frame-ancestors"] == ["'self'", "http:", "https:"]
    [style] = inline(response.get_data(as_text=True), "style")
    assert sha256_source(style) in policy["style-src"]


def test_an_unexpected_failure_screen_is_under_the_same_policy(client, demo_catalogue, monkeypatch):
    monkeypatch.setattr("app.player.views.resolve_player_context", lambda *a, **k: 1 / 0)
    response = client.get("/?movie_id=1")
    assert response.status_code == 500
    assert "'sha256-" in response.headers["Content-Security-Policy"]


def test_with_an_allow_list_only_its_publishers_may_frame_the_player(client, demo_catalogue, app):
    app.config["PUBLISHER_ORIGINS"] = "https://a.example,https://b.example:8443"
    app.config["ENV"] = "production"
    policy = csp_of(client.get("/?movie_id=1"))
    assert policy["frame-ancestors"] == ["'self'", "https://a.example", "https://b.example:8443"]
    assert "http:" not in policy["media-src"] and "http:" not in policy["connect-src"]


@pytest.mark.parametrize("path", ["/demo", "/contents/1", "/openapi.json", "/ad-list.json?content_id=1", "/nowhere",
                                  "/lib.js"])
def test_everything_else_refuses_framing(client, demo_catalogue, path):
    """Both ways: CSP level 2's frame-ancestors, and X-Frame-Options for browsers without it (the values written
    out here, not read from the module that sets them)."""
    response = client.get(path)
    assert response.headers.getlist("Content-Security-Policy") == ["frame-ancestors 'none'"], path
    assert response.headers.getlist("X-Frame-Options") == ["DENY"], path


@pytest.mark.parametrize(("query", "referer", "expected"), [
    ("&origin=https://a.example", "https://publisher.example/films/1", "https://a.example"),  # allow-listed
    ("&origin=https://a.example", None, "https://a.example"),
    # otherwise the player asks the browser: the page never depends on the Referer (a cache keeps one for all sites)
    ("", "https://publisher.example/films/1?x=1", None),
    ("&origin=https://evil.example", "https://publisher.example/films/1", None),
    ("", None, None),
])
def test_the_parent_origin_is_resolved_on_the_server(client, demo_catalogue, app, query, referer, expected):
    app.config["PUBLISHER_ORIGINS"] = "https://a.example"
    headers = {"Referer": referer} if referer else {}
    assert page_context(client.get(f"/?movie_id=1{query}", headers=headers))["config"]["parentOrigin"] == expected


def test_lib_js_has_a_stable_address_a_short_cache_and_an_etag(client):
    response = client.get("/lib.js", headers={"Accept-Encoding": "br"})
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Content-Encoding"] == "br"
    assert response.cache_control.max_age == 300 and response.cache_control.public
    assert not response.cache_control.immutable
    etag = response.headers["ETag"]
    again = client.get("/lib.js", headers={"Accept-Encoding": "br", "If-None-Match": etag})
    assert again.status_code == 304
    plain = client.get("/lib.js", headers={"Accept-Encoding": "identity"})
    assert "PlayerHost" in plain.get_data(as_text=True) and plain.headers["ETag"] != etag
    assert client.get("/assets/lib.js").status_code == 404  # never under the year-long asset cache


def test_the_browser_error_reportings_ingest_host_may_be_reached(client, demo_catalogue, app):
    app.config["SENTRY_BROWSER_DSN"] = "https://public@o42.ingest.sentry.example:8443/7"
    app.config["AD_LIST_URL"] = "http://ads.example/list.json"
    app.config["ENV"] = "production"
    connect = csp_of(client.get("/?movie_id=1"))["connect-src"]
    assert "https://o42.ingest.sentry.example:8443" in connect and "http://ads.example" in connect
    assert "http:" not in connect
