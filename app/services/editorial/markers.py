"""An episode's intro and credits markers (issue 35, docs/video-player-markers.md): the rule an editor's values meet,
in the episode's row and on its markers page (app/admin/markers.py), and the season's suggestions taken as markers."""

from __future__ import annotations

from app.models import Episode


def marker_problem(intro_start: float | None, intro_end: float | None, credits_start: float | None,
                   duration: float | None) -> str | None:
    """What is wrong with these markers, in the editor's words, or None: the intro is both ends or none, starts
    before it ends, and nothing is negative or past the episode's end; the credits start after the intro."""
    values = [value for value in (intro_start, intro_end, credits_start) if value is not None]
    if any(value < 0 for value in values):
        return "Отметки — секунды от начала серии, не меньше нуля."
    if duration and any(value > duration for value in values):
        return f"Отметка позже конца серии ({duration:g} с)."
    if (intro_start is None) != (intro_end is None):
        return "У заставки нужны и начало, и конец (или ни того, ни другого)."
    if intro_start is not None and intro_end is not None and intro_end <= intro_start:
        return "Конец заставки должен быть позже её начала."
    if credits_start is not None and intro_end is not None and credits_start <= intro_end:
        return "Титры должны начинаться после заставки."
    return None


def accept_suggestion(episode: Episode) -> bool:
    """The detected intro becomes the episode's markers (an editor confirmed it); False when there is none."""
    if episode.intro_suggested_start is None or episode.intro_suggested_end is None:
        return False
    episode.intro_start, episode.intro_end = episode.intro_suggested_start, episode.intro_suggested_end
    return True
