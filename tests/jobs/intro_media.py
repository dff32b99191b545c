"""Episodes that share an intro, made with ffmpeg for the intro detection's tests (issue 35): the same 20 s intro
(a melody of changing notes, testsrc2's picture) at a different offset in each, a different opening before it and a
different scene after it (pink noise of its own seed under a tune of its own, a plain colour), each episode an HLS
playlist (TS segments of 4 s) under the media root with its master JSON (spec §3), 160x90 at 12 frames a second."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

INTRO_SECONDS = 20
AFTER_SECONDS = 15
MELODY = ("0.4*sin(2*PI*t*(220+55*mod(floor(t*4)*7\\,13)))"
          "+0.3*sin(2*PI*t*(330+40*mod(floor(t*3)*5\\,11)))")
SIZE = "160x90"


def ffmpeg() -> str:
    found = shutil.which("ffmpeg", path="/usr/bin") or shutil.which("ffmpeg")
    assert found, "Debian's ffmpeg (bin/setup)"
    return found


def _scene(seed: int, tune: int, colour: str, seconds: int) -> list[str]:
    return [f"anoisesrc=color=pink:seed={seed}:amplitude=0.2:d={seconds}:r=44100",
            f"aevalsrc=0.3*sin(2*PI*t*({tune}+97*mod(floor(t*5)\\,9))):s=44100:d={seconds}",
            f"color=c={colour}:size={SIZE}:rate=12:d={seconds}"]


def make_episode(folder: Path, number: int, offset: int) -> None:
    """``folder``/index.m3u8 and its segments: ``offset`` s of an opening, the intro, AFTER_SECONDS of a scene."""
    inputs = [f"aevalsrc={MELODY}:s=44100:d={INTRO_SECONDS}", f"testsrc2=size={SIZE}:rate=12:d={INTRO_SECONDS}",
              *_scene(number * 10 + 1, 400 + number * 60, f"0x{number * 40:02x}2050", offset),
              *_scene(number * 10 + 2, 700 + number * 30, f"0x50{number * 40:02x}20", AFTER_SECONDS)]
    graph = ("[2][3]amix=inputs=2:normalize=0[a1];[5][6]amix=inputs=2:normalize=0[a3];"
             "[4]format=yuv420p[v1];[1]format=yuv420p[v2];[7]format=yuv420p[v3];"
             "[v1][a1][v2][0][v3][a3]concat=n=3:v=1:a=1[v][a]")
    folder.mkdir(parents=True, exist_ok=True)
    command = [ffmpeg(), "-hide_banner", "-loglevel", "error", "-nostdin", "-threads", "2", "-y"]
    for source in inputs:
        command += ["-f", "lavfi", "-i", source]
    command += ["-filter_complex", graph, "-map", "[v]", "-map", "[a]", "-c:v", "libx264", "-preset", "ultrafast",
                "-g", "24", "-c:a", "aac", "-ac", "2", "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                "-hls_segment_filename", str(folder / "seg%03d.ts"), str(folder / "index.m3u8")]
    subprocess.run(command, check=True, timeout=300)


def make_season(media_root: Path, name: str, offsets: list[int], media_url_path: str = "/media") -> list[str]:
    """The episodes at ``media_root``/``name``/epN, each with its master.json; their master addresses, in order.
    Odd episodes link their source relative to the master file, even ones by its origin-relative address."""
    addresses = []
    for number, offset in enumerate(offsets, start=1):
        folder = media_root / name / f"ep{number}"
        make_episode(folder, number, offset)
        link = "index.m3u8" if number % 2 else f"{media_url_path}/{name}/ep{number}/index.m3u8"
        master = {"sources": [{"label": "Оригинал", "link": link, "isDefault": True}], "subtitles": []}
        (folder / "master.json").write_text(json.dumps(master, ensure_ascii=False), "utf-8")
        addresses.append(f"{media_url_path}/{name}/ep{number}/master.json")
    return addresses
