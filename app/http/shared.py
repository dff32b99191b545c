"""Shared responses: what every anonymous viewer of one address in one country gets, made once and kept.

A view marked ``@shareable`` says per response, with ``share()``, that this response is the same for everyone who asks
for the same address from the same country (the catalogue's reads; the embed page of a title without domain rules,
for a viewer who sends none of the personal credentials: the device_fp or authToken cookie, the X-Session-Context or
Authorization header). Such a response:

* is kept here (app/caching.py: Redis, else in-process; the named cache "responses") for ``SHARED_CACHE_SECONDS``,
  compressed as sent, under the address, the viewer's country, the compression the client takes, the catalogue's
  generation and the front end's build (the configuration is read at start: a deployment that changes it restarts with
  a new build), and the next such request is answered from it without running the view (the request id, the security
  headers, a site's Access-Control-* headers (app/http/cors.py) and the conditional answer are still this request's
  own); while one request makes it, the others asking for it wait for that one (single flight: a hot address made
  once, not once per waiting request);
* says so to every cache on the way: ``Cache-Control: public, max-age=0, s-maxage=…, stale-while-revalidate=…``, an
  ETag, and ``Vary`` on what changes it (Accept-Encoding, the country header, and for the page the Cookie).

A view marked ``@shareable(personal=True)`` may also share among callers with credentials: ``kept_for(variant)``, once
the view knows what the caller's credentials change in its answer (the page: the episodes the viewer finished), answers
from the copy kept for that address, country, compression and ``variant``, or has the view's answer kept under them
after ``share()``; such a copy is labelled ``private, max-age=0`` (it depends on the cookie: no cache on the way may
hand it to another viewer) with its ETag, and never answers a caller without credentials, nor they one of its.

Such a view may also say, with ``kept_for_everyone()``, that its answer at this address does not depend on the
caller's credentials at all (the page of a film: nothing on it is the viewer's). The copy is kept as ``kept_for``'s,
labelled private, and this process remembers its key (``EVERYONE_KEYS`` of them, the latest), so that the next caller
with credentials is answered from it before the view runs, as an anonymous caller is; the key carries the catalogue's
generation, so a change (a film given a second episode) makes the view decide again.

Every other response of such a view (anything about a title licensed to some domains only) is ``private, max-age=0``.
docs/caching.md says what a CDN must key on.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, g, request
from flask_compress.flask_compress import _choose_algorithm
from werkzeug.wrappers import Response

from app import registry
from app.caching import store
from app.http.viewer import viewer_country

View = TypeVar("View", bound=Callable[..., Any])
T = TypeVar("T")
PERSONAL_COOKIES = ("device_fp", "authToken", "refreshToken")
PERSONAL_HEADERS = ("Authorization", "X-Session-Context")
NOT_KEPT = ("X-Request-Id", "Date", "Server", "Set-Cookie", "Content-Length")
CROSS_ORIGIN = "access-control-"  # the asking origin's own (app/http/cors.py): never kept for another's request
EVERYONE = "*"  # the variant of an answer the same for every caller with credentials (``kept_for_everyone``)
EVERYONE_KEYS = 10_000  # the keys of such answers a process remembers, the latest
_everyone: OrderedDict[str, None] = OrderedDict()
_everyone_lock = threading.Lock()


def shareable(personal: bool = False) -> Callable[[View], View]:
    """Marks a view whose responses may be shared. ``personal``: whether the caller's credentials (the cookies and
    headers of ``PERSONAL_COOKIES``/``PERSONAL_HEADERS``) may change its answer (the page: the episodes a viewer
    finished); then only a caller without any is answered from the store before the view runs (a caller with some,
    by the view through ``kept_for``), and Vary names them. A view whose answer never depends on who asks (the
    catalogue's reads) is shared with everyone."""

    def mark(view: View) -> View:
        view.shared_personal = personal  # type: ignore[attr-defined]  # copied onto wrappers by functools.wraps
        return view

    return mark


def share() -> None:
    """This request's response is the same for every anonymous viewer of its address in its country."""
    g.share_response = True


def shared(data: T) -> T:
    """``data``, as a view returns it, after ``share()``."""
    share()
    return data


def _personal_view() -> bool | None:
    """None: the view is not shareable; else whether its answers may depend on the caller's credentials. A class view
    is marked on its GET, and its other methods are labelled as it is (their answers are never kept: they do not
    ``share()``)."""
    view = current_app.view_functions.get(request.endpoint or "")
    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        view = getattr(view_class, "get", None)
    return getattr(view, "shared_personal", None)


def anonymous() -> bool:
    return not any(name in request.cookies for name in PERSONAL_COOKIES) and not any(
        name in request.headers for name in PERSONAL_HEADERS
    )


def _key(variant: str | None = None) -> str:
    """``variant``: what a caller's credentials change in the answer (``kept_for``); None for a caller without any."""
    from app.extensions import compress

    parts = g.get("shared_parts")  # the same for each key a request asks for (``kept_for_everyone``'s, then its own)
    if parts is None:
        accepted = request.headers.get("Accept-Encoding", "")
        encoding = _choose_algorithm(compress.enabled_algorithms, accepted) or "identity"
        address = request.full_path if request.query_string else request.path
        build = registry.assets().version()  # a new build's pages name new asset files
        parts = g.shared_parts = f"{build}\n{encoding}\n{viewer_country() or '-'}\n{request.host}\n{address}"
    if variant is not None:
        parts += f"\npersonal\n{variant}"
    return store().key("responses", hashlib.sha256(parts.encode()).hexdigest())


def _seconds() -> int:
    return int(current_app.config["SHARED_CACHE_SECONDS"])


def answer_from_store() -> Response | None:
    """Before the view: the kept response for this request, when there is one (for a caller with credentials, one
    kept for everyone with them: ``kept_for_everyone``)."""
    personal = _personal_view()
    if request.method not in ("GET", "HEAD") or _seconds() <= 0 or personal is None:
        return None
    if personal and not anonymous():
        return _kept_for_everyone_here()
    g.shared_key = _key()
    return _kept()


def _kept_for_everyone_here() -> Response | None:
    """The copy ``kept_for_everyone`` kept at this address, if this process knows there is one; never a claim to
    make it (the view decides whether there may be one)."""
    if not _everyone:  # (no key to make: none is known)
        return None
    key = _key(EVERYONE)
    if key not in _everyone:
        return None
    kept = store().get(key, near=True)
    if kept is None:
        return None
    g.shared_key, g.shared_private = key, True
    return _response(kept)


def kept_for(variant: str) -> Response | None:
    """In a ``personal`` view, for a caller with credentials: the answer kept for every caller whose credentials
    change the answer as theirs do, which ``variant`` says (the page: the episodes the viewer finished), or None;
    then the view's answer, if it calls ``share()``, is kept under it, labelled private."""
    if request.method not in ("GET", "HEAD") or _seconds() <= 0 or _personal_view() is not True or anonymous():
        return None
    g.shared_key = _key(variant)
    g.shared_private = True
    return _kept()


def kept_for_everyone() -> Response | None:
    """In a ``personal`` view, for a caller with credentials, when the view's answer at this address is the same
    whoever asks (the page of a film): ``kept_for`` of them all, and once kept, answered before the view."""
    found = kept_for(EVERYONE)
    if found is not None:  # kept by another process: this one answers it before the view from now on too
        _remember_everyone(g.shared_key)
    else:  # remembered once kept (``keep_and_label``)
        g.shared_everyone = True
    return found


def _kept() -> Response | None:
    """The response kept under ``g.shared_key``, or None (then this request may have claimed its making)."""
    kept, claimed = store().kept_or_claim(g.shared_key)  # one request makes it; the others asking wait for that one
    if claimed:
        g.shared_claim = g.shared_key
    if kept is None:
        return None
    return _response(kept)


def _response(kept: tuple[int, list[tuple[str, str]], bytes]) -> Response:
    status, headers, body = kept
    response = current_app.response_class(body, status=status, headers=headers)
    response.kept = True  # type: ignore[attr-defined]
    return response.make_conditional(request)


def keep_and_label(response: Response) -> Response:
    """After the view and the compression: the headers that say who may keep it, and the copy kept here."""
    personal = _personal_view()
    if personal is None or getattr(response, "kept", False):
        return response
    config = current_app.config
    if personal:
        response.vary.add("Cookie")  # (the page: a navigation never carries the personal headers)
    response.vary.add(config["COUNTRY_HEADER"])
    shared = (g.get("share_response") and "shared_key" in g and response.status_code in (200, 451)
              and "Set-Cookie" not in response.headers and not response.is_streamed)
    if not shared:
        response.headers.setdefault("Cache-Control", "private, max-age=0")
        return response
    response.headers["Cache-Control"] = "private, max-age=0" if g.get("shared_private") else (
        f"public, max-age=0, s-maxage={_seconds()}, stale-while-revalidate={int(config['SHARED_STALE_SECONDS'])}"
    )
    if not response.get_etag()[0]:
        response.add_etag()
    headers = [(name, value) for name, value in response.headers.items()
               if name not in NOT_KEPT and not name.lower().startswith(CROSS_ORIGIN)]
    store().set(g.shared_key, (response.status_code, headers, response.get_data()), _seconds())
    if g.get("shared_everyone"):
        _remember_everyone(g.shared_key)
    return response.make_conditional(request)


def _remember_everyone(key: str) -> None:
    with _everyone_lock:
        _everyone[key] = None
        _everyone.move_to_end(key)
        while len(_everyone) > EVERYONE_KEYS:
            _everyone.popitem(last=False)


def register_keeping(app: Flask) -> None:
    """Before compress.init_app: Flask runs after-request functions last-registered first, and the copy kept must be
    the compressed one."""
    app.after_request(keep_and_label)


def settle_claim(_error: BaseException | None) -> None:
    """Whatever the view did, those waiting for the response this request claimed look again (app/caching.py)."""
    key = g.pop("shared_claim", None)
    if key is not None:
        store().settle(key)


def register_answering(app: Flask) -> None:
    """After the input limits: a kept answer is still one to a request they let through."""
    app.before_request(answer_from_store)
    app.teardown_request(settle_claim)
