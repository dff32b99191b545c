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
