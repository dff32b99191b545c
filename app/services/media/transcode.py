"""A source video made into what the player plays (issue 35, docs/video-transcoding.md), with Debian's ffmpeg, in one
pass that decodes the source once: the HLS ladder (H.264, the rungs ``ladder.choose`` gives, keyframes forced at every
segment boundary so that the renditions' segments line up), every audio stream as an AAC stereo rendition of its own
(loudness normalised by ``loudnorm``), every text subtitle as WebVTT, and the storyboard's JPEG sheets. Then, in Python,
the HLS master playlist (one audio group, an ``EXT-X-MEDIA`` per audio stream with its language and name: the player's
audio menu, static_src/player/voices.ts), the storyboard's WebVTT map and the master JSON (spec §3, with
``storyboard`` and ``duration``).

Everything is written under one folder handed in (``out``); the caller makes it live (app/services/media/storage.py)."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from app.services.media import ladder
from app.services.media.ladder import Rung
from app.services.media.probe import Source

PIPELINE_VERSION = 1  # bump when the output changes for the same source and options
DEFAULT_FPS = 25.0  # a source whose frame rate the container does not say
TILE_WIDTH = 160  # storyboard tiles, px (contract 2 of issue 35)
TILE_COLUMNS = TILE_ROWS = 10  # a sheet holds up to 100 tiles
AUDIO_CODEC = "mp4a.40.2"  # AAC-LC
AUDIO_GROUP = "audio"
MEDIA, SUBS, STORYBOARD = "media", "subs", "storyboard"
MASTER_PLAYLIST, MASTER_JSON, STORYBOARD_MAP = "master.m3u8", "master.json", "storyboard.vtt"
_MAP = re.compile(r'#EXT-X-MAP:URI="([^"]+)"')

Progress = Callable[[float], None]  # seconds of the source done


class TranscodeError(RuntimeError):
    """ffmpeg failed; the message ends with its last lines."""


@dataclass(frozen=True)
class Options:
    ladder: tuple[Rung, ...]
    preset: str
    segment_seconds: int
    audio_kbps: int
    loudnorm: str
    threads: int  # 0: ffmpeg's choice

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Options:
        return cls(ladder.parse_ladder(str(config["TRANSCODE_LADDER"])), str(config["TRANSCODE_PRESET"]),
                   int(config["TRANSCODE_SEGMENT_SECONDS"]), int(config["TRANSCODE_AUDIO_KBPS"]),
                   str(config["TRANSCODE_LOUDNORM"]), int(config["TRANSCODE_THREADS"]))

    def fingerprint(self) -> str:
        """What the output depends on besides the source (not the threads): a new ladder is a new folder."""
        inputs = {**asdict(self), "version": PIPELINE_VERSION}
        inputs.pop("threads")
        return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()[:8]


@dataclass(frozen=True)
class Video:
    rung: Rung
    width: int


@dataclass(frozen=True)
class Audio:
    stream: int  # the source's stream index
    folder: str
    label: str
    language: str | None  # two letters where there are ("ru")


@dataclass(frozen=True)
class Subtitle:
    stream: int
    file: str  # under subs/
    label: str
    language: str


@dataclass(frozen=True)
class Plan:
    source: Source
    videos: tuple[Video, ...]
    audio: tuple[Audio, ...]
    subtitles: tuple[Subtitle, ...]
    pictures_skipped: int  # picture subtitles (PGS, DVD): no WebVTT from them
    fps: float
    interval: int  # storyboard: a tile every so many seconds
    tile_height: int

    @property
    def tiles(self) -> int:
        return max(1, math.ceil(self.source.duration / self.interval - 0.05))  # a last sliver joins the tile before

    @property
    def columns(self) -> int:
        return min(TILE_COLUMNS, self.tiles)

    @property
    def rows(self) -> int:
        return min(TILE_ROWS, math.ceil(self.tiles / self.columns))


def plan(source: Source, options: Options) -> Plan:
    video = source.video
    videos = tuple(Video(rung, ladder.even_width(video.width, video.height, rung.height))
                   for rung in ladder.choose(options.ladder, video.height))
    audio_labels = ladder.unique([ladder.track_label(stream.title, stream.language, number, "Дорожка")
                                  for number, stream in enumerate(source.audio, 1)])
    audio = tuple(Audio(stream.index, f"audio-{number}", label, ladder.short_language(stream.language))
                  for number, (stream, label) in enumerate(zip(source.audio, audio_labels, strict=True), 1))
    texts = [stream for stream in source.subtitles if stream.text]
    subtitle_labels = ladder.unique([ladder.track_label(stream.title, stream.language, number, "Субтитры")
                                     for number, stream in enumerate(texts, 1)])
    subtitles = tuple(Subtitle(stream.index, f"{number}-{ladder.short_language(stream.language) or 'und'}.vtt",
                               label, ladder.short_language(stream.language) or "")
                      for number, (stream, label) in enumerate(zip(texts, subtitle_labels, strict=True), 1))
    interval = max(2, round(source.duration / 300))
    tile_height = max(2, round(TILE_WIDTH * video.height / video.width / 2) * 2)
    return Plan(source, videos, audio, subtitles, len(source.subtitles) - len(texts), video.fps or DEFAULT_FPS,
                interval, tile_height)


def find_ffmpeg() -> str:
    found = shutil.which("ffmpeg")
    if found is None:
        raise RuntimeError("ffmpeg not found: install Debian's ffmpeg package (bin/setup does)")
    return found


def encode_arguments(plan: Plan, options: Options, out: Path) -> list[str]:
    """The one ffmpeg pass: the HLS renditions under ``out``/media, the storyboard's sheets under ``out``/storyboard,
    the text subtitles under ``out``/subs."""
    source, seconds = plan.source, options.segment_seconds
    count = len(plan.videos)
    threads = ["-threads", str(options.threads)] if options.threads else []
    graph = [f"[0:{source.video.index}]split={count + 1}" + "".join(f"[s{i}]" for i in range(count + 1))]
    graph += [f"[s{i}]scale={video.width}:{video.rung.height},setsar=1,format=yuv420p[v{i}]"
              for i, video in enumerate(plan.videos)]
    graph.append(f"[s{count}]fps=1/{plan.interval},scale={TILE_WIDTH}:"
                 f"{plan.tile_height},tile={plan.columns}x{plan.rows}[sheets]")
    graph += [f"[0:{audio.stream}]aformat=channel_layouts=stereo,loudnorm={options.loudnorm},aresample=48000[a{i}]"
              for i, audio in enumerate(plan.audio)]
    gop = max(1, round(plan.fps * seconds))
    args = [*threads, "-i", str(source.path), "-filter_complex", ";".join(graph)]
    for i, video in enumerate(plan.videos):
        rung = video.rung
        args += ["-map", f"[v{i}]", f"-b:v:{i}", f"{rung.kbps}k", f"-maxrate:v:{i}", f"{rung.maxrate}k",
                 f"-bufsize:v:{i}", f"{rung.bufsize}k"]
    for i in range(len(plan.audio)):
        args += ["-map", f"[a{i}]"]
    names = [f"v:{i},name:{video.rung.name}" for i, video in enumerate(plan.videos)]
    names += [f"a:{i},name:{audio.folder}" for i, audio in enumerate(plan.audio)]
    media = out / MEDIA
    args += [
        "-c:v", "libx264", "-preset", options.preset, "-profile:v", "high", "-g", str(gop), "-keyint_min", str(gop),
        "-sc_threshold", "0", "-force_key_frames", f"expr:gte(t,n_forced*{seconds})",
        *(["-c:a", "aac", "-b:a", f"{options.audio_kbps}k", "-ac", "2", "-ar", "48000"] if plan.audio else []),
        *threads, "-f", "hls", "-hls_time", str(seconds), "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
        "-hls_flags", "independent_segments", "-hls_fmp4_init_filename", "init.mp4",
        "-hls_segment_filename", str(media / "%v" / "seg_%05d.m4s"), "-var_stream_map", " ".join(names),
        str(media / "%v" / "index.m3u8"),
        "-map", "[sheets]", "-c:v", "mjpeg", "-q:v", "5", "-f", "image2", str(out / STORYBOARD / "sheet-%03d.jpg"),
    ]
    for subtitle in plan.subtitles:
        args += ["-map", f"0:{subtitle.stream}", "-c:s", "webvtt", "-f", "webvtt", str(out / SUBS / subtitle.file)]
    return args


def encode(plan: Plan, options: Options, out: Path, progress: Progress) -> float:
    """Runs the pass into the empty folder ``out``; the wall seconds it took."""
    for folder in (MEDIA, STORYBOARD, SUBS):
        (out / folder).mkdir(parents=True, exist_ok=True)
    return run_ffmpeg(encode_arguments(plan, options, out), plan.source.duration, progress)


def run_ffmpeg(args: list[str], duration: float, progress: Progress) -> float:
    """ffmpeg with ``args``, its ``-progress`` read as it goes (``progress`` may raise to stop it: ffmpeg is killed
    and the exception goes on). Started under ``setpriv --pdeathsig KILL`` where there is one, so that a worker
    killed mid-job takes its ffmpeg with it instead of leaving it writing beside the run that takes over."""
    guard = ["setpriv", "--pdeathsig", "KILL"] if shutil.which("setpriv") else []
    command = [*guard, find_ffmpeg(), "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-progress", "pipe:1",
               "-stats_period", "1", *args]
    started = time.monotonic()
    with tempfile.TemporaryFile() as errors:
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True) as process:  # noqa: S603
            try:
                for line in process.stdout or ():
                    key, _, value = line.strip().partition("=")
                    if key == "out_time_us" and value.isdigit():
                        progress(min(duration, int(value) / 1e6))
            except BaseException:
                process.kill()
                raise
        if process.returncode != 0:
            errors.seek(0)
            tail = errors.read().decode(errors="replace").strip().splitlines()[-8:]
            raise TranscodeError(f"ffmpeg exited with {process.returncode}: " + " | ".join(tail))
    progress(duration)
    return time.monotonic() - started


@dataclass(frozen=True)
class Rate:
    peak: int  # bits/s, the largest segment's
    average: int


def _segments(playlist: Path) -> list[tuple[float, Path]]:
    lines = playlist.read_text("utf-8").splitlines()
    return [(float(extinf[len("#EXTINF:"):].rstrip(",")), playlist.parent / name)
            for extinf, name in pairwise(lines) if extinf.startswith("#EXTINF:")]


def rate_of(playlist: Path) -> Rate:
    """A media playlist's peak and average bitrate from its segments (and init section) on disk."""
    segments = _segments(playlist)
    if not segments:
        raise TranscodeError(f"{playlist} lists no segment")
    init = _MAP.search(playlist.read_text("utf-8"))
    init_size = (playlist.parent / init.group(1)).stat().st_size if init else 0
    sizes = [(seconds, path.stat().st_size) for seconds, path in segments]
    long_enough = [(seconds, size) for seconds, size in sizes if seconds >= 0.5] or sizes  # a last sliver skews
    peak = max(size * 8 / max(seconds, 0.001) for seconds, size in long_enough)
    total_seconds = sum(seconds for seconds, _ in sizes)
    average = (sum(size for _, size in sizes) + init_size) * 8 / max(total_seconds, 0.001)
    return Rate(math.ceil(peak), math.ceil(average))


def video_codec(playlist: Path) -> str:
    """RFC 6381's name of the rendition's H.264 (``avc1.64001f``) from its init section's avcC box."""
    found = _MAP.search(playlist.read_text("utf-8"))
    if found is None:
        raise TranscodeError(f"{playlist} names no init section")
    init = (playlist.parent / found.group(1)).read_bytes()
    at = init.index(b"avcC") + 5  # after the box type and configurationVersion: profile, compatibility, level
    return f"avc1.{init[at:at + 3].hex()}"


def master_playlist(plan: Plan, out: Path) -> str:
    """The HLS master playlist of ``out``/media: a variant per video rendition, highest first, and the audio group
    (the first audio stream the default)."""
    media = out / MEDIA
    lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
    audio_rates = [rate_of(media / audio.folder / "index.m3u8") for audio in plan.audio]
    audio_peak = max((rate.peak for rate in audio_rates), default=0)
    audio_average = max((rate.average for rate in audio_rates), default=0)
    for number, audio in enumerate(plan.audio):
        language = f'LANGUAGE="{audio.language}",' if audio.language else ""
        lines.append(f'#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="{AUDIO_GROUP}",NAME="{_quoted(audio.label)}",{language}'
                     f'DEFAULT={"YES" if number == 0 else "NO"},AUTOSELECT=YES,CHANNELS="2",'
                     f'URI="{audio.folder}/index.m3u8"')
    for video in reversed(plan.videos):
        playlist = media / video.rung.name / "index.m3u8"
        rate = rate_of(playlist)
        codecs = video_codec(playlist) + (f",{AUDIO_CODEC}" if plan.audio else "")
        group = f',AUDIO="{AUDIO_GROUP}"' if plan.audio else ""
        lines.append(f"#EXT-X-STREAM-INF:BANDWIDTH={rate.peak + audio_peak},"
                     f"AVERAGE-BANDWIDTH={rate.average + audio_average},RESOLUTION={video.width}x{video.rung.height},"
                     f'FRAME-RATE={plan.fps:.3f},CODECS="{codecs}"{group}')
        lines.append(f"{video.rung.name}/index.m3u8")
    return "\n".join(lines) + "\n"


def storyboard_map(plan: Plan, out: Path) -> str:
    """The storyboard's WebVTT map: a cue per tile from 0 to the end, its text the sheet and the tile's box."""
    sheets = sorted(path.name for path in (out / STORYBOARD).glob("sheet-*.jpg"))
    if not sheets:
        raise TranscodeError("ffmpeg made no storyboard sheet")
    per_sheet = plan.columns * plan.rows
    cues = ["WEBVTT", ""]
    for tile in range(plan.tiles):
        start = tile * plan.interval
        end = plan.source.duration if tile == plan.tiles - 1 else (tile + 1) * plan.interval
        sheet = min(tile // per_sheet, len(sheets) - 1)
        place = tile % per_sheet if tile // per_sheet < len(sheets) else per_sheet - 1
        x, y = place % plan.columns * TILE_WIDTH, place // plan.columns * plan.tile_height
        cues += [f"{vtt_time(start)} --> {vtt_time(end)}",
                 f"{sheets[sheet]}#xywh={x},{y},{TILE_WIDTH},{plan.tile_height}", ""]
    return "\n".join(cues)


def master_document(plan: Plan, link: Callable[[str], str]) -> dict[str, Any]:
    """The master JSON (spec §3 and issue 35's contract 2); ``link`` makes a path under the output folder the
    address the player resolves (origin-relative, as the signed media addresses rewrite them)."""
    label = plan.audio[0].label if plan.audio else "Видео"
    return {
        "sources": [{"label": label, "link": link(f"{MEDIA}/{MASTER_PLAYLIST}"), "isDefault": True}],
        "subtitles": [{"label": subtitle.label, "language": subtitle.language, "src": link(f"{SUBS}/{subtitle.file}")}
                      for subtitle in plan.subtitles],
        "storyboard": link(f"{STORYBOARD}/{STORYBOARD_MAP}"),
        "duration": round(plan.source.duration, 3),
    }


def finish(plan: Plan, out: Path, link: Callable[[str], str]) -> None:
    """The playlists and maps of an encoded ``out``, the master JSON written last."""
    write_atomic(out / MEDIA / MASTER_PLAYLIST, master_playlist(plan, out))
    write_atomic(out / STORYBOARD / STORYBOARD_MAP, storyboard_map(plan, out))
    document = master_document(plan, link)
    write_atomic(out / MASTER_JSON, json.dumps(document, ensure_ascii=False, indent=1))


def write_atomic(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.part")
    partial.write_text(text, "utf-8")
    os.replace(partial, path)


def vtt_time(seconds: float) -> str:
    millis = round(seconds * 1000)
    return f"{millis // 3_600_000:02d}:{millis // 60_000 % 60:02d}:{millis // 1000 % 60:02d}.{millis % 1000:03d}"


def _quoted(text: str) -> str:
    return text.replace('"', "'").replace("\n", " ")
