"""schemathesis over the OpenAPI document (tests/api/schemathesis_checks.py), for everything the lists', the
accounts', the playlists' and the reviews' parts do not take: the catalogue's reads, the reference lists, the site,
the ads, the sitemaps and the probes."""

from __future__ import annotations

from tests.api.schemathesis_checks import ACCOUNTS, LISTS, PLAYLISTS, REVIEWS, check_operations


def test_every_operation_keeps_to_the_document(app, api_schema, viewer_headers):
    check_operations(app, api_schema, viewer_headers,
                     lambda path: not any(part.match(path) for part in (LISTS, ACCOUNTS, PLAYLISTS, REVIEWS)))
