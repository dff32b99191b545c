"""What goes in the sitemaps (app/services/seo/sitemaps.py writes and stores them): the <url> entries with their
<video:video> elements, read from the catalogue in keyset batches, and the configuration they are made for.

What is listed: one <url> per playable episode (one with a master file) of each published content, in play order
(content id, then episodes outside seasons, season order, episode order, id); consecutive episodes whose page is
the same address share one <url> with a <video:video> each. Its <video:video> says: the thumbnail (the episode's
poster, else the content's; without either there is no video element, the page is still listed), the title (the
content's, with season, episode and the episode's own title for a series; at most 100 characters), the description
(the episode's, else the content's, else the title; at most 2,048), the duration (1 to 28,800 s, else left out),
``player_loc`` (our embed address, ``/?movie_id=…&episode_id=…``), the publication date (the content's creation),
``family_friendly`` no for age rating 18, and the country restriction of its availability rules.

Left out entirely: a content with an allow-domain rule (licensed to named sites only): its player page refuses a
crawler, which embeds it on no site, so neither its page (by default our player page) nor its ``player_loc`` could be
fetched; and a content whose allowed countries are all blocked (it plays nowhere). A block-domain rule alone does not
matter to a crawler. The country rules become ``<video:restriction>``: ``allow`` with the allowed countries minus the
blocked ones when any country is allowed, else ``deny`` with the blocked ones, nothing when there are none.

The page (<loc>) is the site's page for the episode when ``page_url`` (SITEMAP_PAGE_URL) gives a template, else our
player page as a viewer would link it: the spec's share address ``/season-S/episode-E?movie_id=…`` for an episode in
a season, ``/?movie_id=…`` for the one a bare link opens (a film's), the embed address itself for any other (Google
asks for a page other than ``player_loc``; only a content with several episodes outside seasons has such).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from sqlalchemy import case, select
from sqlalchemy.orm import Session, scoped_session

from app.models import AvailabilityRule, Content, ContentType, Episode, RuleKind, Season
from app.services.catalogue.publishing import public

AnySession = Session | scoped_session[Any]  # db.session, or a session of one's own

BATCH = 2000  # contents per query
MAX_TITLE = 100  # the video schema's limits, in characters
MAX_DESCRIPTION = 2048
MAX_DURATION = 28_800
_COUNTRY = re.compile(r"[a-z]{2}")
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")  # no XML 1.0 document may hold these
_URL_SAFE = "%/:=&?~#+!$,;'@()*[]"  # kept as they are: a URL's own punctuation and its escapes
_UNSAFE_IN_URL = re.compile(r"[^A-Za-z0-9._~%/:=&?#+!$,;'@()*\[\]-]")  # what _URL_SAFE and quote() leave as is


@dataclass(frozen=True)
class SitemapConfig:
    """What a generation needs from the configuration (app/config.py SITEMAP_*)."""

    base_url: str  # the origin every address starts with: "https://player.example/"
    page_url: str = ""  # SITEMAP_PAGE_URL
    max_urls: int = 50_000
    max_bytes: int = 52_428_800


def sitemap_config(settings: Mapping[str, Any], base_url: str) -> SitemapConfig:
    """The configuration's SITEMAP_* keys (app/config.py), for files whose addresses start with ``base_url``'s
    origin (ValueError unless it is an http(s) one)."""
    parts = urlsplit(base_url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"the sitemaps' base address must be like https://player.example, not {base_url!r}")
    return SitemapConfig(base_url=f"{parts.scheme}://{parts.netloc}/", page_url=str(settings["SITEMAP_PAGE_URL"]),
                         max_urls=int(settings["SITEMAP_MAX_URLS"]), max_bytes=int(settings["SITEMAP_MAX_BYTES"]))


@dataclass(frozen=True)
class Restriction:
    relationship: str  # allow or deny
    countries: tuple[str, ...]  # upper-case ISO 3166-1 alpha-2


@dataclass(frozen=True)
class Video:
    thumbnail_loc: str
    title: str
    description: str
    player_loc: str
    duration: int | None
    publication_date: str | None  # W3C Datetime
    family_friendly: bool
    restriction: Restriction | None


@dataclass
class Entry:
    """One <url>: a page and the videos on it."""

    loc: str
    lastmod: str | None  # W3C Datetime
    videos: list[Video]


@dataclass(frozen=True)
class Licence:
    """What a content's availability rules (app/services/player/availability.py) mean to a crawler."""

    listed: bool  # False: an allow-domain rule (no crawler embeds it on a licensed site), or it plays nowhere
    restriction: Restriction | None  # None: it plays in every country


def licence(rules: Iterable[tuple[RuleKind | str, str]]) -> Licence:
    """``allow`` with the allowed countries minus the blocked ones when any is allowed, else ``deny`` with the
    blocked ones; codes that are no ISO 3166-1 alpha-2 code name no country a viewer is in."""
    allowed: set[str] = set()
    blocked: set[str] = set()
    any_allowed = False
    for kind, value in rules:
        code = value.strip().lower()
        match RuleKind(kind):
            case RuleKind.ALLOW_DOMAIN:
                return Licence(False, None)
            case RuleKind.ALLOW_COUNTRY:
                any_allowed = True
                allowed.add(code)
            case RuleKind.BLOCK_COUNTRY:
                blocked.add(code)
    if any_allowed:
        playable = tuple(sorted(code.upper() for code in allowed - blocked if _COUNTRY.fullmatch(code)))
        return Licence(bool(playable), Restriction("allow", playable) if playable else None)
    denied = tuple(sorted(code.upper() for code in blocked if _COUNTRY.fullmatch(code)))
    return Licence(True, Restriction("deny", denied) if denied else None)


def _text(value: str | None, limit: int) -> str:
    """Text an XML document can hold, cut to ``limit`` characters."""
    text = _NOT_XML.sub("", value or "").strip()
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def _absolute(base_url: str, address: str) -> str:
    """``address`` (origin-relative or absolute) as an absolute URL, anything a URL may not hold escaped."""
    address = address.strip()
    if address.startswith("/") and not address.startswith("//"):  # the usual case, without urljoin's cost
        url = base_url.rstrip("/") + address
    else:
        url = urljoin(base_url, address)
    return quote(_NOT_XML.sub("", url), safe=_URL_SAFE) if _UNSAFE_IN_URL.search(url) else url


def w3c_datetime(value: datetime) -> str:
    """W3C Datetime, to the second, in UTC."""
    return value.astimezone(UTC).replace(microsecond=0).isoformat()


def _video_title(content: Any, episode: Any) -> str:
    if episode.season is None:
        own = episode.title if episode.title and episode.title != content.title else ""
        return _text(f"{content.title}. {own}" if own else content.title, MAX_TITLE)
    title = f"{content.title}, сезон {episode.season}, серия {episode.order}"
    if episode.title and episode.title.strip().lower() != f"серия {episode.order}":
        title += f". {episode.title}"
    return _text(title, MAX_TITLE)


def _page(config: SitemapConfig, content: Any, episode: Any, first: bool, player: str) -> str:
    if config.page_url:
        return _absolute(config.base_url, config.page_url.format(
            id=content.id, slug=content.slug, type=content.type, episode_id=episode.id, episode=episode.order,
            season="" if episode.season is None else episode.season))
    if episode.season is not None:
        return _absolute(config.base_url, f"/season-{episode.season:d}/episode-{episode.order:d}"
                                          f"?movie_id={content.id:d}")
    if first:
        return _absolute(config.base_url, f"/?movie_id={content.id:d}")
    return player


@dataclass(frozen=True)
class _Common:
    """What every video of one content shares, worked out once."""

    restriction: Restriction | None
    published: str | None  # W3C Datetime
    lastmod: str | None
    description: str  # the content's, for episodes without their own
    family_friendly: bool


def _video(content: Any, episode: Any, player: str, common: _Common, base_url: str) -> Video | None:
    """The episode's <video:video>; None without a poster (the schema wants a thumbnail)."""
    poster = episode.poster_path or content.poster_url
    if not poster:
        return None
    title = _video_title(content, episode)
    return Video(
        thumbnail_loc=_absolute(base_url, poster),
        title=title,
        description=_text(episode.description, MAX_DESCRIPTION) or common.description or title,
        player_loc=player,
        duration=episode.duration if episode.duration and 0 < episode.duration <= MAX_DURATION else None,
        publication_date=common.published,
        family_friendly=common.family_friendly,
        restriction=common.restriction,
    )


def _content_entries(config: SitemapConfig, content: Any, episodes: Sequence[Any],
                     rules: Sequence[tuple[str, str]]) -> Iterator[Entry]:
    """The <url>s of one content: its playable episodes in play order, consecutive ones of one page together."""
    terms = licence(rules)
    if not terms.listed:
        return
    common = _Common(terms.restriction, content.created_at and w3c_datetime(content.created_at),
                     content.updated_at and w3c_datetime(content.updated_at),
                     _text(content.description, MAX_DESCRIPTION), (content.age_rating or 0) < 18)
    entry: Entry | None = None
    for position, episode in enumerate(episodes):
        if not (episode.master_file_path or "").strip():
            continue
        player = _absolute(config.base_url, f"/?movie_id={content.id:d}&episode_id={episode.id:d}")  # ids only
        loc = _page(config, content, episode, position == 0, player)
        video = _video(content, episode, player, common, config.base_url)
        if entry is not None and entry.loc == loc:
            if video:
                entry.videos.append(video)
            continue
        if entry is not None:
            yield entry
        entry = Entry(loc, common.lastmod, [video] if video else [])
    if entry is not None:
        yield entry


def entries(session: AnySession, config: SitemapConfig, batch: int = BATCH) -> Iterator[Entry]:
    """Every <url>, in order: published contents in keyset batches of ``batch``, three queries a batch."""
    last = 0
    while True:
        contents = session.execute(
            select(Content.id, Content.slug, Content.title, Content.description, Content.age_rating,
                   Content.poster_url, Content.created_at, Content.updated_at, ContentType.slug.label("type"))
            .join(ContentType, ContentType.id == Content.content_type_id)
            .where(public(), Content.id > last).order_by(Content.id).limit(batch)
        ).all()
        if not contents:
            return
        first, last = contents[0].id, contents[-1].id
        rules: dict[int, list[tuple[str, str]]] = defaultdict(list)
        for rule in session.execute(select(AvailabilityRule.content_id, AvailabilityRule.kind, AvailabilityRule.value)
                                    .where(AvailabilityRule.content_id.between(first, last))):
            rules[rule.content_id].append((rule.kind, rule.value))
        episodes: dict[int, list[Any]] = defaultdict(list)
        for episode in session.execute(
            select(Episode.id, Episode.content_id, Episode.order, Episode.title, Episode.description,
                   Episode.duration, Episode.poster_path, Episode.master_file_path, Season.order.label("season"))
            .outerjoin(Season, Season.id == Episode.season_id)
            .where(Episode.content_id.between(first, last))
            # app/services/player/episodes.py play_order: outside seasons first, then season, episode, id
            .order_by(Episode.content_id, case((Season.order.is_(None), 0), else_=1), Season.order, Episode.order,
                      Episode.id)
        ):
            episodes[episode.content_id].append(episode)
        for content in contents:
            yield from _content_entries(config, content, episodes.get(content.id, ()), rules.get(content.id, ()))
        if len(contents) < batch:
            return
