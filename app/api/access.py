"""flask-jwt-extended's refusals in the one error shape (app/errors.py), and the revocation list it asks: a token
whose session is revoked (app/services/accounts/revocations.py) is refused on the request that carries it. The role
a view needs (spec §6: administration calls need an administrator) is app/api/decorators.py ``require_role``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app import registry
from app.errors import error_body
from app.extensions import jwt


def register_token_handlers() -> None:
    """A token whose session is revoked is refused; every refusal of flask-jwt-extended answers in our shape. (The
    JWTManager is one per process: each application's own revocation list is looked up at the request.)"""

    @jwt.token_in_blocklist_loader
    def revoked(_header: dict[str, Any], payload: dict[str, Any]) -> bool:
        session_id = payload.get("sid")
        return not isinstance(session_id, str) or registry.revocations().contains(session_id)

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
