"""The ad calls of spec §7 as this application serves them: the ad list, house VAST documents, the tracking pixel.

* ``GET /ad-list.json?content_id=N``: prerollList and midrollList for a content (untargeted placements without one).
* ``GET /vast.xml?creative=N[&depth=D]``: a house ad's VAST 4.2, behind D wrappers (0-5); an unknown creative gets
  a VAST with no ad (an ad server's "no fill", error 303 for the player), never an HTTP error.
* ``GET /ad-tracking?creative=N&event=E&…``: records the hit (impression, click, an event, an error with its code)
  and answers 204. Tests read the hits back from the database.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from flask import Blueprint, Response, jsonify, request, url_for

from app.errors import ApiError
from app.extensions import db
from app.models import Content
from app.services import vast
from app.services.ads import ad_list, creative_for_vast, record_hit
from app.services.params import MAX_ID

bp = Blueprint("ads", __name__)

MAX_WRAPPER_DEPTH = 5
EVENT = re.compile(r"[A-Za-z]{1,40}")  # fullmatch
VAST_MIME = "application/xml"


def _int_arg(name: str, default: int | None = None, low: int = 1, high: int = MAX_ID) -> int | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    # ASCII digits only: str.isdigit() alone takes '²', which int() refuses (a 500)
    if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
        raise ApiError(400, "bad_request", f"{name} must be a whole number from {low} to {high}")
    return int(raw)


def _house_vast_url(creative_id: int, depth: int) -> str:
    if depth:
        return url_for("ads.vast_document", _external=True, creative=creative_id, depth=depth)
    return url_for("ads.vast_document", _external=True, creative=creative_id)


def _public(response: Response) -> Response:
    """The headers of each ad call's answer. A helper, not an after_request, which would put them on the 400s too."""
    response.cache_control.no_store = True  # macros, ids and pixels are per request
    response.headers["Access-Control-Allow-Origin"] = "*"  # an ad document is public; players fetch it cross-origin
    return response


def _xml(body: bytes) -> Response:
    return _public(Response(body, mimetype=VAST_MIME))


@bp.get("/ad-list.json")
def ad_list_document() -> Response:
    content_id = _int_arg("content_id")
    content = db.session.get(Content, content_id) if content_id is not None else None
    return _public(jsonify(ad_list(content, _house_vast_url)))


@bp.get("/vast.xml")
def vast_document() -> Response:
    creative_id = _int_arg("creative")
    if creative_id is None:
        raise ApiError(400, "bad_request", "creative is required")
    depth = _int_arg("depth", 0, low=0, high=MAX_WRAPPER_DEPTH) or 0
    tracking_url = url_for("ads.track", _external=True)
    if depth:
        target = _house_vast_url(creative_id, depth - 1)
        return _xml(vast.wrapper(target, creative_id, tracking_url, source=f"wrapper-{depth}"))
    creative = creative_for_vast(creative_id, lambda url: urljoin(request.host_url, url))
    if creative is None:
        return _xml(vast.empty())
    return _xml(vast.inline(creative, tracking_url))


@bp.get("/ad-tracking")
def track() -> Response:
    event = request.args.get("event", "")
    if not EVENT.fullmatch(event):
        raise ApiError(400, "bad_request", "event must be 1-40 Latin letters")
    creative_id = _int_arg("creative")
    record_hit(creative_id, event, request.args.get("code", "")[:16], request.args.get("source", "")[:40],
               request.query_string.decode("utf-8", "replace")[:4000])
    return _public(Response(status=204))
