"""schemathesis over the whole OpenAPI document (every operation, every check, bounded examples): no server error,
no status, header, content type or body the document does not declare, valid input accepted and invalid refused.
The viewer calls get a device identity the service issued; the demo catalogue and ads are there to be found."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode

from app.demo.ads import seed_ads

EXAMPLES = 40  # per operation and per mode (valid and invalid input): bounded, and deterministic


@pytest.fixture
def api_schema(app: Flask, demo_catalogue: Flask) -> schemathesis.BaseSchema:
    app.config.update(RATE_LIMIT_VIEWER="100000 per minute", RATE_LIMIT_IP="100000 per minute",
                      RATE_LIMIT_TRACKING="100000 per minute", RATE_LIMIT_SESSION_CONTEXT="100000 per minute")
    with app.app_context():
        seed_ads()
    return schemathesis.openapi.from_wsgi("/openapi.json", app)


def operations(schema: schemathesis.BaseSchema) -> list:
    return [result.ok() for result in schema.get_all_operations()]


def runs(schema: schemathesis.BaseSchema) -> list[tuple]:
    """(operation, mode, with an identity): valid and invalid input for each; a viewer call also without one."""
    found = []
    for operation in operations(schema):
        raw = operation.definition.raw
        secured = bool(raw.get("security"))
        takes_input = bool(raw.get("parameters") or raw.get("requestBody"))
        for mode in GenerationMode if takes_input else (GenerationMode.POSITIVE,):  # nothing to get wrong otherwise
            found.append((operation, mode, True))
        if secured:
            found.append((operation, GenerationMode.POSITIVE, False))
    return found


def checker(operation, mode: GenerationMode, headers: Callable[[], dict[str, str]]):
    """The property for one operation and mode: each case's answer keeps to the document."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
              database=None)
    def check(case):
        sent = headers()
        if case.headers and "X-Session-Context" in case.headers:
            sent.pop("X-Session-Context", None)  # the generated one: the document says how it is refused
        case.call_and_validate(headers=sent)

    return check


def test_every_operation_keeps_to_the_document(api_schema, viewer_headers):
    # as a browser would send it (the WSGI client does not undo brotli), with an issued identity or none
    identified = lambda: {"Accept-Encoding": "identity", **viewer_headers()}  # noqa: E731
    anonymous = lambda: {"Accept-Encoding": "identity"}  # noqa: E731
    found = []
    for operation, mode, with_identity in runs(api_schema):
        try:
            checker(operation, mode, identified if with_identity else anonymous)()
        except Exception as error:  # every operation is tried; all failures are reported together
            found.append(f"{operation.label} ({mode}, {'with' if with_identity else 'without'} identity): {error}")
    assert found == []
