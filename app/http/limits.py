"""What a request may cost us before any view runs (checked in ``before_request``, answered in the error shape):

* its body: ``MAX_REQUEST_BYTES`` at most (Flask's MAX_CONTENT_LENGTH: 413 from the Content-Length alone, or once
  the body grows past it), small by default: the API takes a few hundred bytes of JSON;
* a JSON body: parsed once here with its numbers bounded (an integer of thousands of digits costs quadratic time to
  read, and Python refuses those past 4,300 digits with an error that was a 500), no NaN or Infinity, at most
  ``MAX_JSON_DEPTH`` levels deep (Python's parser recurses: thousands of levels were a RecursionError), no
  control character in a string but tab, newline and carriage return (PostgreSQL cannot store NUL), and no lone
  surrogate (``"\\ud800"`` without its pair: JSON lets it be written, UTF-8 cannot encode it, so the password hasher,
  either database and the answer echoing it all failed with a 500), in a key or a value at any depth;
* the query: no control character at all, in a name or a value. Except on the player page, whose parameters follow
  the spec's rule instead (spec §5: an invalid value is ignored, an invalid movie_id is 'Контент не доступен'):
  app/services/player/params.py drops a value with a control character.

A body that breaks one is a 400 (413 for the size) before flask-smorest or any view reads it.

A body the application did not read (refused for its size, or answered before any view read it) is still on the
connection, and the server reads the client's next request after it. gunicorn reads at most 64 KiB of such a body
and then closes the connection, after an answer that said keep-alive: the client's next request on it got no
answer, and nginx, still sending an admin upload that was answered by a redirect to the sign-in, broke off. So after
the answer the rest of the body is read and dropped here (``settle_body``), and the connection serves the next
request; one too large for that is not read, and the server is asked to close the connection and say so
(``Connection: close``), which a WSGI application may not send itself.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

BODY_LIMIT = "app.body_limit"  # the environ's key for the request's limit
DRAIN_BYTES = 1_048_576  # what a refused body may cost us to keep its connection: 16 times the default limit
MAX_JSON_DEPTH = 32
MAX_INT_DIGITS = 19  # what a 64-bit integer needs; every number the API takes is far smaller
_JSON_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tab, newline and CR are text
# A pair (\ud83d\ude00) is joined into one character by the parser: what is left in this range is a lone half
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_QUERY_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
SPEC_QUERY_ENDPOINTS = {"player.player"}  # their query is the spec's to judge (above)


class InvalidInput(BadRequest):
    """A request that breaks a limit: a 400 whose description says which."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise InvalidInput(f"Число в теле JSON длиннее {MAX_INT_DIGITS} цифр")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InvalidInput("Число в теле JSON вне допустимого диапазона")
    return value


def _constant(name: str) -> Any:
    raise InvalidInput(f"{name} — не JSON")


def parse_json(data: bytes) -> Any:
    """The body as JSON within the limits above; InvalidInput (a 400) otherwise."""
    try:
        value = json.loads(data, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise InvalidInput(f"Тело JSON вложено глубже {MAX_JSON_DEPTH} уровней") from None
    except (ValueError, UnicodeDecodeError) as error:
        if isinstance(error, InvalidInput):
            raise
        raise InvalidInput("Тело запроса — не JSON") from None
    _check_tree(value)
    return value


def _check_tree(value: Any) -> None:
    """Depth and strings of a parsed document, without recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                raise InvalidInput(f"Тело JSON вложено глубже {MAX_JSON_DEPTH} уровней")
            children = item.items() if isinstance(item, dict) else ((None, child) for child in item)
            for key, child in children:
                if key is not None:
                    _check_text(key)
                stack.append((child, depth + 1))
        elif isinstance(item, str):
            _check_text(item)


def _check_text(text: str) -> None:
    if _JSON_CONTROL.search(text):
        raise InvalidInput("Строка в теле JSON содержит управляющий символ")
    if _LONE_SURROGATE.search(text):
        raise InvalidInput("Строка в теле JSON содержит одиночный суррогат (половину пары UTF-16): это не текст")


def guard_request() -> None:
    for name, values in request.args.lists() if request.endpoint not in SPEC_QUERY_ENDPOINTS else ():
        if _QUERY_CONTROL.search(name) or any(_QUERY_CONTROL.search(value) for value in values):
            raise InvalidInput(f"Параметр запроса «{name}» содержит управляющий символ")
    if request.method in _BODY_METHODS and request.is_json:
        data = request.get_data(cache=True)  # 413 past MAX_CONTENT_LENGTH, by the Content-Length
        limit = request.max_content_length
        if request.content_length is None and limit is not None and len(data) >= limit:
            # a chunked body: Werkzeug stops reading at the limit, and whatever is left would read as broken JSON
            raise RequestEntityTooLarge()
        parse_json(data)


def note_body_limit(_error: BaseException | None) -> None:
    """The request's limit (the admin's is larger), for ``settle_body`` after the request's context is gone."""
    request.environ[BODY_LIMIT] = request.max_content_length


def register_input_limits(app: Flask) -> None:
    app.before_request(guard_request)
    app.teardown_request(note_body_limit)


def settle_body(environ: dict[str, Any], start_response: Any, refused: bool) -> None:
    """After the answer, before it is sent: what is left of the request's body, read and dropped so that the
    connection serves the next request. A body the application would have taken (it answered before reading it: an
    admin upload redirected to the sign-in) is read away whole, up to the request's limit; one refused for its size
    (``refused``, a 413) up to ``DRAIN_BYTES``. A body larger than that is not read: the server's response is told to
    close the connection and say so (gunicorn's ``start_response`` is its response's method; ``force_close`` makes it
    answer ``Connection: close``; another server, without one, keeps its own rule). Only where the server ends the
    input with the body (``wsgi.input_terminated``: gunicorn): elsewhere a read past it would wait for the next
    request."""
    stream = environ.get("wsgi.input")
    declared = environ.get("CONTENT_LENGTH") or ""
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    has_body = chunked or (declared.isdigit() and int(declared) > 0)
    if stream is None or not environ.get("wsgi.input_terminated") or not has_body:
        return
    bound = DRAIN_BYTES if refused else max(DRAIN_BYTES, environ.get(BODY_LIMIT) or 0)
    if not (declared.isdigit() and int(declared) > bound):
        left = bound
        while left > 0:
            chunk = stream.read(min(left, 65_536))
            if not chunk:
                return
            left -= len(chunk)
    close = getattr(getattr(start_response, "__self__", None), "force_close", None)
    if callable(close):
        close()
