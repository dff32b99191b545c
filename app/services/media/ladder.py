"""What the transcoding job makes of a source (issue 35, docs/video-transcoding.md): the HLS ladder chosen from the
source's height, and the names and languages its audio and subtitle renditions are shown under. Pure: no ffmpeg here.

The ladder is a table of rungs, ``"height:kbit/s"`` (TRANSCODE_LADDER): each rung's peak (maxrate) is 1.07 times its
bitrate and its VBV buffer (bufsize) 1.5 times, the usual constrained-VBR settings for HLS. A source gets the rungs no
taller than it; a source shorter than the lowest rung gets one rendition at its own height, at that rung's bitrate
scaled by the pixels."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from babel import Locale
from babel.core import get_global

from app import config

MAXRATE, BUFSIZE = 1.07, 1.5  # times the bitrate


@dataclass(frozen=True)
class Rung:
    height: int
    kbps: int  # the target bitrate, kbit/s

    @property
    def maxrate(self) -> int:
        return round(self.kbps * MAXRATE)

    @property
    def bufsize(self) -> int:
        return round(self.kbps * BUFSIZE)

    @property
    def name(self) -> str:
        return f"{self.height}p"


def parse_ladder(text: str) -> tuple[Rung, ...]:
    """``"360:800,720:2800"`` as rungs, lowest first; ValueError naming what is wrong (app/config.py's rule)."""
    return tuple(Rung(height, kbps) for height, kbps in config.parse_ladder(text))


def choose(rungs: Sequence[Rung], source_height: int) -> tuple[Rung, ...]:
    """The rungs for a source ``source_height`` lines high: none taller than it (no upscaling)."""
    fitting = tuple(rung for rung in rungs if rung.height <= source_height)
    if fitting:
        return fitting
    lowest = rungs[0]
    height = source_height - source_height % 2  # x264 wants even sides
    return (Rung(height, max(50, round(lowest.kbps * (height / lowest.height) ** 2))),)


def even_width(width: int, height: int, target_height: int) -> int:
    """The width of a rendition ``target_height`` high that keeps the source's shape (even, as ffmpeg's -2 makes it)."""
    return max(2, round(width * target_height / height / 2) * 2)


_RUSSIAN = Locale("ru")


def short_language(code: str | None) -> str | None:
    """ISO 639-2 as files tag it ("rus", "ger") as the two-letter code HLS and WebVTT name ("ru", "de"); a code
    with no two-letter form as it is; None for none."""
    if not code:
        return None
    code = code.strip().lower()
    aliases = get_global("language_aliases")
    short = aliases.get(code, code)
    return str(short).split("_")[0] if short else None


def language_name(code: str | None) -> str | None:
    """The language's name in Russian, capitalised ("Русский", "Английский"); None when unknown."""
    short = short_language(code)
    name = _RUSSIAN.languages.get(short) if short else None
    return name[:1].upper() + name[1:] if name else None


def track_label(title: str | None, language: str | None, number: int, kind: str) -> str:
    """A rendition's name in the menus: the file's title for the stream, else its language's name, else
    «Дорожка N» (``kind``: «Дорожка», «Субтитры»)."""
    return (title or "").strip() or language_name(language) or f"{kind} {number}"


def unique(labels: Sequence[str]) -> list[str]:
    """Labels made distinct («Русский», «Русский 2»): the player chooses a saved track by its label."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} {seen[label]}")
    return out
