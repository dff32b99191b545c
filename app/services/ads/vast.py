"""VAST 4.2 documents for house ads, built with lxml: an inline ad, a wrapper pointing at another document, or an
empty response. Element order follows IAB Tech Lab's own 4.2 samples (``Inline_Simple.xml``).

The IAB 4.2 schema types these URLs as xs:anyURI, whose lexical space admits the bracketed macros; libxml2's
stricter URI check does not, so a validator built on it flags every macro and nothing else.

Every tracking URL goes to ``tracking_url`` with the event and the creative in its query and the IAB macros the
player fills in ([ERRORCODE], [CACHEBUSTING], [ADPLAYHEAD]); ``source`` says which document of a chain
the URL came from, so that a test can tell the wrapper's pixels from the inline's.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlencode

from lxml import etree

VAST_NS = "http://www.iab.com/VAST"
VAST_VERSION = "4.2"
AD_SYSTEM = "player-host"
# The linear tracking events the player reports (spec §7), in the order of a playback.
TRACKING_EVENTS = (
    "loaded", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
    "pause", "resume", "mute", "unmute", "skip",
)
PROGRESS_OFFSET = "00:00:05"  # one progress pixel, five seconds in
SKIP_OFFSET = re.compile(r"(?:\d{2}:[0-5]\d:[0-5]\d(?:\.\d{3})?|(?:100|[1-9]?\d)%)")  # fullmatch


@dataclass(frozen=True)
class MediaFile:
    url: str
    mime_type: str
    width: int
    height: int
    bitrate: int | None = None
    codec: str = ""


@dataclass(frozen=True)
class Creative:
    id: int
    title: str
    duration: int
    media_files: tuple[MediaFile, ...]
    skip_offset: str = ""
    click_through_url: str = ""
    advertiser: str = ""


def valid_skip_offset(value: str) -> bool:
    """VAST's skipoffset: HH:MM:SS, HH:MM:SS.mmm or a percentage (0-100%)."""
    return bool(SKIP_OFFSET.fullmatch(value))


def timecode(seconds: int) -> str:
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def tracking(tracking_url: str, creative_id: int, event: str, source: str, **extra: str) -> str:
    """A pixel URL; the macros stay literal (urlencode would escape the brackets the player looks for)."""
    query = urlencode({"creative": creative_id, "event": event, "source": source, **extra})
    macros = "&cb=[CACHEBUSTING]&playhead=[ADPLAYHEAD]"
    if event == "error":
        macros = "&code=[ERRORCODE]" + macros
    return f"{tracking_url}?{query}{macros}"


def _el(parent: etree._Element, tag: str, text: str | None = None, **attrs: str) -> etree._Element:
    element = etree.SubElement(parent, f"{{{VAST_NS}}}{tag}", {k: v for k, v in attrs.items() if v != ""})
    if text is not None:
        element.text = etree.CDATA(text) if "://" in text or text.startswith("/") else text
    return element


def _root() -> etree._Element:
    return etree.Element(f"{{{VAST_NS}}}VAST", {"version": VAST_VERSION}, nsmap={None: VAST_NS})


def _serialise(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def inline(creative: Creative, tracking_url: str, source: str = "inline") -> bytes:
    """One InLine ad with one linear creative."""
    root = _root()
    ad = _el(root, "Ad", id=f"house-{creative.id}")
    body = _el(ad, "InLine")
    _el(body, "AdSystem", AD_SYSTEM, version="1")
    _el(body, "Error", tracking(tracking_url, creative.id, "error", source))
    _el(body, "Impression", tracking(tracking_url, creative.id, "impression", source), id=f"imp-{creative.id}")
    _el(body, "AdServingId", str(uuid.uuid4()))
    _el(body, "AdTitle", creative.title)
    if creative.advertiser:
        _el(body, "Advertiser", creative.advertiser)
    creatives = _el(body, "Creatives")
    element = _el(creatives, "Creative", id=f"creative-{creative.id}", sequence="1", adId=f"house-{creative.id}")
    linear = _el(element, "Linear", skipoffset=creative.skip_offset)
    _tracking_events(linear, tracking_url, creative.id, source)
    _el(linear, "Duration", timecode(creative.duration))
    files = _el(linear, "MediaFiles")
    for media in creative.media_files:
        _el(files, "MediaFile", media.url, delivery="progressive", type=media.mime_type, width=str(media.width),
            height=str(media.height), bitrate=str(media.bitrate or ""), codec=media.codec,
            scalable="1", maintainAspectRatio="1")
    clicks = _el(linear, "VideoClicks")  # the schema's order: ClickTracking, then ClickThrough
    _el(clicks, "ClickTracking", tracking(tracking_url, creative.id, "click", source))
    if creative.click_through_url:
        _el(clicks, "ClickThrough", creative.click_through_url, id=f"click-{creative.id}")
    _el(element, "UniversalAdId", f"house-{creative.id}", idRegistry="unknown")
    return _serialise(root)


def wrapper(target_url: str, creative_id: int, tracking_url: str, source: str) -> bytes:
    """A Wrapper ad whose VASTAdTagURI is ``target_url``, with its own impression, error and event pixels."""
    root = _root()
    ad = _el(root, "Ad", id=f"wrapper-{creative_id}-{source}")
    body = _el(ad, "Wrapper", followAdditionalWrappers="true")
    _el(body, "AdSystem", AD_SYSTEM, version="1")
    _el(body, "Error", tracking(tracking_url, creative_id, "error", source))
    _el(body, "Impression", tracking(tracking_url, creative_id, "impression", source))
    creatives = _el(body, "Creatives")
    linear = _el(_el(creatives, "Creative"), "Linear")
    _tracking_events(linear, tracking_url, creative_id, source)
    _el(_el(linear, "VideoClicks"), "ClickTracking", tracking(tracking_url, creative_id, "click", source))
    _el(body, "VASTAdTagURI", target_url)  # after Creatives, as in IAB's 4.2 Wrapper sample
    return _serialise(root)


def empty(error_urls: Iterable[str] = ()) -> bytes:
    """No ad: a VAST with no Ad (error 303 for the player), with the given error URLs."""
    root = _root()
    for url in error_urls:
        _el(root, "Error", url)
    return _serialise(root)


def _tracking_events(linear: etree._Element, tracking_url: str, creative_id: int, source: str) -> None:
    events = _el(linear, "TrackingEvents")
    for event in TRACKING_EVENTS:
        _el(events, "Tracking", tracking(tracking_url, creative_id, event, source), event=event)
    _el(events, "Tracking", tracking(tracking_url, creative_id, "progress", source, offset=PROGRESS_OFFSET),
        event="progress", offset=PROGRESS_OFFSET)
