"""A series' media for the markers and thumbnails browser tests (issue 35): episodes of tests/jobs/intro_media.py (a
20 s intro after an opening of 5 s, then a 15 s scene: 40 s at 160x90) under ``titles/<slug>`` of a media root of
the test's own, each with its master JSON (spec §3) and, when asked, a storyboard in contract 2's format: JPEG sprite
sheets of 160x90 tiles (5 a row, 4 rows), one tile every 2 s (max(2, round(40 / 300))), and a WebVTT map whose cue
text is ``<sprite>#xywh=x,y,w,h``, links relative to the map, the map's link relative to the master file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.jobs.intro_media import ffmpeg, make_episode

DURATION = 40
TILE_SECONDS = 2
TILE_W, TILE_H, COLUMNS, ROWS = 160, 90, 5, 4


def _stamp(seconds: float) -> str:
    return f"{int(seconds // 3600):02d}:{int(seconds % 3600 // 60):02d}:{seconds % 60:06.3f}"


def tile_of(seconds: float) -> tuple[str, int, int]:
    """The sprite sheet and the tile's x, y for a time, as the map below says it."""
    index = int(seconds // TILE_SECONDS)
    sheet, place = divmod(index, COLUMNS * ROWS)
    return f"sprite-{sheet}.jpg", place % COLUMNS * TILE_W, place // COLUMNS * TILE_H


def make_storyboard(folder: Path) -> None:
    """``folder``/storyboard/: the sprite sheets from the episode's own frames and map.vtt."""
    target = folder / "storyboard"
    target.mkdir(exist_ok=True)
    subprocess.run([ffmpeg(), "-hide_banner", "-loglevel", "error", "-nostdin", "-threads", "2", "-y",
                    "-i", str(folder / "index.m3u8"),
                    "-vf", f"fps=1/{TILE_SECONDS},scale={TILE_W}:{TILE_H},tile={COLUMNS}x{ROWS}",
                    "-q:v", "5", "-start_number", "0", str(target / "sprite-%d.jpg")], check=True, timeout=300)
    cues = []
    for start in range(0, DURATION, TILE_SECONDS):
        sheet, x, y = tile_of(start)
        cues.append(f"{_stamp(start)} --> {_stamp(start + TILE_SECONDS)}\n{sheet}#xywh={x},{y},{TILE_W},{TILE_H}\n")
    (target / "map.vtt").write_text("WEBVTT\n\n" + "\n".join(cues), "utf-8")


def make_title(media_root: Path, slug: str, storyboard: bool) -> str:
    """``titles/<slug>``: an episode with its master JSON (sources by their origin-relative address, as the demo's);
    its master's address."""
    folder = media_root / "titles" / slug
    if not (folder / "master.json").is_file():
        make_episode(folder, 1, 5)
        if storyboard:
            make_storyboard(folder)
        master: dict[str, object] = {
            "sources": [{"label": "Оригинал", "link": f"/media/titles/{slug}/index.m3u8", "isDefault": True}],
            "subtitles": [], "duration": DURATION}
        if storyboard:
            master["storyboard"] = "storyboard/map.vtt"
        (folder / "master.json").write_text(json.dumps(master, ensure_ascii=False), "utf-8")
    return f"/media/titles/{slug}/master.json"
