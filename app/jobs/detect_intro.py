"""«Найти заставку» (issue 35, docs/video-player-markers.md): the job that looks for an intro repeated across a
season's episodes (app/services/media/intro.py: Chromaprint fingerprints of each episode's first minutes, compared
pairwise) and keeps what it finds as each episode's **suggestion** (``intro_suggested_start``/``_end``), which an
editor confirms in the admin; the markers the player uses (``intro_start``/``_end``) are never written here.

Params ``{"season_id": N}``, subject ``"season:N"``: one detection per season at a time. It reads the episodes' media
from the media root (their master JSON → the default source's HLS playlist) and writes only the suggestions, in one
transaction at the end: a run cut anywhere and run again gives the same answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.jobs.context import JobContext, JobFailed, Outcome
from app.models import Episode, Season
from app.services.media.intro import NoAudio, audio_source, fingerprint, suggest

KIND = "detect_intro"
LABEL = "Поиск заставки"


def subject_of(season_id: int) -> str:
    return f"season:{season_id}"


def run(context: JobContext) -> Outcome:
    season_id = int(context.params["season_id"])
    config = context.config
    root, url_path = Path(config["MEDIA_ROOT"]), str(config["MEDIA_URL_PATH"])

    def episodes_of(session: Session) -> list[tuple[int, str, str | None]] | None:
        if session.get(Season, season_id) is None:
            return None
        rows = session.execute(select(Episode.id, Episode.title, Episode.master_file_path)
                               .where(Episode.season_id == season_id).order_by(Episode.order))
        return [(row.id, row.title, row.master_file_path) for row in rows]

    episodes = context.short(episodes_of)
    if episodes is None:
        raise JobFailed("Сезон не найден: его удалили.")
    sources = [(episode_id, title, audio_source(path, url_path, root) if path else None)
               for episode_id, title, path in episodes]
    usable = [(episode_id, title, source) for episode_id, title, source in sources if source is not None]
    if len(usable) < 2:
        raise JobFailed("Заставку ищут по повтору между сериями: нужно хотя бы две серии сезона с видео на этом "
                        "сервере.")
    total = len(usable) + 1
    context.progress(0, total)
    prints: list[list[int]] = []
    skipped: list[str] = []
    kept: list[int] = []
    for done, (episode_id, title, source) in enumerate(usable, start=1):
        try:
            prints.append(fingerprint(source))
            kept.append(episode_id)
        except NoAudio as problem:
            skipped.append(f"«{title}»: {problem.message}")
        context.progress(done, total)
    if len(prints) < 2:
        raise JobFailed("Звук прочитан меньше чем у двух серий: " + "; ".join(skipped))
    found = suggest(prints)

    def write(session: Session) -> None:
        for episode_id, span in zip(kept, found, strict=True):
            episode = session.get(Episode, episode_id)
            if episode is not None:
                episode.intro_suggested_start = span.start if span else None
                episode.intro_suggested_end = span.end if span else None

    context.short(write)
    context.progress(total, total)
    result: dict[str, Any] = {"season_id": season_id, "episodes": [
        {"id": episode_id, "start": span.start if span else None, "end": span.end if span else None}
        for episode_id, span in zip(kept, found, strict=True)], "skipped": skipped}
    hits = sum(1 for span in found if span)
    message = (f"Заставка найдена в {hits} из {len(kept)} серий: проверьте и подтвердите в форме серии."
               if hits else "Повторяющейся заставки не найдено.")
    if skipped:
        message += f" Пропущено серий: {len(skipped)}."
    return Outcome(message, result)
