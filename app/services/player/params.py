"""The player page's query parameters (spec §2, §5), parsed and validated by one pure function."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from app.models.ids import storable_id

_DIGITS = re.compile(r"[0-9]+")
_TIME_CODE = re.compile(r"[0-9.]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_LANG_CODE = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})?")
_TRUE = {"1", "true", "yes", "on"}
MAX_TEXT = 128  # user_id and voice_author are free text; longer values are cut, not refused


class MissingMovieId(ValueError):
    """movie_id is absent or empty: 'Пропущен movie_id в запросе'."""


class InvalidMovieId(ValueError):
    """movie_id is not a positive whole number: no content can match it."""


@dataclass(frozen=True)
class PlayerParams:
    movie_id: int
    episode_id: int | None = None
    season: int | None = None
    episode: int | None = None
    time_code: int | None = None  # t: where a shared link starts, whole seconds
    episode_time: int | None = None
    auto_play: bool = False
    enabled_share: bool = False
    disable_checking_available: bool = False
    user_id: str | None = None
    voice_author: str | None = None
    lang_order: tuple[str, ...] = ()
    request_headers: bool = False  # ours: /lib.js relays the publisher's ad-request headers; the player waits for them


def parse_id(raw: str | None) -> int | None:
    """A positive 32-bit integer written only with digits, or None."""
    if raw is None or not _DIGITS.fullmatch(raw.strip()):
        return None
    value = int(raw.strip())
    return value if storable_id(value) else None


def parse_time_code(raw: str | None) -> int | None:
    """Digits and dots only, read as whole seconds (``12.5`` → 12); anything else is ignored (spec §5)."""
    if raw is None or not _TIME_CODE.fullmatch(raw):
        return None
    whole = _DIGITS.match(raw)  # the leading digits, as JavaScript's parseInt reads them
    return int(whole.group()) if whole else None


def parse_flag(raw: str | None) -> bool:
    return raw is not None and raw.strip().lower() in _TRUE


def parse_text(raw: str | None) -> str | None:
    """Free text, cut to MAX_TEXT; a value with a control character is invalid, so ignored."""
    text = (raw or "").strip()[:MAX_TEXT]
    return text if text and not _CONTROL.search(text) else None


def parse_lang_order(raw: str | None) -> tuple[str, ...]:
    """``ru,en`` → ('ru', 'en'): lower-cased language codes, invalid ones and repeats dropped."""
    codes: list[str] = []
    for part in (raw or "").split(","):
        code = part.strip().lower()
        if _LANG_CODE.fullmatch(code) and code not in codes:
            codes.append(code)
    return tuple(codes)


def parse_player_params(query: Mapping[str, str]) -> PlayerParams:
    """Validate the query of ``GET /``. Raises MissingMovieId or InvalidMovieId; every other bad value is ignored."""
    raw_id = (query.get("movie_id") or "").strip()
    if not raw_id:
        raise MissingMovieId(raw_id)
    movie_id = parse_id(raw_id)
    if movie_id is None:
        raise InvalidMovieId(raw_id)
    season = parse_id(query.get("season"))
    return PlayerParams(
        movie_id=movie_id,
        episode_id=parse_id(query.get("episode_id")),
        season=season,
        # "episode defaults to 1" applies once a season is chosen (spec §2, §9)
        episode=parse_id(query.get("episode")) or (1 if season is not None else None),
        time_code=parse_time_code(query.get("t")),
        episode_time=parse_time_code(query.get("episode_time")),
        auto_play=parse_flag(query.get("auto_play")),
        enabled_share=parse_flag(query.get("enabled_share")),
        disable_checking_available=parse_flag(query.get("disable_checking_available")),
        user_id=parse_text(query.get("user_id")),
        voice_author=parse_text(query.get("voice_author")),
        lang_order=parse_lang_order(query.get("lang_order")),
        request_headers=parse_flag(query.get("request_headers")),
    )
