"""A title's snapshot: the catalogue's part of its player page and of the catalogue's reads, kept. The content (the
player's fields, and apart from them the details only the API answers with), its seasons and its episodes as the
catalogue's schemas dump them, their places for the episode choice and the content's availability rules, as plain
data in the cache (app/caching.py: Redis, else in-process) under the catalogue's
generation for ``CATALOGUE_CACHE_SECONDS``.

One entry per content: the page and every read of the content (by id, slug or Kinopoisk id) share it. The API's
reads answer only for a content shown now (``get_snapshot``); the player page plays what it is given by id.

A page then costs the database nothing but the viewer's own part (the episodes they finished), a read nothing at
all; and when the database is gone, the last snapshot of a content (kept a day beside it) still makes its page, so
that a title already watched keeps playing through the outage: its media come from the media server, not from the
database.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app

from app import clock
from app.caching import store
from app.database import UNAVAILABLE
from app.models.catalogue import shown
from app.schemas.catalogue import ContentDetailsSchema, PlayerContentSchema, SeasonSchema, dump_episodes
from app.services.catalogue.contents import content_not_found, episode_ref, load_episodes
from app.services.catalogue.details import title_details
from app.services.catalogue.loaded import load_whole
from app.services.player.episodes import EpisodeRef

log = logging.getLogger(__name__)
LAST_KNOWN_SECONDS = 86_400  # the copy an outage falls back to
# In every key: a snapshot of another shape, kept by the release before (Redis outlives a deployment), is not read.
# Bump it whenever ContentSnapshot or what its dumps hold changes.
SHAPE = 5  # 5: the details' alternativeTitles


@dataclass(frozen=True)
class ContentSnapshot:
    id: int
    title: str
    poster_url: str | None
    has_multiple_episodes: bool
    published: bool  # the editor's switch; shown(): within the schedule too
    publish_at: datetime | None
    unpublish_at: datetime | None
    content: dict[str, Any]  # PlayerContentSchema's dump: the page's blob carries it, so it stays this small
    details: dict[str, Any]  # ContentDetailsSchema's dump: GET /contents/{id} adds it to ``content`` (over it)
    seasons: list[dict[str, Any]]  # SeasonSchema's dumps
    episodes: list[dict[str, Any]]  # EpisodeSchema's dumps, in play order, isCompleted false, addresses unsigned
    places: tuple[EpisodeRef, ...]  # the same episodes, for the choice of the one to open
    rules: tuple[tuple[str, str], ...]  # (RuleKind value, value)

    def shown(self) -> bool:
        """Whether the public may see it now (app/services/catalogue/publishing.py), to the second: a snapshot kept
        from before a boundary answers as the content's row would."""
        return shown(self.published, self.publish_at, self.unpublish_at, clock.now())


def _fresh_key(content_id: int) -> str:
    return store().key("snapshots", f"v{SHAPE}:{content_id}")


def _last_key(content_id: int) -> str:
    return f"snapshots:last:v{SHAPE}:{content_id}"  # the named cache's too: cleared with it


# One instance of each: a schema made per dump makes its nested schemas anew too (a fifth of a snapshot's Python time)
PLAYER_FIELDS, DETAILS, SEASONS = PlayerContentSchema(), ContentDetailsSchema(), SeasonSchema(many=True)


def _build(content_id: int) -> ContentSnapshot | None:
    content = load_whole(content_id)  # three statements in all, with the episodes
    if content is None:
        return None
    return snapshot_of(content, load_episodes(content.id))


def snapshot_of(content: Any, episodes: list[Any]) -> ContentSnapshot:
    """The snapshot of ``content`` with its collections (app/services/catalogue/loaded.py, or the ORM's
    relationships) and ``episodes`` in play order."""
    return ContentSnapshot(
        id=content.id,
        title=content.title,
        poster_url=content.poster_url,
        has_multiple_episodes=content.has_multiple_episodes,
        published=content.published,
        publish_at=content.publish_at,
        unpublish_at=content.unpublish_at,
        content=PLAYER_FIELDS.dump(content),
        details=DETAILS.dump(title_details(content, [episode.duration for episode in episodes])),
        seasons=SEASONS.dump(content.seasons),
        episodes=dump_episodes(episodes),
        places=tuple(episode_ref(e) for e in episodes),
        rules=tuple((rule.kind.value, rule.value) for rule in content.availability_rules),
    )


def get_snapshot(content_id: int) -> ContentSnapshot:
    """As ``content_snapshot``, for the API's public reads: a missing or unpublished content is a NotFound ('Контент
    не доступен')."""
    snapshot = content_snapshot(content_id)
    if snapshot is None or not snapshot.shown():
        raise content_not_found(content_id)
    return snapshot


def content_snapshot(content_id: int) -> ContentSnapshot | None:
    """The content's snapshot, from the cache or made now; None when there is no such content. With the database
    unreachable, the last snapshot made of it, if there is one (else the failure goes on to app/errors.py)."""
    cache, key = store(), _fresh_key(content_id)
    kept, claimed = cache.kept_or_claim(key)  # one request makes it; the others asking wait (app/caching.py)
    if kept is not None:
        return kept
    try:
        snapshot = _build(content_id)
        if snapshot is not None:  # a missing id is not kept: random ids must not fill the cache
            cache.set(key, snapshot, int(current_app.config["CATALOGUE_CACHE_SECONDS"]))
            cache.set(_last_key(content_id), snapshot, LAST_KNOWN_SECONDS)
    except UNAVAILABLE:
        last = cache.get(_last_key(content_id))
        if last is None:
            raise
        log.warning("the database is unreachable: content %s from its last snapshot", content_id)
        return last
    finally:
        if claimed:
            cache.settle(key)
    return snapshot
