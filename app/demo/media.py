"""Generates, cached, the demo media under a media root (served as ``/media/<path>``).

``base/`` is one long HLS ladder (fMP4 segments of ``SEGMENT_SECONDS``) encoded once: a short source per rendition
is encoded with ffmpeg, then looped by stream copy to the longest title. Every title under ``titles/<slug>/`` is
written by Python and holds everything it plays, as a packager's output would: its first segments of ``base/`` as
hard links (no copy; a copy where the file system has none) in a folder per rendition, media playlists naming them
relatively, one HLS master per voice, WebVTT subtitles and the master JSON. So one title's signed media address
(app/http/media.py) reaches its own files and no other title's. ``posters/<slug>.jpg`` is one test frame per title,
hue-shifted.
``.stamp`` records the inputs of the tree; a run whose stamp matches does nothing.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import pairwise
from pathlib import Path

from app.demo.catalogue import SEGMENT_SECONDS, TITLES, DemoTitle

GENERATOR_VERSION = 1  # bump when base's output changes for the same inputs
TITLES_LAYOUT = 2  # bump when the titles' output changes (2: each title holds its segments)
SOURCE_SECONDS = 64  # whole 4 s GOPs at 24 fps, AAC (1024) and AC-3 (1536) frames at 48 kHz: it loops seamlessly
FPS = 24
SAMPLE_RATE = 48_000
AAC_CODEC = "mp4a.40.2"  # AAC-LC

Log = Callable[[str], None]


@dataclass(frozen=True)
class VideoRendition:
    name: str
    width: int
    height: int
    bitrate: int  # bits/s, the encoder target


@dataclass(frozen=True)
class AudioRendition:
    name: str
    encoder: str
    frame_samples: int  # samples per coded frame
    bitrate: int
    frequency: int  # of the sine tone, Hz
    label: str
    language: str
    autoselect: bool  # a voice's default track; False keeps it to explicit choice


VIDEO = (
    VideoRendition("240p", 426, 240, 150_000),
    VideoRendition("360p", 640, 360, 300_000),
    VideoRendition("480p", 854, 480, 500_000),
)
AUDIO = (
    AudioRendition("ru", "aac", 1024, 64_000, 440, "Русский", "ru", autoselect=True),
    AudioRendition("en", "aac", 1024, 64_000, 660, "English", "en", autoselect=True),
    AudioRendition("ac3", "ac3", 1536, 96_000, 550, "Русский AC3", "ru", autoselect=False),
)
AUDIO_BANDWIDTH = max(a.bitrate for a in AUDIO if a.autoselect)  # added to the video bitrate in the masters
SUBTITLES = (("ru", "Русские", "Субтитры, реплика"), ("en", "English", "Subtitles, line"))


def find_ffmpeg() -> str:
    """The ffmpeg of the imageio-ffmpeg wheel, else the one on PATH."""
    try:
        import imageio_ffmpeg

        return imageio_ffmpeg.get_ffmpeg_exe()
    except (ImportError, RuntimeError):
        found = shutil.which("ffmpeg")
        if found is None:
            raise RuntimeError("ffmpeg not found: pip install imageio-ffmpeg or put ffmpeg on PATH") from None
        return found


def generate(
    media_root: Path,
    *,
    ffmpeg: str | None = None,
    log: Log = print,
    titles: Sequence[DemoTitle] = TITLES,
    url_prefix: str = "/media",
) -> bool:
    """Brings the demo media under ``media_root`` up to date; True if anything was (re)generated."""
    seconds = max(title.duration for title in titles)
    base_inputs = {
        "version": GENERATOR_VERSION,
        "seconds": seconds,
        "source_seconds": SOURCE_SECONDS,
        "segment_seconds": SEGMENT_SECONDS,
        "fps": FPS,
        "sample_rate": SAMPLE_RATE,
        "video": [asdict(rendition) for rendition in VIDEO],
        "audio": [asdict(rendition) for rendition in AUDIO],
    }
    inputs = {"base": base_inputs, "titles": [asdict(title) for title in titles], "url_prefix": url_prefix,
              "titles_layout": TITLES_LAYOUT}
    stamp_text = json.dumps(inputs, ensure_ascii=False, indent=1)
    stamp = json.loads(stamp_text)  # as read back: tuples become lists
    stamp_path = media_root / ".stamp"
    old_stamp = json.loads(stamp_path.read_text("utf-8")) if stamp_path.is_file() else None
    trees = [media_root / name for name in ("base", "titles", "posters")]
    if old_stamp == stamp and all(tree.is_dir() for tree in trees):
        return False

    media_root.mkdir(parents=True, exist_ok=True)
    stamp_path.unlink(missing_ok=True)  # from here on the tree is in flux until the new stamp is written
    ffmpeg = ffmpeg or find_ffmpeg()
    steps: list[tuple[str, Callable[[Log], None]]] = []
    if old_stamp is None or old_stamp["base"] != stamp["base"] or not trees[0].is_dir():
        steps += _base_steps(ffmpeg, media_root, seconds)
    titles_step = f"writing {len(titles)} titles and posters"
    steps.append((titles_step, lambda _: _write_titles(ffmpeg, media_root, titles, url_prefix)))
    for number, (label, action) in enumerate(steps, 1):
        prefix = f"[media {number}/{len(steps)}]"
        log(f"{prefix} {label}…")
        action(_prefixed(log, f"{prefix}  "))
    write_atomic(stamp_path, stamp_text)
    return True


def _base_steps(ffmpeg: str, media_root: Path, seconds: int) -> list[tuple[str, Callable[[Log], None]]]:
    """Encodes the looped source once per rendition, segments it into ``.base.tmp`` and swaps that for ``base``."""
    base = _fresh_dir(media_root / ".base.tmp")
    source = _fresh_dir(base / "source")
    lavfi_video = f"testsrc2=size={VIDEO[-1].width}x{VIDEO[-1].height}:rate={FPS}:duration={SOURCE_SECONDS}"
    splits = "".join(f"[s{i}]" for i in range(len(VIDEO)))
    scales = ";".join(f"[s{i}]scale={v.width}:{v.height}[v{i}]" for i, v in enumerate(VIDEO))
    video_args = ["-f", "lavfi", "-i", lavfi_video, "-filter_complex", f"[0:v]split={len(VIDEO)}{splits};{scales}"]
    for i, v in enumerate(VIDEO):
        video_args += [
            "-map", f"[v{i}]", "-c:v", "libx264", "-preset", "veryfast", "-profile:v", "main", "-level:v", "3.0",
            "-pix_fmt", "yuv420p", "-bf", "0", "-b:v", str(v.bitrate), "-maxrate", str(v.bitrate * 6 // 5),
            "-bufsize", str(v.bitrate * 2), "-g", str(FPS * SEGMENT_SECONDS), "-keyint_min", str(FPS * SEGMENT_SECONDS),
            "-sc_threshold", "0", str(source / f"video-{v.name}.mp4"),
        ]  # no B-frames: no composition offset, so looped copies start at pts 0 like the audio
    audio_args: list[str] = []
    for a in AUDIO:
        audio_args += ["-f", "lavfi", "-i", f"sine=frequency={a.frequency}:sample_rate={SAMPLE_RATE}"]
    for i, a in enumerate(AUDIO):
        # The encoder adds one packet for its delay; without an edit list the loop is then exactly SOURCE_SECONDS.
        frames = SOURCE_SECONDS * SAMPLE_RATE // a.frame_samples - 1
        audio_args += ["-map", f"{i}:a", "-c:a", a.encoder, "-b:a", str(a.bitrate), "-ac", "2", "-ar", str(SAMPLE_RATE),
                       "-frames:a", str(frames), "-use_editlist", "0", str(source / f"audio-{a.name}.mp4")]

    def segment(kind: str, name: str) -> Callable[[Log], None]:
        out = base / kind / name
        args = ["-stream_loop", str(math.ceil(seconds / SOURCE_SECONDS) - 1), "-i", str(source / f"{kind}-{name}.mp4"),
                "-t", str(seconds), "-c", "copy", "-f", "hls", "-hls_time", str(SEGMENT_SECONDS),
                "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4",
                "-hls_segment_filename", str(out / "seg_%05d.m4s"), str(out / "index.m3u8")]

        def run(log: Log) -> None:
            out.mkdir(parents=True)
            run_ffmpeg(ffmpeg, args, seconds, log)

        return run

    def publish(_: Log) -> None:
        shutil.rmtree(source)
        _replace_dir(base, media_root / "base")

    return [
        (f"encoding {SOURCE_SECONDS} s source ({len(VIDEO)} video renditions)",
         lambda log: run_ffmpeg(ffmpeg, video_args, SOURCE_SECONDS, log)),
        (f"encoding {SOURCE_SECONDS} s source ({len(AUDIO)} audio renditions)",
         lambda log: run_ffmpeg(ffmpeg, audio_args, SOURCE_SECONDS, log)),
        *((f"segmenting {seconds} s of video {v.name}", segment("video", v.name)) for v in VIDEO),
        *((f"segmenting {seconds} s of audio {a.name}", segment("audio", a.name)) for a in AUDIO),
        ("publishing base", publish),
    ]


def _write_titles(ffmpeg: str, media_root: Path, titles: Sequence[DemoTitle], url_prefix: str) -> None:
    tmp = _fresh_dir(media_root / ".titles.tmp")
    base = media_root / "base"
    init = (base / "video" / VIDEO[0].name / "init.mp4").read_bytes()
    avcc = init.index(b"avcC") + 5  # after the box type and configurationVersion: profile, compatibility, level
    codecs = f"avc1.{init[avcc:avcc + 3].hex()},{AAC_CODEC}"
    for index, title in enumerate(titles):
        out = tmp / "titles" / title.slug
        (out / "subs").mkdir(parents=True)
        count = title.duration // SEGMENT_SECONDS
        variants = []
        for v in VIDEO:
            sizes, durations = _media_playlist(base, "video", v.name, count, out)
            peak = max(size * 8 / duration for size, duration in zip(sizes, durations, strict=True))
            average = sum(sizes) * 8 / sum(durations)
            variants.append(f"#EXT-X-STREAM-INF:BANDWIDTH={math.ceil(peak) + AUDIO_BANDWIDTH},"
                            f"AVERAGE-BANDWIDTH={math.ceil(average) + AUDIO_BANDWIDTH},RESOLUTION={v.width}x{v.height},"
                            f'FRAME-RATE={FPS:.3f},CODECS="{codecs}",AUDIO="aud"\nvideo-{v.name}.m3u8')
        for a in AUDIO:
            _media_playlist(base, "audio", a.name, count, out)
        defaults = [a for a in AUDIO if a.autoselect]
        sources = []
        for number, voice in enumerate(title.voices):
            name = "master.m3u8" if number == 0 else f"master-{number + 1}.m3u8"
            media = [f'#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="{a.label}",LANGUAGE="{a.language}",'
                     f'DEFAULT={_yes(a == defaults[number % len(defaults)])},AUTOSELECT={_yes(a.autoselect)},'
                     f'CHANNELS="2",URI="audio-{a.name}.m3u8"' for a in AUDIO]
            lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS", *media, *variants]
            (out / name).write_text("\n".join(lines) + "\n", "utf-8")
            link = f"{url_prefix}/titles/{title.slug}/{name}"
            sources.append({"label": voice, "link": link, "isDefault": number == 0})
        subtitles = []
        for language, label, text in SUBTITLES:
            cues = [f"{n}\n{_vtt_time((n - 1) * SEGMENT_SECONDS)} --> {_vtt_time(n * SEGMENT_SECONDS)}\n{text} {n}\n"
                    for n in range(1, count + 1)]
            (out / "subs" / f"{language}.vtt").write_text("WEBVTT\n\n" + "\n".join(cues), "utf-8")
            subtitles.append({"label": label, "language": language,
                              "src": f"{url_prefix}/titles/{title.slug}/subs/{language}.vtt"})
        master = {"sources": sources, "subtitles": subtitles}
        (out / "master.json").write_text(json.dumps(master, ensure_ascii=False, indent=1), "utf-8")
        poster = tmp / "posters" / f"{title.slug}.jpg"
        poster.parent.mkdir(exist_ok=True)
        hue = 360 * index // len(titles)
        run_ffmpeg(ffmpeg, ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=1", "-vf", f"hue=h={hue}",
                         "-frames:v", "1", "-q:v", "4", str(poster)])
    for name in ("titles", "posters"):
        _replace_dir(tmp / name, media_root / name)
    tmp.rmdir()


def _media_playlist(base: Path, kind: str, name: str, count: int, out: Path) -> tuple[list[int], list[float]]:
    """Writes ``<kind>-<name>.m3u8`` of the first ``count`` base segments, linked into ``<kind>-<name>/`` beside it;
    returns their sizes and durations."""
    source = base / kind / name
    uri = f"{kind}-{name}"
    lines = source.joinpath("index.m3u8").read_text("utf-8").splitlines()
    segments = [(extinf, file) for extinf, file in pairwise(lines) if extinf.startswith("#EXTINF:")]
    if len(segments) < count:
        raise RuntimeError(f"{source} has {len(segments)} segments, a title needs {count}")
    (out / uri).mkdir()
    for file in ["init.mp4", *(file for _, file in segments[:count])]:
        _link(source / file, out / uri / file)
    head = ["#EXTM3U", "#EXT-X-VERSION:7", f"#EXT-X-TARGETDURATION:{SEGMENT_SECONDS}", "#EXT-X-PLAYLIST-TYPE:VOD",
            "#EXT-X-INDEPENDENT-SEGMENTS", f'#EXT-X-MAP:URI="{uri}/init.mp4"']
    body = [f"{extinf}\n{uri}/{file}" for extinf, file in segments[:count]]
    (out / f"{kind}-{name}.m3u8").write_text("\n".join([*head, *body, "#EXT-X-ENDLIST"]) + "\n", "utf-8")
    sizes = [(source / file).stat().st_size for _, file in segments[:count]]
    return sizes, [float(extinf[len("#EXTINF:"):].rstrip(",")) for extinf, _ in segments[:count]]


def run_ffmpeg(ffmpeg: str, args: list[str], seconds: float | None = None, log: Log | None = None) -> None:
    """Runs ffmpeg; with ``seconds`` and ``log``, logs its progress every 10 %. Raises RuntimeError on failure."""
    command = [ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-progress", "pipe:1", *args]
    with tempfile.TemporaryFile() as stderr:
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True) as process:
            reported = 0
            for line in process.stdout or ():
                key, _, value = line.strip().partition("=")
                if seconds and log and key == "out_time_us" and value.isdigit():
                    percent = min(100, int(value) // 10_000 // seconds)  # out_time_us / 1e6 / seconds * 100
                    if percent >= reported + 10:
                        reported = int(percent) // 10 * 10
                        log(f"{reported} %")
        if process.returncode != 0:
            stderr.seek(0)
            tail = stderr.read().decode(errors="replace").strip().splitlines()[-10:]
            raise RuntimeError(f"ffmpeg failed ({process.returncode}): {' '.join(args)}\n" + "\n".join(tail))


def _link(source: Path, target: Path) -> None:
    """A hard link to ``source``: the same bytes under the title's own name. A copy where links are not possible."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _fresh_dir(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)  # left over by an interrupted run
    path.mkdir()
    return path


def _replace_dir(new: Path, target: Path) -> None:
    old = target.with_name(f".{target.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    new.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f"{path.name}.tmp")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


def _prefixed(log: Log, prefix: str) -> Log:
    return lambda message: log(f"{prefix} {message}")


def _yes(flag: bool) -> str:
    return "YES" if flag else "NO"


def _vtt_time(seconds: int) -> str:
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.000"
