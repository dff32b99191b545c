"""Which ads a content gets, and the house creatives as the VAST builder sees them. Plain functions over the ORM."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypedDict

from sqlalchemy import or_, select

from app.extensions import db
from app.models import AdCreative, AdPlacement, AdPosition, AdTrackingHit, Content
from app.services.ads import vast
from app.services.errors import NotFound

ERROR_CODE = re.compile(r"[1-9]\d{2}")  # VAST error codes: 100-901
PLAYHEAD = re.compile(r"\d{2}:[0-5]\d:[0-5]\d(?:\.\d{3})?")  # HH:MM:SS.mmm


class AdListItem(TypedDict):
    vastUrl: str


class AdList(TypedDict):
    prerollList: list[AdListItem]
    midrollList: list[AdListItem]


def placements_for(content: Content | None) -> list[AdPlacement]:
    """Enabled placements that apply to ``content`` (untargeted ones always), in list order."""
    query = select(AdPlacement).where(AdPlacement.enabled.is_(True))
    if content is None:
        query = query.where(AdPlacement.content_id.is_(None), AdPlacement.content_type_id.is_(None))
    else:
        query = query.where(
            or_(AdPlacement.content_id.is_(None), AdPlacement.content_id == content.id),
            or_(AdPlacement.content_type_id.is_(None), AdPlacement.content_type_id == content.content_type_id),
        )
    return list(db.session.scalars(query.order_by(AdPlacement.order, AdPlacement.id)))


def ad_list(content: Content | None, house_vast_url: Callable[[int, int], str]) -> AdList:
    """The spec's ad-list response; ``house_vast_url(creative_id, wrapper_depth)`` addresses a house ad's VAST."""
    result: AdList = {"prerollList": [], "midrollList": []}
    for placement in placements_for(content):
        if placement.creative_id is not None:
            url = house_vast_url(placement.creative_id, placement.wrapper_depth)
        elif placement.vast_url:
            url = placement.vast_url
        else:
            continue
        items = result["prerollList"] if placement.position is AdPosition.PREROLL else result["midrollList"]
        items.append({"vastUrl": url})
    return result


def creative_for_vast(creative_id: int, absolute: Callable[[str], str]) -> vast.Creative | None:
    """A house creative as the VAST builder takes it, media URLs made absolute; None when there is no such ad."""
    row = db.session.get(AdCreative, creative_id)
    if row is None or not row.media_files:
        return None
    return vast.Creative(
        id=row.id,
        title=row.title,
        advertiser=row.advertiser,
        duration=row.duration,
        skip_offset=row.skip_offset if vast.valid_skip_offset(row.skip_offset) else "",
        click_through_url=row.click_through_url,
        media_files=tuple(
            vast.MediaFile(url=absolute(m.url), mime_type=m.mime_type, width=m.width, height=m.height,
                           bitrate=m.bitrate, codec=m.codec)
            for m in row.media_files
        ),
    )


def record_hit(creative_id: int, event: str, source: str, error_code: str = "", playhead: str = "") -> AdTrackingHit:
    """One pixel of a house document: kept with the error code and the playhead when they are well formed (the player
    may have left a macro unfilled); NotFound for a creative that does not exist."""
    if db.session.get(AdCreative, creative_id) is None:
        raise NotFound("creative_not_found", "Креатив не найден", {"creative": creative_id})
    hit = AdTrackingHit(
        creative_id=creative_id,
        event=event,
        source=source,
        error_code=error_code if ERROR_CODE.fullmatch(error_code) else "",
        playhead=playhead if PLAYHEAD.fullmatch(playhead) else "",
    )
    db.session.add(hit)
    return hit
