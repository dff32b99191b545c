"""schemathesis over the OpenAPI document (tests/api/schemathesis_checks.py), for the reviews, their votes and the
abuse reports."""

from __future__ import annotations

from tests.api.schemathesis_checks import REVIEWS, check_operations


def test_every_operation_keeps_to_the_document(app, api_schema, viewer_headers):
    check_operations(app, api_schema, viewer_headers, REVIEWS.match)
