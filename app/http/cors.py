"""Calls from a site on its own origin (CORS, Flask-CORS): a browser page on an origin of ``SITE_ORIGINS`` may call
the API, with credentials (the authToken cookie with X-CSRF-TOKEN, or a bearer token); every other origin gets no
``Access-Control-Allow-Origin``, so its browser refuses the answer, as when the list is empty (the default).

Only the API answers so: the calls of the OpenAPI document and the document itself, matched by their paths' first
segment (``/contents…``, ``/authentication…``, ``/v2…``; an unknown address under one of them too, so that a site
reads its 404). The player page, the admin, the media and the built assets never do.

A preflight (OPTIONS) is Flask's own answer, before any view, identity check (app/api/activity.py), CSRF check or rate
limit (app/extensions.py); the browser keeps it ``MAX_AGE`` seconds. Every API answer says ``Vary: Origin`` while the
list is set, so that no cache hands one origin's answer (or its refusal) to another; the shared-response store keeps
answers without their Access-Control-* headers (app/http/shared.py), and each request gets its own.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from flask import Flask, request
from flask_cors import CORS
from flask_smorest import Blueprint as ApiBlueprint
from werkzeug.wrappers import Response

from app.http.origins import parse_origin_list

# What a site's script may send: the headers the API reads (spec §7's X-Session-Context; a bearer token; the JSON
# body's type; the double-submit CSRF header of a cookie-authenticated write; conditional reads of the shared answers)
ALLOWED_HEADERS = ("Authorization", "Content-Type", "X-Session-Context", "X-CSRF-TOKEN", "If-None-Match", "If-Match")
# What it may read besides the safelisted ones: the new access token of sign-in and refresh (spec §7 reads it from
# Authorization), the request id to quote, when to try again after a 429 or 503, the shared reads' ETag, the limits
EXPOSED_HEADERS = ("Authorization", "X-Request-Id", "Retry-After", "ETag", "X-RateLimit-Limit",
                   "X-RateLimit-Remaining", "X-RateLimit-Reset")
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
MAX_AGE = 7200  # two hours: Chromium's cap (Firefox takes a day); a browser asks again at most that often
DOCUMENT_BLUEPRINT = "api-docs"  # flask-smorest's own, serving /openapi.json


def api_blueprints(app: Flask) -> set[str]:
    """The blueprints of the OpenAPI document (flask-smorest's) and the document's own."""
    return {name for name, blueprint in app.blueprints.items() if isinstance(blueprint, ApiBlueprint)} | {
        DOCUMENT_BLUEPRINT}


def _segment(rule: str) -> str:
    """A rule's first path segment as a regular expression: its variables (``sitemap<int:number>.xml``) any text."""
    first = rule.lstrip("/").split("/", 1)[0]
    return "[^/]+".join(re.escape(part) for part in re.split(r"<[^>]*>", first))


def api_paths(app: Flask, blueprints: Collection[str]) -> re.Pattern[str]:
    """The paths under the first segments of ``blueprints``' rules. Raises ValueError when one of them is also a
    first segment of another blueprint's rule (the player page's ``/``, ``/admin``, ``/media``): CORS would reach it."""
    own: set[str] = set()
    others: set[str] = set()
    for rule in app.url_map.iter_rules():
        (own if rule.endpoint.rpartition(".")[0] in blueprints else others).add(rule.rule)
    pattern = re.compile("^/(?:" + "|".join(sorted({_segment(rule) for rule in own})) + ")(?:/|$)")
    shared = sorted(rule for rule in others if pattern.match(re.sub(r"<[^>]*>", "1", rule)))
    if shared:
        raise ValueError(f"CORS: {shared} share a first path segment with the API's calls")
    return pattern


def register_cross_origin(app: Flask) -> None:
    """After every blueprint is registered. Nothing when ``SITE_ORIGINS`` is empty."""
    origins = parse_origin_list(app.config["SITE_ORIGINS"], "SITE_ORIGINS")
    if not origins:
        return
    paths = api_paths(app, api_blueprints(app))
    CORS(app, resources={paths: {}}, origins=list(origins), supports_credentials=True,
         allow_headers=list(ALLOWED_HEADERS), expose_headers=list(EXPOSED_HEADERS), methods=list(METHODS),
         max_age=MAX_AGE, always_send=False, vary_header=False, intercept_exceptions=False)
    # (Flask-CORS adds Vary: Origin only beside an Access-Control-Allow-Origin, and only for a list of two or more:
    # a cache must also keep a refusal, and an answer to no origin, apart)

    @app.after_request
    def vary_on_origin(response: Response) -> Response:
        if paths.match(request.path):
            response.vary.add("Origin")
        return response
