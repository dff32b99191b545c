"""The browser's Sentry DSN (SENTRY_BROWSER_DSN): parsed once at start, its ingest origin for the CSP, handed to the
player in the runtime configuration only when set."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.http.reporting import Dsn, parse_dsn, reporting_connect_origins


@pytest.mark.parametrize(
    ("dsn", "expected"),
    [
        ("https://abc123@o1.ingest.sentry.io/4505", Dsn("https://o1.ingest.sentry.io", "abc123", "4505")),
        ("https://abc123@O1.Ingest.Sentry.io:443/4505", Dsn("https://o1.ingest.sentry.io", "abc123", "4505")),
        ("http://key:secret@127.0.0.1:9000/sentry/7/", Dsn("http://127.0.0.1:9000", "key", "7")),
    ],
)
def test_a_dsn_names_its_ingest_origin_key_and_project(dsn, expected):
    assert parse_dsn(dsn) == expected
    assert reporting_connect_origins(dsn) == (expected.origin,)


@pytest.mark.parametrize(
    "dsn",
    [
        "o1.ingest.sentry.io/4505",  # no scheme
        "https://o1.ingest.sentry.io/4505",  # no public key
        "https://key@o1.ingest.sentry.io/",  # no project
        "https://key@o1.ingest.sentry.io/project",  # a project id is a number
        "ftp://key@o1.ingest.sentry.io/1",
        "https://key@o1.ingest.sentry.io/1?x=1",
    ],
)
def test_a_malformed_dsn_is_refused_at_start(dsn):
    with pytest.raises(ValueError, match="Sentry DSN"):
        parse_dsn(dsn)
    with pytest.raises(ValueError, match="Sentry DSN"):
        Settings(SENTRY_BROWSER_DSN=dsn).check()


def test_no_dsn_no_origin():
    assert reporting_connect_origins("") == ()
    Settings(SENTRY_BROWSER_DSN="", SECRET_KEY="k" * 32).check()  # the default: nothing loaded, nothing to allow


def test_the_runtime_config_carries_the_dsn_only_when_set(app):
    from app.player.context import runtime_config

    with app.test_request_context("/"):
        assert runtime_config()["sentryDsn"] is None
        app.config["SENTRY_BROWSER_DSN"] = "https://abc@o1.ingest.sentry.io/5"
        config = runtime_config()
        assert config["sentryDsn"] == "https://abc@o1.ingest.sentry.io/5"
        assert config["sentryProject"] == app.config["SENTRY_PROJECT"]
