"""The player page's context (spec §3 "Player context"): the content's snapshot (app/snapshots.py), the decisions
made for this viewer (app/services/player/context.py), and the JSON blob the front end mounts from (read by
static_src/context.ts): the snapshot's dumps with this viewer's part, the viewer's options from the query, and the
runtime configuration (spec §1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

from flask import current_app, request, url_for

from app.http.media import expiry, first_playlist, sign_address
from app.http.origins import parent_origin, parse_origin_list
from app.http.previews import MARK_PARAM, master_mark
from app.services.player.context import Decision, Viewer, decide
from app.services.player.params import PlayerParams
from app.snapshots import ContentSnapshot, content_snapshot


@dataclass(frozen=True)
class PlayerContext:
    params: PlayerParams
    viewer: Viewer
    content: ContentSnapshot
    decision: Decision
    preview: bool = False  # an editor's preview (app/http/previews.py): shown whether published or not

    @property
    def available(self) -> bool:
        return self.decision.available

    @property
    def verdict(self) -> Any:
        return self.decision.verdict

    @property
    def episode(self) -> dict[str, Any] | None:
        """The dumped episode the player opens (the template reads its order, title and season)."""
        return next((e for e in self.content.episodes if e["id"] == self.decision.episode_id), None)


def resolve_player_context(params: PlayerParams, viewer: Viewer, preview: bool = False) -> PlayerContext | None:
    """None when no such content exists or the public may not see it now (the API answers alike; an editor's
    ``preview`` sees it all the same); otherwise the context, available or not."""
    snapshot = content_snapshot(params.movie_id)
    if snapshot is None or not (preview or snapshot.shown()):
        return None
    decision = decide(snapshot.places, snapshot.rules, params, viewer)
    return PlayerContext(params=params, viewer=viewer, content=snapshot, decision=decision, preview=preview)


def master_json_url(data: dict[str, Any]) -> str | None:
    """The chosen episode's master JSON as the player will fetch it (signed), for the page to preload."""
    chosen = next((e for e in data["episodes"] if e["id"] == data["episodeId"]), None)
    path = chosen["m3u8MasterFilePath"] if chosen else None
    return path if path and ".json" in path else None


PAGE_URL_MAX = 2048


def page_url() -> str | None:
    """The embedding page's address as the embed says it (``page_url``, set by /lib.js), for share links (spec §2):
    an absolute http(s) address, or None. The player uses it only when its origin is the embedding page's as the
    browser names it (static_src/share/link.ts), so a page cannot make share links point elsewhere."""
    value = request.args.get("page_url", "")
    if not value or len(value) > PAGE_URL_MAX or any(ord(c) < 0x21 or ord(c) == 0x7F for c in value):
        return None
    try:
        parts = urlsplit(value)
    except ValueError:
        return None
    return value if parts.scheme in ("http", "https") and parts.hostname else None


def runtime_config() -> dict[str, Any]:
    """The runtime configuration the player reads (spec §1)."""
    config = current_app.config
    runtime = {
        "baseUrl": config["PLAYER_BASE_URL"],
        "adListUrl": config["AD_LIST_URL"] or None,
        # the ad servers whose VAST requests carry the ad headers (AD_HEADER_ORIGINS); static_src/ads/list.ts
        "adPods": config["AD_PODS"],  # static_src/ads/vast.ts loadVastAds
        "adHeaderOrigins": list(parse_origin_list(config["AD_HEADER_ORIGINS"], "AD_HEADER_ORIGINS")),
        "fullscreenMode": config["FULLSCREEN_MODE"],
        "sentryProject": config["SENTRY_PROJECT"],
        "sentryDsn": config["SENTRY_BROWSER_DSN"] or None,  # error reporting in the browser (spec §1); None loads none
        "widgetAssetsPath": config["WIDGET_ASSETS_PATH"],
        "statisticsFunction": config["STATISTICS_FUNCTION"],  # analytics (spec §7); "" sends none
        "placeholderUrl": url_for("assets.clip", filename="not-available.mp4"),
        # The embedding page's origin (spec §7) when the address names an allow-listed one (`origin`); else the player
        # asks the browser (static_src/embed/bridge.ts), so that the page is the same on every site that embeds it.
        # The parent bridge posts only there and takes commands only from there.
        "parentOrigin": parent_origin(request.args.get("origin"), parse_origin_list(config["PUBLISHER_ORIGINS"])),
    }
    if config["PLAYER_TEST_TIMINGS"]:  # the test suite's shorter waits (app/config.py); never set in production
        runtime["timings"] = config["PLAYER_TEST_TIMINGS"]
    return runtime


def viewers_episodes(ctx: PlayerContext, expires: int) -> list[dict[str, Any]]:
    """The snapshot's episodes (copies: the snapshot is shared) with this viewer's part: whether they finished each,
    and its media address signed for them, or withheld when the title may not play for them (no page or API answer
    carries a blocked title's address: app/http/media.py)."""
    completed, available, country = ctx.viewer.completed, ctx.available, ctx.viewer.country
    return [
        {**_marked(episode), "isCompleted": episode["id"] in completed,
         "m3u8MasterFilePath": _previewed(sign_address(episode["m3u8MasterFilePath"], country, ctx.content.id,
                                                       expires), ctx, expires) if available else None}
        for episode in ctx.content.episodes
    ]


MARKERS = ("introStart", "introEnd", "creditsStart")


def _marked(episode: dict[str, Any]) -> dict[str, Any]:
    """The episode without the markers it has not got: the page's blob carries only those set (the API has all)."""
    return {key: value for key, value in episode.items() if key not in MARKERS or value is not None}


def _previewed(address: str | None, ctx: PlayerContext, expires: int) -> str | None:
    """In an editor's preview, a master JSON of ours carries its preview mark (app/http/previews.py)."""
    if not ctx.preview or not address or ".json" not in address:
        return address
    signed_base = current_app.config["MEDIA_URL_PATH"].rstrip("/") + "/s/"
    if not address.startswith(signed_base):
        return address
    return f"{address}?{urlencode({MARK_PARAM: master_mark(ctx.content.id, expires)})}"


def chosen_playlist(ctx: PlayerContext, expires: int) -> dict[str, Any] | None:
    """The playlist the chosen episode starts on, in the page (app/http/media.py first_playlist): the player hands it to
    hls.js without a request (static_src/player/prefetch.ts), which took a round trip after the entry had run."""
    episode = ctx.episode
    if not ctx.available or episode is None:
        return None  # no address of a title that may not play here
    return first_playlist(episode["m3u8MasterFilePath"], ctx.viewer.country, ctx.content.id, expires)


def context_blob(ctx: PlayerContext) -> dict[str, Any]:
    params = ctx.params
    expires = expiry()
    return {
        "content": ctx.content.content,
        "seasons": ctx.content.seasons,
        "episodes": viewers_episodes(ctx, expires),
        "firstPlaylist": chosen_playlist(ctx, expires),
        "episodeId": ctx.decision.episode_id,
        "episodeTime": params.episode_time,
        "timeCode": params.time_code,
        "isEnabledShare": params.enabled_share,
        "isAvailable": ctx.available,
        "isPreload": not params.auto_play,
        "autoPlay": params.auto_play,
        "voiceAuthor": params.voice_author,
        "userId": params.user_id,
        "langOrder": list(params.lang_order),
        "pageUrl": page_url(),
        "awaitRequestHeaders": params.request_headers,  # static_src/embed/requestHeaders.ts
        "config": runtime_config(),
    }
