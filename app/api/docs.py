"""What each API call documents besides its success (tests/api/test_openapi.py and the schemathesis run check it):
the error statuses it can answer, all in the one error shape (app/schemas/common.py ErrorSchema), and who may call it.

Every call: 400 (app/http/limits.py: a control character in the query, a body that is not JSON within its limits),
413 and 415 for one with a body (too large; not JSON: app/api/arguments.py), 500 and 503 (the default response,
DEFAULT_ERROR). Each call adds its own (``answers``)."""

from __future__ import annotations

import copy
import http
from collections.abc import Callable
from typing import Any

from flask_smorest import Blueprint

from app.models.ids import MAX_ID
from app.models.slugs import MAX_SLUG, SLUG

# The viewer of the progress and history calls: a device identity the service issued, or a bearer token.
SECURITY_SCHEMES = {
    "SessionContext": {"type": "apiKey", "in": "header", "name": "X-Session-Context",
                       "description": "a device identity issued by POST /session-context (spec §7)"},
    "bearerAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"},
}
VIEWER: list[dict[str, list[str]]] = [{"SessionContext": []}, {"bearerAuth": []}]
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]  # an account's calls: a bearer token only
NO_STORE = {"Cache-Control": "no-store"}  # the headers of an answer no cache may keep


def never_stored(blp: Blueprint) -> None:
    """No answer of ``blp`` may be kept by any cache: they are about the caller (accounts, progress, administration)."""

    @blp.after_request
    def no_store(response: Any) -> Any:
        response.cache_control.no_store = True
        return response


def answers(blp: Blueprint, *statuses: int, body: bool = False) -> Callable[[Any], Any]:
    """Documents 400 and each of ``statuses`` (413 and 415 too with ``body``) as error responses of the decorated
    view."""
    wanted = sorted({400, *statuses, *((413, 415) if body else ())})

    def decorate(view: Any) -> Any:
        for status in wanted:
            view = blp.alt_response(status, response=http.HTTPStatus(status).name)(view)
        return view

    return decorate


def slug_parameter(name: str, description: str, example: str, max_length: int = MAX_SLUG) -> dict[str, Any]:
    """A slug in a path, as the document states it (app/models/slugs.py): any other text names nothing, a 404
    answered without a query."""
    return {"in": "path", "name": name, "required": True, "description": description, "example": example,
            "schema": {"type": "string", "minLength": 1, "maxLength": max_length, "pattern": f"^{SLUG.pattern}$"}}


def id_parameter(name: str, description: str, example: int) -> dict[str, Any]:
    """A row id in a path (``<int:name>``), given to ``blp.route(…, parameters=[…])``: what it names and an example.
    flask-smorest merges it by name into the entry it writes from the rule; its schema says what a row id is (1 to
    2³¹-1: app/models/ids.py), where the rule's would say 0 and up."""
    return {"in": "path", "name": name, "description": description, "example": example,
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID}}


# The catalogue's reads are shared responses (app/http/shared.py): what their Cache-Control says.
SHARED_HEADERS = {
    "Cache-Control": {
        "description": "public with s-maxage and stale-while-revalidate when the answer is the same for every "
        "anonymous viewer of this address in this country; private otherwise",
        "schema": {"type": "string"},
    },
}


# /lib.js is a built asset (app/player/static.py), not a flask-smorest view, but publishers call it: documented here.
EMBED_SCRIPT = {"get": {
    "tags": ["embed"],
    "summary": "The publisher's script (docs/embed.md): PlayerHost.createPlayer(…) at a stable address.",
    "description": "Cached 5 minutes by browsers (public), then revalidated with its ETag.",
    "parameters": ["IF_NONE_MATCH"],
    "responses": {
        "200": {"description": "OK", "content": {"text/javascript": {"schema": {"type": "string"}}},
                "headers": {"ETag": "ETAG", "Cache-Control": {"description": "public, max-age=300",
                                                               "schema": {"type": "string"}}}},
        "304": "NOT_MODIFIED",
        "default": "DEFAULT_ERROR",
    },
}}


def document_embed_script(spec: Any, rules: Any) -> None:
    """After the assets' routes are made: flask-smorest's plugin writes the path from the route's rule."""
    rule = next(rule for rule in rules.iter_rules() if rule.rule == "/lib.js")
    spec.tag({"name": "embed", "description": "What a publisher's page loads to embed the player"})
    spec.path(rule=rule, operations=copy.deepcopy(EMBED_SCRIPT))
