"""Every kind of job the queue runs: its function (``run(context) -> Outcome``, app/jobs/context.py) and its name in
the admin. A job's row names its kind; a worker that does not know it fails the job, saying so."""

from __future__ import annotations

from collections.abc import Callable

from app.jobs import catalogue_import, detect_intro, probe, sitemaps, transcode, transcode_ad
from app.jobs.context import JobContext, Outcome

Kind = Callable[[JobContext], Outcome]

KINDS: dict[str, Kind] = {
    "probe": probe.run,
    catalogue_import.KIND: catalogue_import.run,
    transcode.KIND: transcode.run,
    detect_intro.KIND: detect_intro.run,
    transcode_ad.KIND: transcode_ad.run,
    sitemaps.KIND: sitemaps.run,
}
LABELS: dict[str, str] = {
    "probe": "Проверка очереди",
    catalogue_import.KIND: "Импорт каталога",
    transcode.KIND: transcode.LABEL,
    detect_intro.KIND: detect_intro.LABEL,
    transcode_ad.KIND: transcode_ad.LABEL,
    sitemaps.KIND: sitemaps.LABEL,
}
