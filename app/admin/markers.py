"""Intro and credits markers in the admin (issue 35, docs/video-player-markers.md), mixed into the contents' view:

* ``markers/?id=N&episode=M``: an episode's page «Заставка и титры»: its preview in the real player (the signed preview
  of app/admin/publishing.py, in a frame of this origin), the buttons «Начало заставки», «Конец заставки», «Начало
  титров» that fill the fields from the frame's current time (app/admin/static/markers.js), the three fields, and the
  intro the season's detection suggested with «Принять найденное» (never applied without an editor);
* ``detect-intro/?season=N``: «Найти заставку» for a season: what it will read, then the job (app/jobs/detect_intro.py),
  one per season at a time, whose page follows it.

The same fields are in the episode's row of the title's form («Ещё»), checked by the same rule
(app/services/editorial/markers.py)."""

from __future__ import annotations

import logging
from typing import Any

from flask import abort, current_app, flash, redirect, request, url_for
from flask_admin import expose

from app.admin.access import signed_in
from app.admin.base import fits_integer_key
from app.admin.forms import EditorForm
from app.admin.numbers import DecimalNumberField
from app.admin.publishing import preview_url
from app.clock import now
from app.extensions import db
from app.jobs import detect_intro
from app.jobs.queue import send_after_commit
from app.models import Content, Episode, Season
from app.services import jobs
from app.services.editorial.markers import accept_suggestion, marker_problem
from app.services.errors import DomainError

log = logging.getLogger(__name__)


class SecondsField(DecimalNumberField):
    """A marker in seconds, typed as the admin's every number is (app/admin/numbers.py: a comma or a point, read on
    the server), to a hundredth (the detection's precision), kept as the column's float; not below zero."""

    data: float | None  # type: ignore[assignment]  # DecimalField's Decimal, handed on as the float it stands for

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("places", 2)
        super().__init__(*args, **kwargs)

    def process_formdata(self, valuelist: list[Any]) -> None:
        super().process_formdata(valuelist)
        if self.data is not None:
            if self.data < 0:
                self.data = None
                raise ValueError("Не меньше нуля.")
            self.data = float(self.data)


class MarkersForm(EditorForm):
    intro_start = SecondsField("Начало заставки, с")
    intro_end = SecondsField("Конец заставки, с")
    credits_start = SecondsField("Начало титров, с")


class DetectForm(EditorForm):
    """Only its CSRF token: the season is named by the address."""


def clock_time(seconds: float | None) -> str:
    """«1:02.5», «1:02:03»: a marker as the player's clock shows it."""
    if seconds is None:
        return "—"
    whole, tenth = divmod(round(seconds * 10), 10)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    return f"{text}.{tenth}" if tenth else text


def markers_url(content_id: int, episode_id: int) -> str:
    return url_for("content.markers", id=content_id, episode=episode_id)


class MarkerViews:
    """Mixed into ContentView (app/admin/catalogue.py); its pages render with the view's own ``render``."""

    def _episode(self) -> tuple[Content, Episode]:
        row_id, episode_id = request.args.get("id", ""), request.args.get("episode", "")
        content = db.session.get(Content, int(row_id)) if fits_integer_key(row_id) else None
        episode = db.session.get(Episode, int(episode_id)) if fits_integer_key(episode_id) else None
        if content is None or episode is None or episode.content_id != content.id:
            abort(404)
        return content, episode

    @expose("/markers/", methods=("GET", "POST"))
    def markers(self) -> Any:
        content, episode = self._episode()
        form = MarkersForm(request.form if request.method == "POST" else None, obj=episode)
        if request.method == "POST" and form.validate():
            if request.form.get("accept"):
                if accept_suggestion(episode):
                    flash("Найденная заставка принята: плеер предложит её пропустить.", "success")
                return redirect(markers_url(content.id, episode.id))
            values = form.intro_start.data, form.intro_end.data, form.credits_start.data
            problem = marker_problem(*values, duration=episode.duration)
            if problem:
                flash(f"Не сохранено: {problem}", "error")
            else:
                episode.intro_start, episode.intro_end, episode.credits_start = values
                flash("Отметки серии сохранены.", "success")
                return redirect(markers_url(content.id, episode.id))
        elif request.method == "POST":
            flash("Не сохранено: проверьте поля.", "error")
        return self.render("admin/markers.html", content=content, episode=episode,  # type: ignore[attr-defined]
                           form=form, preview=preview_url(content.id, episode.id), clock_time=clock_time,
                           detect_url=url_for(".detect_intro", season=episode.season_id) if episode.season_id else None)

    @expose("/detect-intro/", methods=("GET", "POST"))
    def detect_intro(self) -> Any:
        season_id = request.args.get("season", "")
        season = db.session.get(Season, int(season_id)) if fits_integer_key(season_id) else None
        if season is None:
            abort(404)
        form = DetectForm(request.form if request.method == "POST" else None)
        if request.method == "POST":
            if not form.validate():
                flash("Форма устарела: попробуйте ещё раз.", "error")
                return redirect(url_for(".detect_intro", season=season.id))
            account = signed_in()
            try:
                job = jobs.create(db.session, detect_intro.KIND, {"season_id": season.id}, now=now(),
                                  account_id=account.id if account else None,
                                  subject=detect_intro.subject_of(season.id), message="Ждёт обработчика.")
            except DomainError as refusal:
                flash(f"Поиск не начат. {refusal.message}", "error")
                return redirect(url_for(".detect_intro", season=season.id))
            send_after_commit(current_app._get_current_object(), job.id)  # type: ignore[attr-defined]
            log.info("intro detection %s for season %s queued by account %s", job.id, season.id,
                     account.id if account else None)
            return redirect(url_for("jobs.job", job_id=job.id))
        episodes = sorted(season.episodes, key=lambda episode: episode.order)
        return self.render("admin/detect_intro.html", season=season, episodes=episodes,  # type: ignore[attr-defined]
                           form=form, clock_time=clock_time, markers_url=markers_url)
