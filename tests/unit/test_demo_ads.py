"""The demo's ad creatives: real MP4s of the catalogue's durations, encoded once and then cached."""

from __future__ import annotations

import re
import subprocess

from app.demo.ads import CREATIVES, HEIGHT, WIDTH, generate_creatives
from app.demo.media import find_ffmpeg


def probe(path) -> str:
    """ffmpeg's own description of a file (imageio-ffmpeg ships no ffprobe)."""
    result = subprocess.run([find_ffmpeg(), "-hide_banner", "-i", str(path)], capture_output=True, text=True)
    return result.stderr


def test_creatives_are_mp4s_of_their_durations_and_are_cached(tmp_path):
    logs: list[str] = []
    assert generate_creatives(tmp_path, log=logs.append) is True
    for creative in CREATIVES:
        info = probe(tmp_path / "ads" / f"{creative.slug}.mp4")
        duration = re.search(r"Duration: 00:00:(\d+\.\d+)", info)
        assert duration and abs(float(duration.group(1)) - creative.duration) < 0.1, info
        assert re.search(rf"Video: h264 \(Constrained Baseline\).*{WIDTH}x{HEIGHT}", info), info
        assert "Audio: aac" in info
    assert len(logs) == len(CREATIVES)

    stamp = (tmp_path / "ads" / ".stamp").read_text()
    assert generate_creatives(tmp_path, log=logs.append) is False  # nothing changed: nothing encoded
    assert len(logs) == len(CREATIVES) and (tmp_path / "ads" / ".stamp").read_text() == stamp

    (tmp_path / "ads" / f"{CREATIVES[0].slug}.mp4").unlink()
    assert generate_creatives(tmp_path, log=logs.append) is True  # a missing file is made again
