"""One JSON error shape for every API error, one HTML error screen for pages; never a stack trace.

    {"error": {"status": 422, "code": "validation_error", "message": "Неверные данные в полях: page",
               "details": {"fields": {"page": ["Ожидается целое число"]}}}}

``code`` is English and stable (clients branch on it); ``message`` is Russian, for people, always: the libraries'
English (werkzeug's statuses, Flask-Limiter's "10 per 1 minute", marshmallow's field messages) never reaches a
client. ``details`` is optional; a refusal about fields names them in one shape, whoever raised it: ``fields`` maps
each field (nested names joined by dots: ``persons.0.name``, whatever part of the request it came in) to its
messages, so that a site can put them under its form's fields. The OpenAPI document describes it with
``app.schemas.common.ErrorSchema``. Rules raise the domain errors of app/services/errors.py, which know no HTTP:
``DOMAIN_STATUS`` gives each kind its status here.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import sentry_sdk
from flask import Flask, current_app, has_request_context, render_template, request
from werkzeug.exceptions import HTTPException

from app import texts
from app.database import UNAVAILABLE as DATABASE_UNAVAILABLE
from app.extensions import limiter
from app.http.requests import request_id
from app.schemas.messages import is_russian, russian
from app.services.errors import Conflict, DomainError, Forbidden, Invalid, NotFound, Unauthenticated

ADMIN_MESSAGES = {
    400: "Запрос не понят: вернитесь на предыдущую страницу и попробуйте ещё раз.",
    403: "Недостаточно прав: эта страница только для администраторов.",
    404: "Такой страницы нет: возможно, запись удалили.",
    413: "Файл слишком большой.",
    500: "Что-то пошло не так. Мы уже знаем об ошибке.",
    503: "База данных не ответила вовремя, изменения не сохранены. Вернитесь назад кнопкой браузера, проверьте форму "
         "и сохраните ещё раз через минуту.",
}
PAGE_BLUEPRINTS = {"player"}  # their errors render an HTML screen, everyone else's are JSON

_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    412: "precondition_failed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    428: "precondition_required",
    429: "too_many_requests",
    451: "unavailable_for_legal_reasons",
    500: "internal_error",
    503: "service_unavailable",
}
# What an HTTP error says when whoever raised it gave no Russian of its own (werkzeug's and the libraries' defaults)
HTTP_MESSAGES = {
    400: "Запрос не понят",
    401: "Войдите, чтобы продолжить",
    403: "Недостаточно прав",
    404: "Такого адреса нет",
    405: "Метод {method} по этому адресу не принимается",
    409: "Запрос противоречит сохранённым данным",
    412: "Условие запроса (If-Match) не выполнено",
    413: "Тело запроса больше {limit} байт",
    415: "Тело запроса должно быть JSON (Content-Type: application/json)",
    422: "Неверные данные",
    428: "Запросу нужно условие (If-Match)",
    429: "Слишком много запросов: попробуйте через {seconds} с",
    451: "Недоступно по требованию правообладателя или закона",
    500: "Внутренняя ошибка сервера. Мы уже знаем о ней.",
    503: "Сервис ненадолго недоступен: попробуйте позже",
}
UNAVAILABLE_FOR = "Сервис ненадолго недоступен: попробуйте через {seconds} с"  # the database away (its breaker)
CLIENT_ERROR, SERVER_ERROR = "Запрос не может быть выполнен", "Ошибка сервера: попробуйте позже"
FIELDS_MESSAGE = "Неверные данные в полях: {names}"


DOMAIN_STATUS: dict[type[DomainError], int] = {
    NotFound: 404, Forbidden: 403, Conflict: 409, Invalid: 422, Unauthenticated: 401,
}


class ApiError(HTTPException):
    """Raise from a view for an error with its own stable code and message."""

    def __init__(self, status: int, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(description=message)
        self.code = status
        self.error_code = code
        self.details = details


def error_body(status: int, code: str, message: str, details: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"status": status, "code": code, "message": message}
    if details:
        error["details"] = details
    if has_request_context():
        error["requestId"] = request_id()  # also in X-Request-Id and in our log lines
    return {"error": error}


def http_message(status: int, **values: Any) -> str:
    """The Russian of an HTTP status, with its values (``seconds``, ``method``, ``limit``) filled in."""
    return HTTP_MESSAGES.get(status, CLIENT_ERROR if status < 500 else SERVER_ERROR).format(**values)


def field_errors(messages: Any) -> tuple[dict[str, list[str]], list[str]]:
    """flask-smorest's argument errors (``{location: {field: [messages] or {nested…}}}``, ``_schema`` for what is
    about the whole of something) as ``{"name.0.inner": [Russian messages]}``, and the messages about a whole part
    of the request (a body that is not a JSON object) apart, since they name no field."""
    named: dict[str, list[str]] = {}
    whole: list[str] = []

    def walk(path: tuple[str, ...], value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(path if key == "_schema" else (*path, str(key)), inner)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(path, item)
        else:
            found = named.setdefault(".".join(path), []) if path else whole
            if russian(str(value)) not in found:
                found.append(russian(str(value)))

    for part in messages.values() if isinstance(messages, dict) else ():
        walk((), part)
    return named, whole


def _argument_error(status: int, messages: Any) -> tuple[str, dict[str, Any] | None]:
    named, whole = field_errors(messages)
    if named:
        return FIELDS_MESSAGE.format(names=", ".join(sorted(named))), {"fields": named}
    if whole:
        return "; ".join(whole), None
    return http_message(status), None


def _json_error(error: HTTPException) -> tuple[dict[str, Any], int, dict[str, str]]:
    status = error.code or 500
    headers = dict(error.get_headers()) if status == 405 else {}
    headers.pop("Content-Type", None)
    if isinstance(error, ApiError):
        return error_body(status, error.error_code, error.description or "", error.details), status, headers
    details = None
    own = error.description if error.description and is_russian(error.description) else None  # raised by us
    messages = (getattr(error, "data", None) or {}).get("messages")  # flask-smorest's argument errors
    if messages is not None:
        message, details = _argument_error(status, messages)
    elif status == 429:
        seconds = _retry_after()
        headers["Retry-After"] = str(seconds)  # what the message says (app/http/rates.py keeps it)
        message = own or http_message(429, seconds=seconds)
    else:
        message = own or http_message(status, method=request.method, limit=request.max_content_length)
    return error_body(status, _CODES.get(status, f"http_{status}"), message, details), status, headers


def _retry_after() -> int:
    """Seconds until the limit this request broke lets it through again, as Flask-Limiter counts them (the end of
    its window rounded up to the second), at least one."""
    broken = limiter.current_limit
    return max(1, int(broken.reset_at - time.time())) if broken else 60


def error_screen(
    message: str, status: int, *, error_id: str | None = None, context: dict[str, Any] | None = None
) -> tuple[str, int]:
    """The player's full-page error screen, rendered on the server."""
    return render_template("player/error.html", message=message, error_id=error_id, context=context), status


def _admin() -> bool:
    """An admin page's error is a page of the admin (app/admin), in Russian."""
    return request.path == "/admin" or request.path.startswith("/admin/")


def admin_error_page(status: int, error_id: str | None = None) -> tuple[str, int]:
    message = ADMIN_MESSAGES.get(status, ADMIN_MESSAGES[500])
    return render_template("admin/error.html", status=status, message=message, error_id=error_id), status


def handle_http_exception(error: HTTPException) -> Any:
    if _admin() and (error.code or 500) >= 400 and error.code not in (405, 429):
        return admin_error_page(error.code or 500)
    if request.blueprint in PAGE_BLUEPRINTS:
        message = texts.CONTENT_NOT_AVAILABLE if error.code == 404 else texts.GENERIC_ERROR
        return error_screen(message, error.code or 500)
    return _json_error(error)


def handle_domain_error(error: DomainError) -> Any:
    status = next((code for kind, code in DOMAIN_STATUS.items() if isinstance(error, kind)), 400)
    if request.blueprint in PAGE_BLUEPRINTS:
        return error_screen(error.message, status)
    return error_body(status, error.code, error.message, error.details), status


def handle_database_unavailable(error: Exception) -> Any:
    """The database could not be reached in time (app/database.py): 503 and when to try again, fast."""
    retry = str(current_app.config["DB_RETRY_AFTER"])
    cause = str(getattr(error, "orig", None) or error).strip().split("\n", 1)[0][:200]  # the driver's, not the SQL
    current_app.logger.warning("503 on %s %s: the database is unavailable (%s: %s)", request.method, request.path,
                               type(error).__name__, cause)
    if request.blueprint in PAGE_BLUEPRINTS or _admin():
        html, status = admin_error_page(503) if _admin() else error_screen(texts.GENERIC_ERROR, 503)
        return html, status, {"Retry-After": retry}
    body = error_body(503, "service_unavailable", UNAVAILABLE_FOR.format(seconds=retry))
    return body, 503, {"Retry-After": retry}


def handle_unexpected(error: Exception) -> Any:
    """Anything else (HTTP errors have their own handler): logged, reported by Sentry, answered without internals."""
    error_id = _report(error)
    # The same exception again: Sentry's dedupe drops the logging integration's copy of it.
    current_app.logger.error("unhandled error %s on %s %s", error_id, request.method, request.path, exc_info=error)
    if _admin():
        return admin_error_page(500, error_id)
    if request.blueprint in PAGE_BLUEPRINTS:
        return error_screen(texts.GENERIC_ERROR, 500, error_id=error_id)
    body = error_body(500, "internal_error", http_message(500), {"errorId": error_id})
    return body, 500


def _report(error: Exception) -> str:
    """Reports ``error`` to Sentry (when on) and returns the id a viewer can quote: Sentry's event id, else a random
    one that is in the log. Captured here explicitly: an error handler for Exception means Flask never sends the
    got_request_exception signal the Flask integration listens to."""
    return sentry_sdk.capture_exception(error) or uuid.uuid4().hex


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(DomainError, handle_domain_error)
    for kind in DATABASE_UNAVAILABLE:
        app.register_error_handler(kind, handle_database_unavailable)
    app.register_error_handler(Exception, handle_unexpected)
