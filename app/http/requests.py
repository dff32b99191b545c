"""Every request's id: the one the trusted proxy sent (X-Request-Id, nginx's $request_id), else a new one. It is in the
response's X-Request-Id, in every error the API answers (error.requestId), and in every log line of the request, so
that a viewer's report, the proxy's log and ours meet."""

from __future__ import annotations

import logging
import re
import uuid

from flask import Flask, g, has_request_context, request
from flask.logging import default_handler
from werkzeug.wrappers import Response

from app.http.proxies import from_trusted_proxy

HEADER = "X-Request-Id"
LOG_FORMAT = "[%(asctime)s] %(levelname)s request=%(request_id)s in %(module)s: %(message)s"
_VALID = re.compile(r"[A-Za-z0-9._-]{8,64}")


def request_id() -> str:
    if "request_id" not in g:
        given = request.headers.get(HEADER, "")
        g.request_id = given if from_trusted_proxy() and _VALID.fullmatch(given) else uuid.uuid4().hex
    return str(g.request_id)


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record ("-" outside a request), for the log format to show."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id() if has_request_context() else "-"
        return True


def register_request_ids(app: Flask) -> None:
    @app.after_request
    def tag(response: Response) -> Response:
        response.headers[HEADER] = request_id()
        return response

    app.logger.addFilter(RequestIdFilter())  # before any handler formats the record
    default_handler.setFormatter(logging.Formatter(LOG_FORMAT))
