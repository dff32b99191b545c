"""schemathesis over the OpenAPI document (tests/api/schemathesis_checks.py), for the lists and search: the calls that
take the catalogue's filters."""

from __future__ import annotations

from tests.api.schemathesis_checks import LISTS, check_operations


def test_every_operation_keeps_to_the_document(app, api_schema, viewer_headers):
    check_operations(app, api_schema, viewer_headers, LISTS.match)
