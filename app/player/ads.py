"""The ad calls of spec §7 as this application serves them: the ad list, house VAST documents, the tracking pixel.

* ``GET /ad-list.json?content_id=N``: prerollList and midrollList for a content (untargeted placements without one).
* ``GET /vast.xml?creative=N[&depth=D]``: a house ad's VAST 4.2, behind D wrappers (0-5); an unknown creative gets
  a VAST with no ad (an ad server's "no fill", error 303 for the player), never an HTTP error.
* ``GET /ad-tracking?creative=N&event=E&…``: records the hit (impression, click, an event, an error with its code)
  and answers 204. Tests read the hits back from the database.

A bad query is a 400 (players and ad servers expect that of an ad call, not a 422), in the JSON error shape.
"""

from __future__ import annotations

from typing import Any

from flask import Response, url_for

from app.api.arguments import Blueprint
from app.api.docs import answers
from app.extensions import db, limiter
from app.http.rates import by_ip, configured
from app.http.urls import absolute_url
from app.models import Content
from app.schemas.ads import AdListQuerySchema, AdListSchema, TrackingQuerySchema, VastQuerySchema
from app.services.ads import vast
from app.services.ads.placements import ad_list, creative_for_vast, record_hit

blp = Blueprint("ads", __name__, description="The ad list, house VAST documents and the tracking pixel (spec §7)")

VAST_MIME = "application/xml"
# Each ad call's answer: public (players fetch ads cross-origin) and never cached (macros, ids and pixels are per
# request). Not an after_request, which would put them on the 400s too.
PUBLIC = {"Cache-Control": "no-store", "Access-Control-Allow-Origin": "*"}


def _house_vast_url(creative_id: int, depth: int) -> str:
    if depth:
        return absolute_url(url_for("ads.vast_document", creative=creative_id, depth=depth))
    return absolute_url(url_for("ads.vast_document", creative=creative_id))


def _xml(body: bytes) -> Response:
    return Response(body, mimetype=VAST_MIME, headers=PUBLIC)


@blp.route("/ad-list.json")
@blp.arguments(AdListQuerySchema, location="query", as_kwargs=True, error_status_code=400)
@blp.response(200, AdListSchema)
@answers(blp)
def ad_list_document(content_id: int | None = None) -> Any:
    """The pre-roll and mid-roll lists for a content (spec §3): enabled placements in their order."""
    content = db.session.get(Content, content_id) if content_id is not None else None
    return ad_list(content, _house_vast_url), PUBLIC


@blp.route("/vast.xml")
@blp.arguments(VastQuerySchema, location="query", as_kwargs=True, error_status_code=400)
@blp.response(200, {"type": "string"}, content_type=VAST_MIME, description="A VAST 4.2 document")
@answers(blp)
def vast_document(creative: int, depth: int) -> Response:
    """A house creative as VAST 4.2: inline, or behind ``depth`` wrappers; no ad for an unknown creative."""
    tracking_url = absolute_url(url_for("ads.track"))
    if depth:
        target = _house_vast_url(creative, depth - 1)
        return _xml(vast.wrapper(target, creative, tracking_url, source=f"wrapper-{depth}"))
    found = creative_for_vast(creative, absolute_url)
    if found is None:
        return _xml(vast.empty())
    return _xml(vast.inline(found, tracking_url))


@blp.route("/ad-tracking")
@limiter.limit(configured("RATE_LIMIT_TRACKING"), key_func=by_ip)
@blp.arguments(TrackingQuerySchema, location="query", error_status_code=400)
@blp.response(204)
@answers(blp, 404, 429)
def track(hit: dict[str, Any]) -> Any:
    """A pixel of the house documents: its event, creative and document, the error code and the ad's time."""
    record_hit(hit["creative"], hit["event"], hit["source"], hit["code"], hit["playhead"])
    return None, 204, PUBLIC
