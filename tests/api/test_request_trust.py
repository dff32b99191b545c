"""What a client may not decide by what it sends: its country, its address, the host our absolute addresses name.
And the headers every response carries (Referrer-Policy, Permissions-Policy), and a 412 without the file."""

from __future__ import annotations

import pytest
from flask import Flask

from app.demo.ads import seed_ads
from app.http.proxies import client_ip
from tests.api.test_catalogue_api import assert_error

BLOCKED_IN_RUSSIA = "/?movie_id=3"


def test_a_country_header_from_the_client_itself_changes_nothing(client, demo_catalogue):
    """Without a trusted proxy in front, X-Viewer-Country is the client's word: the default country holds."""
    assert client.get(BLOCKED_IN_RUSSIA, headers={"X-Viewer-Country": "de"}).status_code == 451
    assert client.get("/contents/3/available", headers={"X-Viewer-Country": "de"}).get_json() == {"available": False}


def test_the_country_header_counts_from_a_trusted_proxy_only(app, client, demo_catalogue):
    app.config["TRUSTED_PROXIES"] = "10.0.0.0/8"
    header = {"X-Viewer-Country": "de"}
    assert client.get(BLOCKED_IN_RUSSIA, headers=header, environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 200
    assert client.get(BLOCKED_IN_RUSSIA, headers=header, environ_base={"REMOTE_ADDR": "192.0.2.9"}).status_code == 451


@pytest.mark.parametrize(("peer", "forwarded", "expected"), [
    ("192.0.2.9", "203.0.113.5", "192.0.2.9"),  # a client's own X-Forwarded-For is not believed
    ("10.0.0.2", "203.0.113.5", "203.0.113.5"),  # nginx's is
    ("10.0.0.2", "198.51.100.1, 203.0.113.5, 10.0.0.7", "203.0.113.5"),  # the last hop that is not a proxy of ours
    ("10.0.0.2", "", "10.0.0.2"),
])
def test_the_client_address_comes_from_trusted_proxies_only(app, peer, forwarded, expected):
    app.config["TRUSTED_PROXIES"] = "10.0.0.0/8"
    environ = {"REMOTE_ADDR": peer, "HTTP_X_FORWARDED_FOR": forwarded}
    with app.test_request_context("/", environ_base=environ):
        assert client_ip() == expected


@pytest.fixture
def ads(app: Flask, demo_catalogue: Flask) -> Flask:
    with app.app_context():
        seed_ads()
    return app


def test_a_foreign_host_header_is_refused(client, ads):
    response = client.get("/vast.xml?creative=1", headers={"Host": "evil.example"})
    assert_error(response, 400, "bad_request")
    assert b"<VAST" not in response.data  # no document naming evil.example as our address


def test_absolute_addresses_come_from_public_url_whatever_the_host(app, client, ads):
    app.config["PUBLIC_URL"] = "https://player.example"
    app.config["TRUSTED_HOSTS"] = ["player.example", "localhost"]  # another name of ours, as ALLOWED_HOSTS gives
    xml = client.get("/vast.xml?creative=1", headers={"Host": "localhost"}).get_data(as_text=True)
    assert "https://player.example/ad-tracking?" in xml and "https://player.example/media/ads/house-15s.mp4" in xml
    assert "http://localhost" not in xml
    listed = client.get("/ad-list.json?content_id=1", headers={"Host": "localhost"}).get_json()
    assert listed["prerollList"] == [{"vastUrl": "https://player.example/vast.xml?creative=1"}]


@pytest.mark.parametrize("path", ["/?movie_id=1", "/contents/1", "/demo", "/lib.js", "/nowhere"])
def test_every_response_limits_its_referer_and_its_features(client, demo_catalogue, path):
    response = client.get(path)
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    policy = dict(item.strip().split("=", 1) for item in response.headers["Permissions-Policy"].split(","))
    assert policy["camera"] == "()" and policy["microphone"] == "()" and policy["geolocation"] == "()"
    if path.startswith("/?"):  # the player: what it needs, for itself
        assert {policy[name] for name in ("autoplay", "fullscreen", "picture-in-picture")} == {"(self)"}
    else:
        assert "autoplay" not in policy or policy["autoplay"] != "*"


def test_a_failed_if_match_sends_no_file(client):
    response = client.get("/lib.js", headers={"If-Match": '"not-this-one"'})
    assert response.status_code == 412
    assert response.data == b""
