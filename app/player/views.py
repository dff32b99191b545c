"""The player page (spec §2): validated on the server, resolved on the server, painted before any script."""

from __future__ import annotations

import functools
from typing import Any

from flask import Blueprint, current_app, g, make_response, render_template, request
from markupsafe import Markup
from sqlalchemy import select

from app import registry, texts
from app.config import PROJECT_ROOT
from app.database import UNAVAILABLE
from app.errors import error_screen
from app.extensions import db
from app.http.embeds import embed_refused
from app.http.origins import domain_of, framed_navigation, origin_of, parse_origin_list
from app.http.previews import PREVIEW_HEADERS, valid_page_mark
from app.http.shared import anonymous, kept_for, kept_for_everyone, share, shareable
from app.http.viewer import viewer_country, viewer_key_from_cookie
from app.models import Content
from app.player.context import context_blob, master_json_url, resolve_player_context
from app.services.activity.progress import committed_completed_episode_ids
from app.services.player.availability import Verdict, allowed_domains, depends_on_domain
from app.services.player.context import Viewer
from app.services.player.params import InvalidMovieId, MissingMovieId, parse_player_params
from app.snapshots import content_snapshot

bp = Blueprint("player", __name__)
SHELL_CSS = "styles/shell.css"  # the shell's styles, inline in every player page (templates/player/_base.html)


@bp.get("/")
@bp.get("/season-<int:season>/episode-<int:episode>")
@shareable(personal=True)
def player(season: int | None = None, episode: int | None = None) -> Any:
    """The page. For a viewer without the device_fp cookie and a title without domain rules it is the same for everyone
    who asks for this address from this country: a shared response (app/http/shared.py), kept here and by CDNs. For a
    returning viewer (the cookie; a signed-in one's too) it is the same for everyone whose finished episodes of the
    title are the same (``history_variant``): kept here as well, after one indexed lookup of those, and private; of
    a film, the same for every returning viewer, without the lookup (``history_matters``), and once kept answered
    before this view runs (``kept_for_everyone``).

    ``/season-N/episode-M``: a share link made on the player page itself (spec §2: the page's path, then the season
    and episode, the query kept), which chooses that episode (an ``episode_id`` in the query would overrule it)."""
    # A plain dict (each name's first value, as the MultiDict's get): werkzeug's get of an absent name raises and
    # catches an exception, and the parser asks for a dozen names a page mostly has not.
    query = request.args.to_dict()
    if season is not None and episode is not None:
        query.pop("episode_id", None)
        query.update(season=str(season), episode=str(episode))
    try:
        params = parse_player_params(query)
    except MissingMovieId:
        return error_screen(texts.MISSING_MOVIE_ID, 400)
    except InvalidMovieId:
        return error_screen(texts.CONTENT_NOT_AVAILABLE, 404)

    completed: frozenset[int] = frozenset()
    if not anonymous():  # the history changes the page only through the episodes finished: kept once for each set
        if history_matters(params.movie_id):
            key = viewer_key_from_cookie()
            completed = viewers_completed(key, params.movie_id) if key else frozenset()
            kept = kept_for(history_variant(completed))
        else:  # a film: the same for every returning viewer
            kept = kept_for_everyone()
        if kept is not None:
            return kept
    # The embedding page is the one the browser names for a frame it loads us into (a Referer on a top-level load, or
    # from a script, names nothing that embeds us); disable_checking_available is taken from a trusted publisher only
    # (PUBLISHER_ORIGINS), and never lifts a country block (docs/licences.md).
    embedder = request.referrer if framed_navigation() else None
    trusted = origin_of(embedder) in parse_origin_list(current_app.config["PUBLISHER_ORIGINS"])
    viewer = Viewer(country=viewer_country(), domain=domain_of(embedder), completed=completed,
                    skip_domain_check=params.disable_checking_available and trusted)
    ctx = resolve_player_context(params, viewer)
    if ctx is None:
        return error_screen(texts.CONTENT_NOT_AVAILABLE, 404)
    rules = ctx.content.rules
    if depends_on_domain(rules) and embed_refused(viewer.domain, params.movie_id, request.args.get("embed_exp"),
                                                  request.args.get("embed_sig")):
        return error_screen(texts.CONTENT_NOT_AVAILABLE, 403)  # a publisher that signs its embeds, unsigned here
    if not viewer.skip_domain_check:  # a domain licence: browsers let only its sites frame the page (app/http/csp.py)
        g.licensed_domains = allowed_domains(rules)
    if not depends_on_domain(rules):
        share()
    data = context_blob(ctx)
    if ctx.verdict is Verdict.BLOCKED_DOMAIN:
        return error_screen(texts.CONTENT_NOT_AVAILABLE, 403, context=data)
    # Blocked in the viewer's country (spec §4): still the player, which plays a tiny placeholder clip and then shows
    # the blocked text (the shell says it without JavaScript); 451 tells crawlers and monitoring what happened.
    status = 451 if ctx.verdict is Verdict.BLOCKED_COUNTRY else 200
    return render_template("player/player.html", ctx=ctx, data=data, master_url=master_json_url(data)), status


@bp.get("/preview")
def preview() -> Any:
    """An editor's preview (app/http/previews.py): the player page of any title, a draft included, at the address the
    admin handed out (``movie_id`` and the page's other parameters, ``preview_exp``, ``preview_sig``); without a
    valid, unexpired mark it is 'Контент не доступен' like an unpublished title's page. The editor's own country
    applies, no site's domain rule (the page is opened on its own); never kept, never indexed."""
    try:
        params = parse_player_params(request.args)
        known = valid_page_mark(params.movie_id, request.args.get("preview_exp"), request.args.get("preview_sig"))
    except (MissingMovieId, InvalidMovieId):
        known = False
    ctx = resolve_player_context(params, Viewer(country=viewer_country(), domain=None, skip_domain_check=True),
                                 preview=True) if known else None
    if ctx is None:
        response = make_response(error_screen(texts.CONTENT_NOT_AVAILABLE, 404))
    else:
        data = context_blob(ctx)
        status = 451 if ctx.verdict is Verdict.BLOCKED_COUNTRY else 200
        response = make_response(render_template("player/player.html", ctx=ctx, data=data,
                                                 master_url=master_json_url(data)), status)
    response.headers.update(PREVIEW_HEADERS)
    return response


def viewers_completed(key: str, content_id: int) -> frozenset[int]:
    """The episodes this viewer finished (episode choice rule 3); none while the database is unreachable: the page,
    from the content's snapshot, still plays (its first unfinished episode is then its first)."""
    try:
        return committed_completed_episode_ids(key, content_id)
    except UNAVAILABLE:
        current_app.logger.warning("the database is unreachable: the page chooses the episode without the history")
        db.session.rollback()
        return frozenset()


def history_matters(content_id: int) -> bool:
    """Whether the viewer's history may change this title's page. A title of one episode (a film) opens it whatever
    was finished, and its one ``isCompleted`` is read by nothing the page does (the player shows no mark, and
    ``episodeChanged`` never fires with one episode; a site asks /episodes/progress, docs/library.md): its returning
    viewers share one private copy, with no lookup, as its first-time viewers share the public one
    (app/http/shared.py ``kept_for_everyone``). Else (a series; a title not known here, or its snapshot out of reach
    with the database) the lookup decides."""
    try:
        snapshot = content_snapshot(content_id)
    except UNAVAILABLE:
        db.session.rollback()
        return True
    return snapshot is None or len(snapshot.places) > 1


def history_variant(completed: frozenset[int]) -> str:
    """What a viewer's history changes in the page: the episodes of the title they finished. They decide the episode
    the page opens without an explicit one (spec §2 rule 3: the first not finished) and each episode's ``isCompleted``
    in the context blob (spec §3); nothing else on the page is the viewer's (the country and the address are the
    store's key already, the embedding site matters only for a title with domain rules, whose page is never kept)."""
    return ",".join(str(episode_id) for episode_id in sorted(completed))


@bp.get("/demo")
def demo() -> Any:
    """A publisher's page: embeds the player the way a publisher would and shows what it posts."""
    contents = db.session.execute(select(Content.id, Content.title).order_by(Content.id)).all()
    return render_template("demo/demo.html", contents=contents, country_param=current_app.config["COUNTRY_QUERY_PARAM"])


@functools.cache
def early_script() -> Markup:
    """The page's one inline script (templates/player/early.js): our own file, never data."""
    return Markup((PROJECT_ROOT / "templates" / "player" / "early.js").read_text(encoding="utf-8"))  # noqa: S704


def inline_sources() -> dict[str, list[str]]:
    """The inline elements of the embed page, for its Content-Security-Policy's hashes (app/http/headers.py)."""
    manifest = registry.assets()
    return {"script": [str(early_script())], "style": [str(manifest.inline_css(SHELL_CSS))]}


@bp.app_context_processor
def template_helpers() -> dict[str, Any]:
    manifest = registry.assets()
    return {"early_script": early_script, "assets": manifest.entry, "inline_css": manifest.inline_css, "texts": texts,
            "shell_css": SHELL_CSS}
