"""An intro that repeats across a season's episodes, found in their audio (issue 35), as Jellyfin's intro-skipper does:
each episode's first minutes become a Chromaprint fingerprint (32-bit points, one every ~0.124 s; Debian's ffmpeg has
the ``chromaprint`` muxer); every pair of episodes is compared: the shifts at which points are equal (an inverted
index) are the candidates, and at each the longest run of near-equal points (Hamming distance, smoothed over a second)
is the shared part; its ends become seconds. An episode's suggestion is the median of what its pairs found.

What it finds is a suggestion: the job writes it beside the editor's markers (app/jobs/detect_intro.py) and an editor
confirms it in the admin. docs/video-player-markers.md has the numbers and why."""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from urllib.parse import urlsplit

# Chromaprint's (its default algorithm, TEST2): audio at 11025 Hz, 4096-sample frames, a point every third of a frame;
# a point is made from 5 frames of filtered chroma and up to 16 rows of classifier context: its audio spans WINDOW s.
SAMPLE_RATE = 11025
STEP = 4096 / 3 / SAMPLE_RATE  # seconds between points, ~0.1238
WINDOW = 19 * STEP + 4096 / SAMPLE_RATE  # ~2.72 s
# A point matches once most of its window lies in the intro: a run's first point starts ~0.3 WINDOW before the intro,
# its last ~0.55 WINDOW before its end (measured on tests/jobs/test_detect_intro.py's episodes: within 0.5 s).
LEAD, TAIL = 0.3 * WINDOW, 0.55 * WINDOW

ANALYSED_SECONDS = 600  # an intro is looked for in an episode's first ten minutes
MIN_INTRO_SECONDS = 15.0
MAX_INTRO_SECONDS = 150.0
SMOOTHING = 8  # points (~1 s) the distance is averaged over
MAX_MEAN_BITS = 6.0  # near-equal: at most 6 of 32 bits differ on average (two unrelated points differ in ~16)
EDGE_BITS = 5  # a run's ends are trimmed to points this close
CANDIDATE_SHIFTS = 10  # the shifts with the most equal points that are tried

FFMPEG_TIMEOUT = 600


class NoAudio(Exception):
    """The episode's media has no audio ffmpeg can read; ``message`` is for the editor."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Span:
    start: float  # seconds
    end: float

    @property
    def length(self) -> float:
        return self.end - self.start


def ffmpeg_binary() -> str:
    found = shutil.which("ffmpeg", path="/usr/bin") or shutil.which("ffmpeg")
    if not found:
        raise NoAudio("Не найден ffmpeg: установите пакет ffmpeg (bin/setup).")
    return found


def fingerprint(source: str | Path, seconds: float = ANALYSED_SECONDS) -> list[int]:
    """The Chromaprint points of the first ``seconds`` of ``source``'s first audio stream (anything ffmpeg reads: an
    HLS playlist on disk, a file)."""
    command = [ffmpeg_binary(), "-hide_banner", "-loglevel", "error", "-nostdin", "-threads", "2",
               "-i", str(source), "-t", str(seconds), "-map", "0:a:0", "-ac", "1",
               "-f", "chromaprint", "-fp_format", "raw", "-"]
    done = subprocess.run(command, capture_output=True, timeout=FFMPEG_TIMEOUT, check=False)  # noqa: S603 (no shell)
    if done.returncode != 0 or len(done.stdout) < 4:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["нет звука"]
        raise NoAudio(f"Не удалось прочитать звук: {reason[0][:200]}")
    raw = done.stdout[: len(done.stdout) // 4 * 4]
    return [int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4)]


def _distances(a: Sequence[int], b: Sequence[int], shift: int) -> tuple[int, list[int]]:
    """Where ``a[i]`` meets ``b[i + shift]``: the first ``i`` and the bits that differ at each."""
    low, high = max(0, -shift), min(len(a), len(b) - shift)
    return low, [(a[i] ^ b[i + shift]).bit_count() for i in range(low, high)]


def _longest_run(distances: list[int]) -> tuple[int, int]:
    """The longest stretch [start, end) whose points lie in a window averaging at most MAX_MEAN_BITS, its ends trimmed
    to points within EDGE_BITS; (0, 0) when there is none."""
    near = [False] * len(distances)
    total = sum(distances[:SMOOTHING])
    for first in range(len(distances) - SMOOTHING + 1):
        if first:
            total += distances[first + SMOOTHING - 1] - distances[first - 1]
        if total <= MAX_MEAN_BITS * SMOOTHING:
            near[first:first + SMOOTHING] = [True] * SMOOTHING
    best, start = (0, 0), None
    for index, flag in enumerate([*near, False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            if index - start > best[1] - best[0]:
                best = (start, index)
            start = None
    start, end = best
    while start < end and distances[start] > EDGE_BITS:
        start += 1
    while end > start and distances[end - 1] > EDGE_BITS:
        end -= 1
    return start, end


def compare(a: Sequence[int], b: Sequence[int]) -> tuple[Span, Span] | None:
    """The audio ``a`` and ``b`` share longest (their own seconds each), when it is an intro's length."""
    where: dict[int, list[int]] = {}
    for index, point in enumerate(b):
        where.setdefault(point, []).append(index)
    shifts: Counter[int] = Counter()
    for index, point in enumerate(a):
        for other in where.get(point, ()):
            shifts[other - index] += 1
    best: tuple[int, int, int] | None = None  # (length, first point in a, shift)
    for shift, _count in shifts.most_common(CANDIDATE_SHIFTS):
        low, distances = _distances(a, b, shift)
        start, end = _longest_run(distances)
        if best is None or end - start > best[0]:
            best = (end - start, low + start, shift)
    if best is None or best[0] == 0:
        return None
    length, first, shift = best
    last = first + length - 1

    def span(offset: int) -> Span:
        return Span(round((first + offset) * STEP + LEAD, 2), round((last + offset) * STEP + TAIL, 2))

    found = span(0), span(shift)
    if not MIN_INTRO_SECONDS <= found[0].length <= MAX_INTRO_SECONDS:
        return None
    return found


def suggest(fingerprints: Sequence[Sequence[int]]) -> list[Span | None]:
    """Each episode's intro: the median start and end of what its pairs with the others found (None: no pair shared
    an intro's length of audio)."""
    found: list[list[Span]] = [[] for _ in fingerprints]
    for x, y in combinations(range(len(fingerprints)), 2):
        shared = compare(fingerprints[x], fingerprints[y])
        if shared:
            found[x].append(shared[0])
            found[y].append(shared[1])
    return [Span(round(statistics.median(s.start for s in spans), 2), round(statistics.median(s.end for s in spans), 2))
            if spans else None for spans in found]


def audio_source(master_path: str, media_url_path: str, media_root: Path) -> Path | None:
    """The file on disk of the default source of an episode's master JSON (spec §3) under the media root, or None for
    media that is not ours (an outside address): ``master_path`` is the episode's ``master_file_path``."""
    master = _local(master_path, media_url_path, media_root)
    if master is None or not master.is_file():
        return None
    if master.suffix != ".json":
        return master  # an HLS playlist itself
    try:
        document = json.loads(master.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    sources = [s for s in document.get("sources", []) if isinstance(s, dict) and isinstance(s.get("link"), str)] \
        if isinstance(document, dict) else []
    chosen = next((s for s in sources if s.get("isDefault")), sources[0] if sources else None)
    if chosen is None:
        return None
    link: str = chosen["link"]
    if urlsplit(link).scheme or link.startswith("/"):
        found = _local(link, media_url_path, media_root)
    else:
        found = _inside(media_root, master.parent / link)  # relative to the master file (issue 35's contract 2)
    return found if found is not None and found.is_file() else None


def _local(address: str, media_url_path: str, media_root: Path) -> Path | None:
    if urlsplit(address).scheme:
        return None  # an outside address: not on this disk
    path, base = address.split("?")[0], media_url_path.rstrip("/") + "/"
    if not path.startswith(base):
        return None
    return _inside(media_root, media_root / path[len(base):])


def _inside(root: Path, path: Path) -> Path | None:
    resolved, top = path.resolve(), root.resolve()
    return resolved if resolved.is_relative_to(top) else None
