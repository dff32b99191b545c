"""For search engines: robots.txt, the sitemap index and its files, and the administrators' debug calls about them
(the rules: app/services/seo/sitemaps.py).

* ``GET /robots.txt`` never touches the database and never answers 5xx (a crawler reads a 5xx as "disallow all"):
  if anything fails, the same rules without the Sitemap line.
* ``GET /sitemap.xml`` and ``GET /sitemap{n}.xml`` are files generated ahead: one query for one stored row, sent
  gzipped as stored when the client takes gzip (every crawler does), else decompressed as it is sent; a strong ETag
  per encoding, Last-Modified (when the file's content last changed), public for ``SITEMAP_CACHE_SECONDS``.
  Before the first generation the index lists nothing (and the log says so); an unknown n is a 404.
* ``GET /debug/meta/sitemap.xml`` answers JSON despite its name (the spec's path): the live generation's metadata.
  ``GET`` (or ``POST``) ``/debug/generate-sitemap-xml`` regenerates now and answers the new metadata; a second one
  while one runs is a 409 (a lock in the database, so across workers and hosts). Both for administrators only.
  A large catalogue takes longer than a request should: schedule ``flask sitemap generate`` instead.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from flask import Response, current_app, request, url_for

from app.api.arguments import Blueprint
from app.api.decorators import require_role
from app.api.docs import NO_STORE, answers
from app.clock import now
from app.extensions import db
from app.http.tokens import current_account_id
from app.http.urls import absolute_url, public_base
from app.jobs import sitemaps as sitemap_job
from app.models import Role
from app.models.ids import MAX_ID, storable_id
from app.schemas.seo import SitemapMetaSchema
from app.services.errors import NotFound
from app.services.seo import sitemaps

blp = Blueprint("seo", __name__, description="robots.txt, the sitemaps (with Google's video extension) and their "
                                             "generation")
XML = "application/xml"
FALLBACK_ROBOTS = sitemaps.robots_txt(None)  # when the sitemap's address cannot be had
BRIEF_SECONDS = 60  # what may change soon: the index before the first generation, robots.txt without its sitemap

_CACHE = {"description": "public, with max-age", "schema": {"type": "string"}}
FILE_HEADERS = {
    "Cache-Control": _CACHE,
    "ETag": {"description": "strong, one per encoding", "schema": {"type": "string"}},
    "Last-Modified": {"description": "when the file's content last changed", "schema": {"type": "string"}},
    "Vary": {"description": "Accept-Encoding", "schema": {"type": "string"}},
    "Content-Encoding": {"description": "gzip when Accept-Encoding takes it", "schema": {"type": "string"}},
}
NUMBER = {"in": "path", "name": "number", "required": True, "example": 1,
          "description": "the file's number, from 1 (written in plain digits, no leading zero)",
          "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID}}


@blp.route("/robots.txt")
@blp.response(200, {"type": "string"}, content_type="text/plain", headers={"Cache-Control": _CACHE},
              description="Every crawler's rules and the sitemap index's absolute address")
@answers(blp)
def robots() -> Response:
    """The player pages and what they load are public; the calls about one viewer or account, the ad machinery,
    search results, the probes and the debugging calls are not (app/services/seo/sitemaps.py ROBOTS_DISALLOW)."""
    try:
        body = sitemaps.robots_txt(absolute_url(url_for("seo.sitemap_index")))
        seconds = int(current_app.config["SITEMAP_CACHE_SECONDS"])
    except Exception:  # whatever it was, a crawler gets the rules: a 5xx would stop it crawling anything
        current_app.logger.exception("robots.txt answered without its Sitemap line")
        body, seconds = FALLBACK_ROBOTS, BRIEF_SECONDS
    response = Response(body, mimetype="text/plain")
    response.cache_control.public = True
    response.cache_control.max_age = seconds
    return response


@blp.route("/sitemap.xml")
@blp.response(200, {"type": "string"}, content_type=XML, headers=FILE_HEADERS,
              description="The sitemap index (sitemaps.org): /sitemap1.xml … with their lastmod")
@blp.alt_response(304, description="Not modified (If-None-Match, If-Modified-Since)")
@answers(blp)
def sitemap_index() -> Response:
    """The index of the sitemap files; it lists nothing before the first generation."""
    found = sitemaps.stored_file(db.session, sitemaps.INDEX)
    if found is None:
        current_app.logger.warning("GET /sitemap.xml: no sitemap generated yet (flask sitemap generate): the index "
                                   "lists nothing")
        response = Response(sitemaps.empty_index(), mimetype=XML)
        response.cache_control.public = True
        response.cache_control.max_age = BRIEF_SECONDS
        return response
    return _serve(found)


@blp.route("/sitemap<int:number>.xml", parameters=[NUMBER])
@blp.response(200, {"type": "string"}, content_type=XML, headers=FILE_HEADERS,
              description="A sitemap (sitemaps.org urlset) with Google's video extension")
@blp.alt_response(304, description="Not modified (If-None-Match, If-Modified-Since)")
@answers(blp, 404)
def sitemap_file(number: int) -> Response:
    """Sitemap file ``number`` (from 1): at most SITEMAP_MAX_URLS <url> entries and SITEMAP_MAX_BYTES uncompressed,
    one per playable episode of a published content, with its <video:video>."""
    canonical = request.path == f"/sitemap{number}.xml"  # not /sitemap01.xml, nor other scripts' digits
    found = sitemaps.stored_file(db.session, number) if canonical and storable_id(number) else None
    if found is None:
        raise NotFound("sitemap_not_found", "Такого файла карты сайта нет", {"number": number})
    return _serve(found)


@blp.route("/debug/meta/sitemap.xml")
@require_role(blp, Role.ADMIN)
@blp.response(200, SitemapMetaSchema)
@answers(blp, 401, 403)
def sitemap_meta() -> Any:
    """JSON, despite the path's name: the live generation (when, how long, how many URLs, videos and files, each
    file's size) and whether one is under way. Before the first generation: nulls and zeros."""
    return sitemaps.generation(db.session), NO_STORE


@blp.route("/debug/generate-sitemap-xml", methods=["GET", "POST"])
@require_role(blp, Role.ADMIN, locations=("headers",))
@blp.response(202, SitemapMetaSchema)
@answers(blp, 401, 403, 409)
def generate_sitemap() -> Any:
    """Queues regenerating every sitemap file, for this service's public address, for the job worker (a job
    «Карта сайта» in the admin's jobs), and answers at once (202) with the live generation and the new one's start
    (``runningSince``); 409 while another generation runs or waits. A bearer token in
    the Authorization header only, never the cookie: a link on another site could otherwise make an administrator's
    browser start it. The files change for every reader at once when it is done: ``GET /debug/meta/sitemap.xml``."""
    current = sitemaps.generation(db.session)
    sitemap_job.queue_generation(db.session, current_app._get_current_object(),  # type: ignore[attr-defined]
                                 public_base(), account_id=current_account_id())
    return replace(current, running_since=now()), NO_STORE


def _serve(found: sitemaps.StoredFile) -> Response:
    """A stored file: as stored (gzip) when the client takes it, else decompressed as it goes out; conditional."""
    if request.accept_encodings["gzip"] > 0:
        response = Response(found.body, mimetype=XML, headers={"Content-Encoding": "gzip"})
        response.set_etag(f"{found.etag}-gzip")
    else:
        response = Response(_gunzipped(found.body), mimetype=XML, headers={"Content-Length": str(found.size)})
        response.set_etag(found.etag)
    response.vary.add("Accept-Encoding")
    response.last_modified = found.changed_at
    response.cache_control.public = True
    response.cache_control.max_age = int(current_app.config["SITEMAP_CACHE_SECONDS"])
    response.make_conditional(request)  # a 304 for a matching If-None-Match or If-Modified-Since
    return response


def _gunzipped(body: bytes) -> Iterator[bytes]:
    with gzip.GzipFile(fileobj=io.BytesIO(body)) as stream:
        while chunk := stream.read(65_536):
            yield chunk
