"""The decorator stacks every call of a kind shares, composed once: a shared read, a call that needs a role. Each is
the same flask-smorest decorators in the same order as written out by hand; the OpenAPI document is unchanged by
them (tests/api/test_openapi.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask_jwt_extended import get_jwt, verify_jwt_in_request
from flask_smorest import Blueprint

from app.api.docs import BEARER, SHARED_HEADERS, answers
from app.errors import ApiError
from app.http.shared import shareable
from app.models import Role

View = Callable[..., Any]
FORBIDDEN_MESSAGE = "Недостаточно прав для этого действия"


def shared_read(blp: Blueprint, schema: Any, *statuses: int) -> Callable[[View], View]:
    """A read whose answer is the same for every anonymous caller of its address (app/http/shared.py): an ETag, 200
    with ``schema`` and the shared responses' headers, the error ``statuses`` it can answer, kept and shared. Put it
    under ``blp.arguments`` when the read has any."""

    def decorate(view: View) -> View:
        view = shareable()(view)
        view = answers(blp, *statuses)(view)
        view = blp.response(200, schema, headers=SHARED_HEADERS)(view)
        return blp.etag(view)

    return decorate


def require_role(blp: Blueprint, role: Role, locations: tuple[str, ...] | None = None) -> Callable[[View], View]:
    """The view needs a valid access token (a bearer header, or the cookie with its CSRF header; ``locations``
    ("headers",): the header only) of ``role`` or above: 401 without one, 403 for a lesser role; its OpenAPI entry
    says it takes a bearer token."""

    def decorate(view: View) -> View:
        @wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            verify_jwt_in_request(locations=list(locations) if locations else None)
            if not role.admits(get_jwt().get("role")):
                raise ApiError(403, "forbidden", FORBIDDEN_MESSAGE, {"role": role.value})
            return view(*args, **kwargs)

        return guarded

    return lambda view: decorate(blp.doc(security=BEARER)(view))
