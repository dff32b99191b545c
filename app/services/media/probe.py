"""What a source video holds, read with ffprobe before any work is done on it (issue 35): its container, duration,
the video stream, every audio stream with its language, its subtitles (text ones can become WebVTT; pictures cannot);
and, for a file that cannot be used, the editor's reason in Russian (``Unusable``).

ffprobe is Debian's (bin/setup installs the ``ffmpeg`` package: the wheel's ffmpeg the demo media uses has none)."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TEXT_SUBTITLES = frozenset({"subrip", "srt", "ass", "ssa", "webvtt", "mov_text", "text", "ttml"})
MIN_SIDE, MAX_WIDTH, MAX_HEIGHT = 64, 7680, 4320
MIN_SECONDS = 1.0


class Unusable(Exception):
    """A source that cannot be made into an episode; ``message`` is for the editor."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class VideoStream:
    index: int
    codec: str
    width: int
    height: int
    fps: float  # 0 when the container does not say


@dataclass(frozen=True)
class AudioStream:
    index: int
    codec: str
    channels: int
    language: str | None  # ISO 639-2 as the file tags it ("rus", "eng"); None for "und" or no tag
    title: str | None


@dataclass(frozen=True)
class SubtitleStream:
    index: int
    codec: str
    language: str | None
    title: str | None
    text: bool  # False for pictures (PGS, DVD): they cannot become WebVTT


@dataclass(frozen=True)
class Source:
    path: Path
    container: str  # ffprobe's format name, e.g. "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm"
    duration: float  # seconds
    size: int  # bytes
    video: VideoStream
    audio: tuple[AudioStream, ...]
    subtitles: tuple[SubtitleStream, ...]


def find_ffprobe() -> str:
    found = shutil.which("ffprobe")
    if found is None:
        raise RuntimeError("ffprobe not found: install Debian's ffmpeg package (bin/setup does)")
    return found


def probe(path: Path, *, ffprobe: str | None = None, timeout: float = 120) -> Source:
    """The streams of ``path``; ``Unusable`` with the editor's reason when it is no video this service can use."""
    command = [ffprobe or find_ffprobe(), "-v", "error", "-print_format", "json", "-show_format", "-show_streams",
               str(path)]
    try:
        finished = subprocess.run(command, capture_output=True, timeout=timeout, check=False)  # noqa: S603 (no shell)
    except subprocess.TimeoutExpired:
        raise Unusable(f"Файл не удалось прочитать за {timeout:g} с: он повреждён или не видео.") from None
    if finished.returncode != 0:
        raise Unusable("Файл не читается как видео: его формат не распознан или он повреждён.")
    found = json.loads(finished.stdout or b"{}")
    return read(path, found.get("format") or {}, found.get("streams") or [])


def read(path: Path, container: dict[str, Any], streams: list[dict[str, Any]]) -> Source:
    """The Source that ffprobe's JSON (``-show_format -show_streams``) describes, or ``Unusable``."""
    pictures = [stream for stream in streams if stream.get("codec_type") == "video"
                and not (stream.get("disposition") or {}).get("attached_pic")]  # a cover is no video
    if not pictures:
        raise Unusable("В файле нет видеодорожки.")
    picture = pictures[0]
    codec = str(picture.get("codec_name") or "")
    if not codec or codec == "none":
        raise Unusable("Кодек видеодорожки не распознан: такой файл не перекодировать.")
    width, height = int(picture.get("width") or 0), int(picture.get("height") or 0)
    if not (MIN_SIDE <= width <= MAX_WIDTH and MIN_SIDE <= height <= MAX_HEIGHT):
        raise Unusable(f"Размер кадра {width}×{height} не поддерживается: нужен от {MIN_SIDE}×{MIN_SIDE} "
                       f"до {MAX_WIDTH}×{MAX_HEIGHT}.")
    duration = _number(container.get("duration")) or _number(picture.get("duration"))
    if duration < MIN_SECONDS:
        raise Unusable("Длительность видео не определяется или меньше секунды.")
    video = VideoStream(int(picture["index"]), codec, width, height, _rate(picture.get("avg_frame_rate"))
                        or _rate(picture.get("r_frame_rate")))
    audio = tuple(AudioStream(int(stream["index"]), str(stream.get("codec_name") or ""),
                              int(stream.get("channels") or 0), *_language_and_title(stream))
                  for stream in streams if stream.get("codec_type") == "audio" and stream.get("codec_name"))
    subtitles = tuple(SubtitleStream(int(stream["index"]), str(stream.get("codec_name") or ""),
                                     *_language_and_title(stream), str(stream.get("codec_name")) in TEXT_SUBTITLES)
                      for stream in streams if stream.get("codec_type") == "subtitle")
    return Source(path, str(container.get("format_name") or ""), duration, int(_number(container.get("size"))),
                  video, audio, subtitles)


def _language_and_title(stream: dict[str, Any]) -> tuple[str | None, str | None]:
    tags = {str(key).lower(): str(value) for key, value in (stream.get("tags") or {}).items()}
    language = tags.get("language", "").strip().lower() or None
    return (None if language == "und" else language), (tags.get("title") or None)


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def _rate(value: Any) -> float:
    """ffprobe's "30000/1001" as frames per second (0 for "0/0" or nothing)."""
    numerator, _, denominator = str(value or "0/0").partition("/")
    try:
        return round(float(numerator) / float(denominator or 1), 3)
    except (ValueError, ZeroDivisionError):
        return 0.0
