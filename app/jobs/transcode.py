"""The job kind ``transcode`` (issue 35, docs/video-transcoding.md): an uploaded source video made into an episode's
HLS ladder, audio renditions, WebVTT subtitles and storyboard (app/services/media/transcode.py), stored by content
hash (app/services/media/storage.py), and the episode switched onto it in one short transaction, its old renditions
removed when nothing names them any more.

Params: ``{"episode_id": <int>, "file": "<absolute path of the source under JOB_FILES_DIR>"}``; subject
``"episode:<id>"``. Idempotent: a run killed anywhere leaves the episode on its old media, and the next run reuses a
finished folder of the same source and options (a half-encoded one is encoded again)."""

from __future__ import annotations

import contextlib
import logging
import shutil
import time
from pathlib import Path

from app.extensions import db
from app.jobs.context import JobContext, JobFailed, Outcome
from app.models import Episode
from app.services.media import storage
from app.services.media.probe import Unusable, probe
from app.services.media.transcode import Options, Plan, encode, finish, plan

log = logging.getLogger(__name__)
KIND = "transcode"
LABEL = "Перекодирование видео"
SCALE = 1000  # progress: hashing to 50, encoding to 950, publishing to 1000
HASHED, ENCODED = 50, 950


def subject(episode_id: int) -> str:
    return f"episode:{episode_id}"


def run(context: JobContext) -> Outcome:
    config = context.config
    episode_id = int(context.params["episode_id"])
    path = Path(str(context.params["file"]))
    if not path.is_file():
        raise JobFailed("Исходный файл не найден на сервере: загрузите его снова.")
    options = Options.from_config(config)
    media_root, url_path = Path(config["MEDIA_ROOT"]), str(config["MEDIA_URL_PATH"])
    episode = db.session.get(Episode, episode_id)
    if episode is None:
        raise JobFailed(f"Серии № {episode_id} больше нет: перекодировать не для чего.")
    content_id = episode.content_id
    db.session.remove()  # no transaction held open through the encoding

    context.progress(0, SCALE, message="Проверяю исходный файл…")
    try:
        source = probe(path)
    except Unusable as refusal:
        raise JobFailed(refusal.message) from None
    made = plan(source, options)
    source_digest = storage.digest(path, lambda done, total: context.progress(HASHED * done // max(total, 1), SCALE))
    place = storage.place_for(media_root, str(config["SIGNED_MEDIA_PREFIXES"]), url_path, content_id, source_digest,
                              options.fingerprint())
    _check_folder(place, content_id, url_path)

    seconds = None
    if not (place.final / "master.json").is_file():
        seconds = _make(context, made, options, place, source_digest)
    context.progress(ENCODED, SCALE, message="Публикую…")
    previous = _switch(episode_id, place, source.duration)
    removed = _remove_old(content_id, previous, place, media_root, url_path)
    context.progress(SCALE, SCALE)
    return _outcome(made, place, seconds, removed)


def _check_folder(place: storage.Place, content_id: int, url_path: str) -> None:
    from app.services.editorial.media_files import folder_owner

    owner = folder_owner(place.scope, url_path.rstrip("/") + "/", content_id)
    db.session.remove()
    if owner is not None:
        raise JobFailed(f"Папка {place.scope} уже принадлежит «{owner.title}» (№ {owner.id}): у каждого фильма или "
                        "сериала своя папка.")


def _make(context: JobContext, made: Plan, options: Options, place: storage.Place, source_digest: str) -> float:
    """Encodes into a part of this run's own (an earlier attempt's part of this job goes first: its ffmpeg died
    with its worker) and publishes it; the seconds the encoding took."""
    place.work.mkdir(parents=True, exist_ok=True)
    for earlier in place.work.glob(f"job{context.job_id}-*"):
        shutil.rmtree(earlier, ignore_errors=True)
    part = place.work / f"job{context.job_id}-{context.token[:12]}"
    part.mkdir()
    duration = made.source.duration
    qualities = ", ".join(video.rung.name for video in reversed(made.videos))
    context.progress(HASHED, SCALE, message=f"Кодирую: {qualities}; звуковых дорожек: {len(made.audio)}…")
    try:
        seconds = encode(made, options, part,
                         lambda done: context.progress(HASHED + int((ENCODED - HASHED) * done / duration), SCALE))
        finish(made, part, place.link)
    except BaseException:  # a cancel, a lost job, ffmpeg's failure: this run's part is no use to the next
        shutil.rmtree(part, ignore_errors=True)
        with contextlib.suppress(OSError):
            place.work.rmdir()
        raise
    storage.publish(part, place, {"source_sha256": source_digest, "options": options.fingerprint(),
                                  "job": context.job_id, "made_at": time.time()})
    return seconds


def _switch(episode_id: int, place: storage.Place, duration: float) -> str | None:
    from app.caching import invalidate_catalogue
    from app.transaction import transaction

    try:
        with transaction():
            previous = storage.switch(db.session, episode_id, place, duration)
    except storage.Gone:
        raise JobFailed(f"Серию № {episode_id} удалили, пока видео перекодировалось.") from None
    finally:
        db.session.remove()
    invalidate_catalogue()
    return previous


def _remove_old(content_id: int, previous: str | None, place: storage.Place, media_root: Path,
                url_path: str) -> str | None:
    """The folder the episode played before, removed when nothing names it now; its address when it went."""
    from app.transaction import transaction

    if previous is None or previous == place.master_link:
        return None
    try:
        with transaction():
            doomed = storage.set_aside_unused(db.session, content_id, previous, media_root, url_path)
    finally:
        db.session.remove()
    if doomed is None:
        return None
    shutil.rmtree(doomed, ignore_errors=True)
    log.info("transcode: removed %s, which no episode plays any more", previous)
    return previous


def _outcome(made: Plan, place: storage.Place, seconds: float | None, removed: str | None) -> Outcome:
    duration = made.source.duration
    qualities = [video.rung.name for video in reversed(made.videos)]
    audio = [audio.label for audio in made.audio]
    subtitles = [subtitle.label for subtitle in made.subtitles]
    parts = [f"качества {', '.join(qualities)}",
             f"звук: {', '.join(audio)}" if audio else "без звука",
             f"субтитры: {', '.join(subtitles)}" if subtitles else "без субтитров"]
    if made.pictures_skipped:
        parts.append(f"графические субтитры пропущены ({made.pictures_skipped}): в WebVTT их не перевести")
    parts.append(f"длительность {clock(duration)}")
    speed = round(duration / seconds, 2) if seconds else None
    parts.append(f"скорость {speed:.1f}× реального времени".replace(".", ",") if speed is not None
                 else "перекодировать не пришлось: этот исходник уже был обработан")
    if removed:
        parts.append("прежние файлы удалены")
    return Outcome("Готово: " + "; ".join(parts) + ".", {
        "master": place.master_link, "renditions": qualities, "audio": audio, "subtitles": subtitles,
        "pictures_skipped": made.pictures_skipped, "duration": round(duration, 3), "encode_seconds": seconds,
        "speed": speed, "removed": removed})


def clock(seconds: float) -> str:
    whole = round(seconds)
    hours, minutes, rest = whole // 3600, whole // 60 % 60, whole % 60
    return f"{hours}:{minutes:02d}:{rest:02d}" if hours else f"{minutes}:{rest:02d}"
