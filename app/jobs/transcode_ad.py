"""The job kind ``transcode_ad`` (issue 35): an ad creative's uploaded source (app/admin/uploads.py) made into the
progressive MP4 files VAST hands to players, H.264 and AAC at 360p and 720p (no larger than the source: a 480p source
gives 360p only), with the index at the front (``+faststart``) so that playback starts before the file is whole.

Params: ``{"creative_id": <int>, "file": "<the source under JOB_FILES_DIR>"}``; subject ``creative:<id>``. Each file
is written under a temporary name, then renamed to ``MEDIA_ROOT/ads/<sha256>.mp4`` by its content (a re-run writes
the same names); the creative's media files are replaced by the new ones, and its duration set, in one transaction at
the end, so a run cut anywhere leaves the creative as it was. The files of the media files it replaced stay on disk
(another creative may share them: they are named by content)."""

from __future__ import annotations

import hashlib
import logging
import os
import subprocess
from pathlib import Path

from sqlalchemy.orm import Session

from app.jobs.context import JobContext, JobFailed, Outcome
from app.models import AdCreative, AdMediaFile
from app.services.editorial.media_files import AD_FOLDER
from app.services.media.probe import Unusable, probe

log = logging.getLogger(__name__)
KIND = "transcode_ad"
LABEL = "Перекодирование ролика"
# height: (video kbit/s, audio kbit/s); H.264 Main, AAC-LC stereo
RENDITIONS: dict[int, tuple[int, int]] = {360: (800, 96), 720: (2500, 128)}
CODEC = "avc1.4d401f"  # H.264 Main, level 3.1: VAST's MediaFile codec
FFMPEG_SECONDS_PER_SOURCE_SECOND = 20.0  # a run that takes longer than this is stuck


def subject_of(creative_id: int) -> str:
    return f"creative:{creative_id}"


def run(context: JobContext) -> Outcome:
    creative_id = int(context.params["creative_id"])
    source_path = Path(str(context.params["file"]))
    if not source_path.is_file():
        raise JobFailed("Исходный файл ролика не найден: загрузите его снова.")
    try:
        source = probe(source_path)
    except Unusable as unusable:
        raise JobFailed(unusable.message) from None
    heights = [height for height in sorted(RENDITIONS) if height <= max(source.video.height, min(RENDITIONS))]
    media_root = Path(str(context.config["MEDIA_ROOT"]))
    folder = media_root / AD_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    total = max(1, round(source.duration * 1000)) * len(heights)
    context.progress(0, total)
    made: list[tuple[int, int, int, str]] = []  # (width, height, kbit/s, path under the media root)
    for step, height in enumerate(heights):
        video_rate, audio_rate = RENDITIONS[height]
        temporary = folder / f".{context.job_id}-{height}.mp4"
        span = total // len(heights)
        _encode(context, source_path, temporary, height, video_rate, audio_rate if source.audio else None,
                done=(step * span, span, total), timeout=max(60.0, source.duration * FFMPEG_SECONDS_PER_SOURCE_SECOND))
        digest = hashlib.sha256()
        with temporary.open("rb") as written:
            while block := written.read(1_048_576):
                digest.update(block)
        name = f"{digest.hexdigest()[:32]}.mp4"
        os.replace(temporary, folder / name)
        width = _even(source.video.width * height / source.video.height)
        made.append((width, height, video_rate + (audio_rate if source.audio else 0), f"{AD_FOLDER}/{name}"))
    context.progress(total, total)
    url_path = str(context.config["MEDIA_URL_PATH"]).rstrip("/")
    with Session(context.engine) as session, session.begin():
        creative = session.get(AdCreative, creative_id)
        if creative is None:
            raise JobFailed("Ролик удалён, пока готовились его файлы.")
        creative.media_files.clear()
        for width, height, bitrate, path in made:
            creative.media_files.append(AdMediaFile(url=f"{url_path}/{path}", mime_type="video/mp4", width=width,
                                                    height=height, bitrate=bitrate, codec=CODEC))
        creative.duration = max(1, round(source.duration))
    log.info("creative %s: %s made from %s", creative_id, ", ".join(path for *_, path in made), source_path.name)
    labels = ", ".join(f"{height}p" for _, height, _, _ in made)
    return Outcome(f"Готово: файлы ролика MP4 {labels}, {round(source.duration)} с.",
                   {"creative_id": creative_id, "files": [
                       {"url": f"{url_path}/{path}", "width": width, "height": height, "bitrate": bitrate}
                       for width, height, bitrate, path in made]})


def _encode(context: JobContext, source: Path, target: Path, height: int, video_rate: int, audio_rate: int | None,
            *, done: tuple[int, int, int], timeout: float) -> None:
    """One rendition with Debian's ffmpeg, its progress (``-progress``) reported as it goes (``done``: where this
    rendition starts in the job's count, its share, the job's total); stopped with the job."""
    offset, span, total = done
    command = ["ffmpeg", "-v", "error", "-nostdin", "-y", "-threads", "2", "-i", str(source),
               "-map", "0:v:0", "-vf", f"scale=-2:{height}", "-c:v", "libx264", "-preset", "veryfast",
               "-profile:v", "main", "-level", "3.1", "-pix_fmt", "yuv420p", "-b:v", f"{video_rate}k",
               "-maxrate", f"{video_rate * 3 // 2}k", "-bufsize", f"{video_rate * 2}k"]
    if audio_rate is not None:
        command += ["-map", "0:a:0", "-c:a", "aac", "-b:a", f"{audio_rate}k", "-ac", "2"]
    command += ["-movflags", "+faststart", "-f", "mp4", "-progress", "pipe:1", "-nostats", str(target)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # noqa: S603 (no shell)
    try:
        for line in process.stdout or ():
            key, _, value = line.decode(errors="replace").strip().partition("=")
            if key == "out_time_us" and value.isdigit():
                context.progress(offset + min(span - 1, int(value) // 1000), total)
        error = process.communicate(timeout=timeout)[1]
    except BaseException:
        process.kill()
        process.wait()
        target.unlink(missing_ok=True)
        raise
    if process.returncode != 0:
        target.unlink(missing_ok=True)
        raise RuntimeError(f"ffmpeg failed ({process.returncode}): {error.decode(errors='replace')[-500:]}")


def _even(value: float) -> int:
    return max(2, round(value / 2) * 2)
