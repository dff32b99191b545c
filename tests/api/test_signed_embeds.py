"""Embed addresses signed by the publisher's server (app/http/embeds.py): a publisher that opts in
(PUBLISHER_EMBED_KEYS) closes its domain-licensed titles to a script that forges its Referer; titles without domain
rules, and publishers that do not sign, are as before."""

from __future__ import annotations

import time

import pytest
from flask import Flask

from app import create_app
from app.http.embeds import EMBED_MAX_SECONDS, embed_signature

PARTNERS_ONLY, FILM = 5, 1
KEY = "the-partners-embed-key-shared-with-its-server-only"
FRAMED_BY_PARTNER = {"Referer": "https://www.partner.example/films/5", "Sec-Fetch-Dest": "iframe"}


@pytest.fixture
def signing_partner(app: Flask, demo_catalogue: Flask) -> Flask:
    app.config["PUBLISHER_EMBED_KEYS"] = f"partner.example={KEY}"
    return app


def page(client, movie_id: int, **query: object):
    return client.get("/", query_string={"movie_id": movie_id, **query}, headers=FRAMED_BY_PARTNER)


def test_a_signing_publishers_licensed_title_needs_a_valid_signature(client, signing_partner):
    expires = int(time.time()) + 3600
    signed = {"embed_exp": expires, "embed_sig": embed_signature(KEY, PARTNERS_ONLY, expires)}
    assert page(client, PARTNERS_ONLY, **signed).status_code == 200
    unsigned = page(client, PARTNERS_ONLY)
    assert unsigned.status_code == 403 and "Контент не доступен" in unsigned.get_data(as_text=True)
    assert "/media/s/" not in unsigned.get_data(as_text=True)


@pytest.mark.parametrize("forged", [
    lambda now: {"embed_exp": now - 10, "embed_sig": embed_signature(KEY, PARTNERS_ONLY, now - 10)},  # expired
    lambda now: {"embed_exp": now + 3600, "embed_sig": embed_signature(KEY, FILM, now + 3600)},  # another title's
    lambda now: {"embed_exp": now + 7200, "embed_sig": embed_signature(KEY, PARTNERS_ONLY, now + 3600)},  # stretched
    lambda now: {"embed_exp": now + 3600, "embed_sig": embed_signature("another-key-" * 4, PARTNERS_ONLY, now + 3600)},
    lambda now: {"embed_exp": now + EMBED_MAX_SECONDS + 600,  # longer-lived than a publisher may sign
                 "embed_sig": embed_signature(KEY, PARTNERS_ONLY, now + EMBED_MAX_SECONDS + 600)},
    lambda now: {"embed_exp": "soon", "embed_sig": "x"},
], ids=["expired", "other-title", "stretched", "other-key", "too-long", "malformed"])
def test_a_forged_or_stale_signature_is_refused(client, signing_partner, forged):
    assert page(client, PARTNERS_ONLY, **forged(int(time.time()))).status_code == 403


def test_titles_without_domain_rules_and_publishers_that_do_not_sign_are_as_before(app, client, demo_catalogue):
    assert page(client, PARTNERS_ONLY).status_code == 200  # no publisher signs: the framing page decides
    app.config["PUBLISHER_EMBED_KEYS"] = f"partner.example={KEY}"
    assert page(client, FILM).status_code == 200  # shared by everyone: nothing to sign


def test_a_key_too_short_or_a_bad_domain_is_refused_at_start(migrated_database):
    for value in ("partner.example=short", "https://partner.example=" + KEY, "=" + KEY):
        with pytest.raises(ValueError, match="PUBLISHER_EMBED_KEYS"):
            create_app({"TESTING": True, "DATABASE_URL": migrated_database, "PUBLISHER_EMBED_KEYS": value})
