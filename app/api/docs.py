"""What each API call documents besides its success (tests/api/test_openapi.py and the schemathesis run check it):
the error statuses it can answer, all in the one error shape (app/schemas/common.py ErrorSchema), and who may call it.

Every call: 400 (app/http/limits.py: a control character in the query, a body that is not JSON within its limits),
413 for one with a body, 500 and 503 (the default response, DEFAULT_ERROR). Each call adds its own (``answers``)."""

from __future__ import annotations

import http
from collections.abc import Callable
from typing import Any

from flask_smorest import Blueprint

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
    """Documents 400 and each of ``statuses`` (413 too with ``body``) as error responses of the decorated view."""
    wanted = sorted({400, *statuses, *((413,) if body else ())})

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
    flask-smorest merges it by name into the entry it writes from the rule, whose schema (an integer) it keeps."""
    return {"in": "path", "name": name, "description": description, "example": example}


# The catalogue's reads are shared responses (app/http/shared.py): what their Cache-Control says.
SHARED_HEADERS = {
    "Cache-Control": {
        "description": "public with s-maxage and stale-while-revalidate when the answer is the same for every "
        "anonymous viewer of this address in this country; private otherwise",
        "schema": {"type": "string"},
    },
}
