"""The player page's JSON blob (spec §3 "Player context"): what the front end mounts from, read by
static_src/context.ts. The resolved context (app/services/player_context.py) dumped through the catalogue's
schemas, the viewer's options from the query, and the runtime configuration (spec §1)."""

from __future__ import annotations

from typing import Any

from flask import current_app, request, url_for

from app.http.media import sign_address
from app.http.origins import parent_origin, parse_origin_list
from app.schemas.catalogue import ContentSchema, SeasonSchema, dump_episodes
from app.services.player_context import PlayerContext


def master_json_url(data: dict[str, Any]) -> str | None:
    """The chosen episode's master JSON as the player will fetch it (signed), for the page to preload."""
    chosen = next((e for e in data["episodes"] if e["id"] == data["episodeId"]), None)
    path = chosen["m3u8MasterFilePath"] if chosen else None
    return path if path and ".json" in path else None


def runtime_config() -> dict[str, Any]:
    """The runtime configuration the player reads (spec §1)."""
    config = current_app.config
    runtime = {
        "baseUrl": config["PLAYER_BASE_URL"],
        "adListUrl": config["AD_LIST_URL"] or None,
        "fullscreenMode": config["FULLSCREEN_MODE"],
        "sentryProject": config["SENTRY_PROJECT"],
        "sentryDsn": config["SENTRY_BROWSER_DSN"] or None,  # error reporting in the browser (spec §1); None loads none
        "widgetAssetsPath": config["WIDGET_ASSETS_PATH"],
        "statisticsFunction": config["STATISTICS_FUNCTION"],  # analytics (spec §7); "" sends none
        "placeholderUrl": url_for("assets.clip", filename="not-available.mp4"),
        # The embedding page's origin (spec §7): the allow-listed `origin` parameter, else the Referer's; the parent
        # bridge posts only there and takes commands only from there (static_src/embed/bridge.ts).
        "parentOrigin": parent_origin(
            request.args.get("origin"), request.referrer, parse_origin_list(config["PUBLISHER_ORIGINS"])
        ),
    }
    if config["PLAYER_TEST_TIMINGS"]:  # the test suite's shorter waits (app/config.py); never set in production
        runtime["timings"] = config["PLAYER_TEST_TIMINGS"]
    return runtime


def playable_episodes(episodes: list[dict[str, Any]], available: bool, country: str | None) -> list[dict[str, Any]]:
    """Dumped episodes whose media addresses are signed for this viewer, or withheld when the title may not play for
    them: no page or API answer carries a blocked title's address (app/http/media.py)."""
    for episode in episodes:
        path = episode["m3u8MasterFilePath"]
        episode["m3u8MasterFilePath"] = sign_address(path, country) if available else None
    return episodes


def context_blob(ctx: PlayerContext) -> dict[str, Any]:
    params = ctx.params
    episodes = dump_episodes(ctx.episodes, ctx.viewer.completed)
    return {
        "content": ContentSchema().dump(ctx.content),
        "seasons": SeasonSchema(many=True).dump(ctx.content.seasons),
        "episodes": playable_episodes(episodes, ctx.available, ctx.viewer.country),
        "episodeId": ctx.episode.id if ctx.episode else None,
        "episodeTime": params.episode_time,
        "timeCode": params.time_code,
        "isEnabledShare": params.enabled_share,
        "isAvailable": ctx.available,
        "isPreload": not params.auto_play,
        "autoPlay": params.auto_play,
        "voiceAuthor": params.voice_author,
        "userId": params.user_id,
        "langOrder": list(params.lang_order),
        "config": runtime_config(),
    }
