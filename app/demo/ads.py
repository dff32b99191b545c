"""The demo's house ads: two generated creatives (MP4, 15 s and 30 s) and the placements that show every path.

* the long film (content 1, 1860 s): a skippable pre-roll (skip at 5 s) and a mid-roll at half its length;
* every series: a non-skippable 30 s pre-roll reached through a chain of two wrappers.

``generate_creatives`` writes ``ads/<slug>.mp4`` under the media root with ffmpeg (cached by a stamp, like the rest
of the demo media); ``seed_ads`` writes the creatives and placements into an empty ads table.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from sqlalchemy import delete, func, select

from app.demo.media import Log, find_ffmpeg, run_ffmpeg, write_atomic
from app.demo.seed import advance_sequences
from app.extensions import db
from app.models import AdCreative, AdMediaFile, AdPlacement, AdPosition, ContentType

GENERATOR_VERSION = 1
WIDTH, HEIGHT, FPS = 640, 360, 24
CODEC = "avc1.42c01e,mp4a.40.2"  # H.264 Constrained Baseline 3.0, AAC-LC: plays on anything with MP4
CLICK_THROUGH = "https://example.com/advertiser"


@dataclass(frozen=True)
class DemoCreative:
    id: int
    slug: str
    title: str
    duration: int
    skip_offset: str
    pattern: str  # ffmpeg's lavfi source: the ad looks nothing like the film
    tone: int  # Hz


CREATIVES = (
    DemoCreative(1, "house-15s", "Демо-реклама, 15 секунд", 15, "00:00:05", "smptebars", 880),
    DemoCreative(2, "house-30s", "Демо-реклама, 30 секунд", 30, "", "rgbtestsrc", 330),
)
LONG_FILM_ID = 1


def generate_creatives(media_root: Path, *, ffmpeg: str | None = None, log: Log = print) -> bool:
    """Brings ``media_root/ads`` up to date; True if anything was (re)encoded."""
    out = media_root / "ads"
    stamp_text = json.dumps({"version": GENERATOR_VERSION, "creatives": [asdict(c) for c in CREATIVES],
                             "size": [WIDTH, HEIGHT, FPS]}, ensure_ascii=False)
    stamp = out / ".stamp"
    if stamp.is_file() and stamp.read_text("utf-8") == stamp_text and all(
        (out / f"{c.slug}.mp4").is_file() for c in CREATIVES
    ):
        return False
    out.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    ffmpeg = ffmpeg or find_ffmpeg()
    for creative in CREATIVES:
        log(f"[ads] encoding {creative.slug} ({creative.duration} s)…")
        encode_creative(out / f"{creative.slug}.mp4", creative.duration, creative.pattern, creative.tone, ffmpeg)
    write_atomic(stamp, stamp_text)
    return True


def encode_creative(target: Path, seconds: int, pattern: str, tone: int, ffmpeg: str | None = None) -> None:
    """One creative as the demo's are made: MP4 (H.264 baseline, AAC), ``pattern`` (an ffmpeg lavfi source) with a
    ``tone`` Hz sine, written atomically (two processes may write the same file at once)."""
    tmp = target.with_suffix(f".{os.getpid()}.tmp.mp4")
    run_ffmpeg(ffmpeg or find_ffmpeg(), [
        "-f", "lavfi", "-i", f"{pattern}=size={WIDTH}x{HEIGHT}:rate={FPS}:duration={seconds}",
        "-f", "lavfi", "-i", f"sine=frequency={tone}:sample_rate=48000:duration={seconds}",
        "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "baseline", "-level:v", "3.0",
        "-pix_fmt", "yuv420p", "-b:v", "250k", "-g", str(FPS * 2),
        "-c:a", "aac", "-b:a", "64k", "-ac", "2", "-shortest", "-movflags", "+faststart", str(tmp),
    ])
    tmp.replace(target)


def seed_ads(media_url: str = "/media", *, reset: bool = False) -> bool:
    """Write the demo creatives and placements when there are none (or after ``reset``). True if it wrote any."""
    if reset:
        for model in (AdPlacement, AdMediaFile, AdCreative):
            db.session.execute(delete(model))
    elif db.session.scalar(select(func.count()).select_from(AdCreative)):
        return False
    media = media_url.rstrip("/")
    creatives = {}
    for demo in CREATIVES:
        creative = AdCreative(id=demo.id, title=demo.title, advertiser="Демо-рекламодатель", duration=demo.duration,
                              skip_offset=demo.skip_offset, click_through_url=CLICK_THROUGH)
        creative.media_files.append(AdMediaFile(url=f"{media}/ads/{demo.slug}.mp4", mime_type="video/mp4",
                                                width=WIDTH, height=HEIGHT, bitrate=314, codec=CODEC))
        db.session.add(creative)
        creatives[demo.slug] = creative
    series = db.session.scalar(select(ContentType).where(ContentType.slug == "series"))
    if series is None:
        raise RuntimeError("seed the demo catalogue before its ads: the series placement targets its content type")
    db.session.add_all([
        AdPlacement(title="Пре-ролл долгого фильма (пропуск через 5 с)", position=AdPosition.PREROLL, order=1,
                    creative=creatives["house-15s"], content_id=LONG_FILM_ID),
        AdPlacement(title="Мид-ролл долгого фильма", position=AdPosition.MIDROLL, order=1,
                    creative=creatives["house-15s"], content_id=LONG_FILM_ID),
        AdPlacement(title="Пре-ролл сериалов через две обёртки", position=AdPosition.PREROLL, order=1,
                    creative=creatives["house-30s"], wrapper_depth=2,
                    content_type_id=series.id),
    ])
    db.session.commit()
    advance_sequences(("ad_creatives",))
    return True
