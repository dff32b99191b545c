"""The viewer-facing strings the server shows, quoted exactly from the spec (§2, §8): the shell, its error screens,
the API's not-found message. They live in ``texts.json``, which the player's Russian dictionary
(static_src/i18n/ru.ts) imports too, so that the shell and the interface mounted over it say the same words."""

from __future__ import annotations

import json
from pathlib import Path

_TEXTS: dict[str, str] = json.loads(Path(__file__).with_name("texts.json").read_text(encoding="utf-8"))

PLAYER = _TEXTS["player"]  # the player's accessible name
START_PLAYBACK = _TEXTS["start"]
SEASON_EPISODE = _TEXTS["seasonEpisode"]  # .format(season=…, episode=…, title=…)
MISSING_MOVIE_ID = _TEXTS["missingMovieId"]
CONTENT_NOT_AVAILABLE = _TEXTS["notAvailable"]
BLOCKED_IN_COUNTRY = _TEXTS["blocked"]
GENERIC_ERROR = _TEXTS["genericError"]
ERROR_ID_LABEL = _TEXTS["errorIdLabel"]
RELOAD_PAGE = _TEXTS["reload"]
NO_SCRIPT = _TEXTS["noScript"]
