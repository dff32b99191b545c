"""schemathesis over the OpenAPI document (tests/api/schemathesis_checks.py), for the playlists: a viewer's own and
the editors' (the demo's, id 1, which the document's examples name)."""

from __future__ import annotations

from tests.api.schemathesis_checks import PLAYLISTS, check_operations


def test_every_operation_keeps_to_the_document(app, api_schema, viewer_headers):
    check_operations(app, api_schema, viewer_headers, PLAYLISTS.match)
