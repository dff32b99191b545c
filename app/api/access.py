"""Who may call what: the role a view needs (spec §6: administration calls need an administrator), checked on the
server from the verified token's claims, and flask-jwt-extended's refusals in the one error shape (app/errors.py).

Roles rank ``viewer`` < ``editor`` < ``admin``; a view needing one admits the ranks above it. A token whose session
is revoked (app/services/accounts/revocations.py) is refused on the request that carries it."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Protocol

from flask import current_app
from flask_jwt_extended import get_jwt, verify_jwt_in_request

from app.errors import ApiError, error_body
from app.extensions import jwt
from app.models import Role

ROLE_RANK = {Role.VIEWER.value: 0, Role.EDITOR.value: 1, Role.ADMIN.value: 2}
ADMIN = Role.ADMIN.value
VIEWER = Role.VIEWER.value
FORBIDDEN_MESSAGE = "Недостаточно прав для этого действия"


class RevocationList(Protocol):
    def contains(self, session_id: str) -> bool: ...


def require_role(role: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The view needs a valid access token (a bearer header, or the cookie with its CSRF header) of ``role`` or
    above: 401 without one, 403 for a lesser role."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            verify_jwt_in_request()
            if ROLE_RANK.get(str(get_jwt().get("role")), -1) < ROLE_RANK[role]:
                raise ApiError(403, "forbidden", FORBIDDEN_MESSAGE, {"role": role})
            return view(*args, **kwargs)

        return guarded

    return decorate


def register_token_handlers() -> None:
    """A token whose session is revoked is refused; every refusal of flask-jwt-extended answers in our shape. (The
    JWTManager is one per process: each application's own revocation list is looked up at the request.)"""

    @jwt.token_in_blocklist_loader
    def revoked(_header: dict[str, Any], payload: dict[str, Any]) -> bool:
        session_id = payload.get("sid")
        revocations: RevocationList = current_app.extensions["revocations"]
        return not isinstance(session_id, str) or revocations.contains(session_id)

    def refuse(code: str, message: str) -> Callable[..., Any]:
        def answer(*_args: Any) -> Any:
            return error_body(401, code, message), 401, {"WWW-Authenticate": "Bearer"}

        return answer

    @jwt.unauthorized_loader
    def missing(reason: str) -> Any:
        if "CSRF" in reason:  # the cookie without its double-submit header
            return refuse("csrf_failed", "Нет заголовка X-CSRF-TOKEN или он не совпадает с cookie")()
        return refuse("unauthorized", "Войдите, чтобы продолжить")()

    jwt.invalid_token_loader(refuse("invalid_token", "Токен недействителен"))
    jwt.expired_token_loader(refuse("token_expired", "Срок действия токена истёк"))
    jwt.revoked_token_loader(refuse("token_revoked", "Сеанс завершён: войдите снова"))
    jwt.needs_fresh_token_loader(refuse("fresh_token_required", "Войдите снова"))
    jwt.token_verification_failed_loader(refuse("invalid_token", "Токен недействителен"))
    jwt.user_lookup_error_loader(refuse("invalid_token", "Токен недействителен"))
