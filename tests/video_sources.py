"""Source videos for the transcoding tests (issue 35), generated with Debian's ffmpeg and kept under instance/ between
runs (a 2-minute 720p one takes a while): a test pattern, one audio stream per language (a tone each, tagged with the
language), an SRT subtitle stream, in Matroska as an editor's mezzanine file might come."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from app.config import INSTANCE_DIR

CACHE = INSTANCE_DIR / "test-video-sources"
VERSION = 1


def source(seconds: int, *, width: int = 1280, height: int = 720, languages: tuple[str, ...] = ("rus", "eng"),
           subtitles: bool = True, hue: int = 0) -> Path:
    """The source of these parameters, made once."""
    name = f"v{VERSION}-{seconds}s-{width}x{height}-{'-'.join(languages) or 'mute'}-{int(subtitles)}-{hue}.mkv"
    target = CACHE / name
    if target.is_file():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    work = CACHE / f".{name}.work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    inputs = ["-f", "lavfi", "-i", f"testsrc2=size={width}x{height}:rate=25:duration={seconds},hue=h={hue}"]
    maps, metadata = ["-map", "0:v"], []
    for number, language in enumerate(languages):
        inputs += ["-f", "lavfi", "-i", f"sine=frequency={330 + 110 * number}:sample_rate=48000:duration={seconds}"]
        maps += ["-map", f"{number + 1}:a"]
        metadata += [f"-metadata:s:a:{number}", f"language={language}"]
    if subtitles:
        srt = work / "subtitles.srt"
        srt.write_text("".join(f"{n}\n{_srt(n * 10 - 9)} --> {_srt(n * 10 - 6)}\nРеплика {n}\n\n"
                               for n in range(1, max(1, seconds // 10) + 1)), "utf-8")
        inputs += ["-i", str(srt)]
        maps += ["-map", f"{len(languages) + 1}:s"]
        metadata += ["-metadata:s:s:0", "language=rus"]
    partial = work / "source.mkv"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *inputs, *maps, "-c:v", "libx264", "-preset",
                    "ultrafast", "-crf", "28", "-threads", "2", "-c:a", "aac", "-b:a", "96k", "-c:s", "srt",
                    *metadata, str(partial)], check=True, timeout=900)
    partial.rename(target)
    shutil.rmtree(work, ignore_errors=True)
    return target


def _srt(seconds: int) -> str:
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d},000"
