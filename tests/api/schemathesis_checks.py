"""schemathesis over the OpenAPI document (every operation, every check, bounded examples): no server error, no
status, header, content type or body the document does not declare, valid input accepted and invalid refused. The
viewer calls get a device identity the service issued; the demo catalogue and ads are there to be found.

The operations are checked in five test files that together take every one of them (a part each, so that the
test processes share the work): test_schemathesis_lists.py, test_schemathesis_accounts.py,
test_schemathesis_playlists.py, test_schemathesis_reviews.py and test_schemathesis_catalogue.py (everything the others
do not take)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable

import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from app.demo.ads import seed_ads
from app.models import Role
from tests.api.accounts_helpers import bearer, make_account, sign_in

# Per operation and per mode (valid and invalid input): bounded, and deterministic. `make test` tries 40;
# `make check`, the quick loop, fewer (SCHEMATHESIS_EXAMPLES, bin/check).
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "40"))
# Calls whose schema-valid input may still break a rule no schema can state: a mailed code that is wrong (any six
# digits are well-formed), a new password on the common list, an old password that does not match, a plan the
# configuration (SUBSCRIPTION_PLANS) does not offer, years from after years to, a time beyond the episode's length
# (the documented examples name a real episode), a review's text of spaces only, a second review of one content, a vote
# on one's own review, a reason that does not fit its target. Their 422 (409, 403) is documented; elsewhere
# valid input must be accepted (3xx: a GET answers If-None-Match: * with 304).
RULE_CHECKED = (r"^/(signup|signup/complete|user/password/(restore|change)|administration/new-user|subscription"
                r"|contents|v2/contents/search|(v2/)?types/\{type\}/categories/\{slug\}/contents"
                r"|contents/\{content_id\}/episodes/\{episode_id\}/time-progress"
                r"|playlists/new|(v2/)?playlists/\{playlist_id\}/contents(/\{content_id\})?"
                r"|v2/contents/\{content_id\}/reviews(/create|/\{review_id\}(/vote)?)?|abuse/new)$")
CONFIG = SchemathesisConfig.from_dict({"operations": [{
    "include-path-regex": RULE_CHECKED,
    "checks": {"positive_data_acceptance": {
        "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]}},
}]})


def api_schema(app: Flask, demo_catalogue: Flask) -> schemathesis.BaseSchema:
    app.config.update(RATE_LIMIT_VIEWER="100000 per minute", RATE_LIMIT_IP="100000 per minute",
                      RATE_LIMIT_TRACKING="100000 per minute", RATE_LIMIT_SESSION_CONTEXT="100000 per minute",
                      RATE_LIMIT_AUTH_IP="100000 per minute", RATE_LIMIT_AUTH_ACCOUNT="100000 per minute",
                      RATE_LIMIT_CATALOGUE_READS="100000 per minute", RATE_LIMIT_PLAYLIST_WRITES="100000 per minute",
                      RATE_LIMIT_REVIEW_WRITES="100000 per minute", RATE_LIMIT_REVIEW_VOTES="100000 per minute",
                      RATE_LIMIT_ABUSE_REPORTS="100000 per minute", RATE_LIMIT_ABUSE_IP="100000 per minute",
                      PAYMENT_WEBHOOK_SECRET="the payment provider's shared secret, 32+ bytes")
    with app.app_context():
        seed_ads()
    return schemathesis.openapi.from_wsgi("/openapi.json", app, config=CONFIG)


def operations(schema: schemathesis.BaseSchema) -> list:
    return [result.ok() for result in schema.get_all_operations()]


def runs(schema: schemathesis.BaseSchema) -> list[tuple]:
    """(operation, mode, caller): valid and invalid input for each with a device identity; a secured call also
    without one, and a bearer call also as a signed-in administrator (who passes every role check)."""
    found = []
    for operation in operations(schema):
        raw = operation.definition.raw
        security = raw.get("security") or []
        # If-None-Match (the ETag reads document it) has no invalid value to generate: it is not input to get wrong
        params = [p for p in raw.get("parameters") or [] if not p.get("$ref", "").endswith("/IF_NONE_MATCH")]
        takes_input = bool(params or raw.get("requestBody") or "{" in operation.path)
        modes = GenerationMode if takes_input else (GenerationMode.POSITIVE,)  # nothing to get wrong otherwise
        for mode in modes:
            found.append((operation, mode, "identity"))
        if security:
            found.append((operation, GenerationMode.POSITIVE, "anonymous"))
        if any("bearerAuth" in entry for entry in security):
            found += [(operation, mode, "administrator") for mode in modes]
    return found


def checker(operation, mode: GenerationMode, headers: Callable[[], dict[str, str]]):
    """The property for one operation and mode: each case's answer keeps to the document."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
              database=None)
    def check(case):
        sent = headers()
        if "Authorization" in sent:
            if case.operation.schema.is_security_param_negated(case):
                del sent["Authorization"]  # the case is about a missing or malformed token: it goes as generated
            elif case.headers:
                case.headers.pop("X-Session-Context", None)  # the bearer token alone identifies the caller
        if case.headers and "X-Session-Context" in case.headers:
            sent.pop("X-Session-Context", None)  # the generated one: the document says how it is refused
        case.call_and_validate(headers=sent)

    return check


def check_operations(app: Flask, api_schema: schemathesis.BaseSchema, viewer_headers: Callable[..., dict[str, str]],
                     takes: Callable[[str], bool]) -> None:
    """Runs every check on each operation whose path ``takes`` accepts; reports every failure together."""
    # as a browser would send it (the WSGI client does not undo brotli), with an issued identity or none, or as an
    # administrator's bearer call
    make_account(app, "root@example.com", Role.ADMIN)
    administrator = bearer(sign_in(app.test_client(), "root@example.com"))
    callers = {
        "identity": lambda: {"Accept-Encoding": "identity", **viewer_headers()},
        "anonymous": lambda: {"Accept-Encoding": "identity"},
        "administrator": lambda: {"Accept-Encoding": "identity", **administrator},
    }
    found, tried = [], 0
    for operation, mode, caller in runs(api_schema):
        if not takes(operation.path):
            continue
        tried += 1
        try:
            checker(operation, mode, callers[caller])()
        except (Exception, BaseExceptionGroup) as error:  # every operation is tried; all failures reported together
            found.append(f"{operation.label} ({mode}, {caller}): {error}")
    assert tried, "no operation taken: the part's paths match nothing in the document"
    assert not found, "\n\n".join(found)


LISTS = re.compile(r"^/(v2/contents/search|contents|(v2/)?types/\{type\}/categories/\{slug\}/contents)$")
PLAYLISTS = re.compile(r"^/(v2/)?playlists")
REVIEWS = re.compile(r"^/(v2/contents/\{content_id\}/reviews|abuse/)")
ACCOUNTS = re.compile(r"^/(user/|signup|authentication|administration/|subscription|caches|debug/|session-context"
                      r"|contents/\{content_id\}/episodes/)")
