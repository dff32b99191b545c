"""Intro and credits markers (issue 35): the episode's page «Заставка и титры» in the admin (its preview frame and the
three buttons, the fields saved and refused by the rule, the detection's suggestion accepted only when asked), the
season's «Найти заставку» (a job per season at a time), the fields in the episode's row of the title's form, and the
markers reaching the API's episodes and the player page's context (only those set)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import AuditEntry, Episode, Role
from app.models.jobs import Job
from tests.admin.helpers import flashes, page, post_form

SERIES, EPISODE = 2, 5  # the demo's series and its season 2's first episode (docs/demo.md)
MARKERS = f"/admin/content/markers/?id={SERIES}&episode={EPISODE}"


@pytest.fixture
def editor(signed_in: Callable[[Role], FlaskClient], demo_catalogue: Flask) -> FlaskClient:
    return signed_in(Role.EDITOR)


def episode(app: Flask, episode_id: int = EPISODE) -> Episode:
    with app.app_context():
        found = db.session.get_one(Episode, episode_id)
        db.session.expunge(found)
        return found


def player_context(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="player-context" type="application/json">(.*?)</script>', html, re.S)
    assert found
    blob: dict[str, Any] = json.loads(found.group(1))
    return blob


def set_columns(app: Flask, episode_id: int = EPISODE, **values: float | None) -> None:
    with app.app_context():
        db.session.execute(Episode.__table__.update().where(Episode.__table__.c.id == episode_id).values(**values))
        db.session.commit()
        invalidate_catalogue()


def test_the_page_has_the_preview_the_three_buttons_and_saves_the_fields(app: Flask, editor: FlaskClient):
    html = page(editor.get(MARKERS))
    frame = html.xpath("//iframe[@data-markers-frame]/@src")
    assert frame == [f"/admin/content/preview/?id={SERIES}&episode={EPISODE}"]
    assert [b.text_content() for b in html.xpath("//button[@data-mark]")] == [
        "Начало заставки", "Конец заставки", "Начало титров"]
    assert [b.get("data-mark") for b in html.xpath("//button[@data-mark]")] == [
        "intro_start", "intro_end", "credits_start"]
    answer = post_form(editor, MARKERS, {"intro_start": "12,5", "intro_end": "42", "credits_start": "50.0"})
    assert answer.status_code == 302
    saved = episode(app)
    assert (saved.intro_start, saved.intro_end, saved.credits_start) == (12.5, 42.0, 50.0)
    shown_values = page(editor.get(MARKERS)).xpath(
        "//input[@name='intro_start' or @name='intro_end' or @name='credits_start']/@value")
    assert shown_values == ["12,5", "42,0", "50,0"]  # as the admin writes every decimal
    # the save is the editors' like any: in the trail, and the player's page has it at once (the generation moved)
    blob = player_context(app.test_client().get(f"/?movie_id={SERIES}&episode_id={EPISODE}").get_data(as_text=True))
    shown = next(row for row in blob["episodes"] if row["id"] == EPISODE)
    assert (shown["introStart"], shown["introEnd"], shown["creditsStart"]) == (12.5, 42.0, 50.0)
    with app.app_context():
        entries = db.session.scalars(db.select(AuditEntry).where(AuditEntry.object_type == "episodes",
                                                                 AuditEntry.object_id == str(EPISODE))).all()
        assert any("intro_start" in (entry.changes or {}) for entry in entries)


@pytest.mark.parametrize(("values", "said"), [
    ({"intro_start": "40", "intro_end": "10"}, "Конец заставки должен быть позже её начала."),
    ({"intro_start": "10"}, "У заставки нужны и начало, и конец"),
    ({"intro_start": "10", "intro_end": "30", "credits_start": "20"}, "Титры должны начинаться после заставки."),
    ({"credits_start": "100000"}, "Отметка позже конца серии"),
])
def test_markers_that_cannot_be_are_refused_with_the_reason(app: Flask, editor: FlaskClient,
                                                            values: dict[str, str], said: str):
    answer = post_form(editor, MARKERS, values)
    assert answer.status_code == 200
    assert any(said in text for text in flashes(answer)), flashes(answer)
    kept = episode(app)
    assert (kept.intro_start, kept.intro_end, kept.credits_start) == (None, None, None)


def test_a_negative_marker_is_refused_on_its_field(app: Flask, editor: FlaskClient):
    answer = post_form(editor, MARKERS, {"intro_start": "-1", "intro_end": "5"})
    assert answer.status_code == 200
    assert "Не меньше нуля." in answer.get_data(as_text=True)
    assert episode(app).intro_start is None


def test_the_detections_suggestion_is_shown_and_taken_only_when_accepted(app: Flask, editor: FlaskClient):
    set_columns(app, intro_suggested_start=5.2, intro_suggested_end=25.4)
    html = page(editor.get(MARKERS))
    assert "0:05.2–0:25.4" in html.xpath("string(//*[@id='suggestion'])")
    assert episode(app).intro_start is None  # shown, not applied
    row = page(editor.get(f"/admin/content/edit/?id={SERIES}"))
    assert row.xpath(f"//a[@data-markers-link][contains(@href, 'episode={EPISODE}')]")
    assert len(row.xpath("//*[@data-intro-found]")) == 1  # the one episode with a suggestion not taken
    assert post_form(editor, MARKERS, {"accept": "1"}).status_code == 302
    taken = episode(app)
    assert (taken.intro_start, taken.intro_end) == (5.2, 25.4)
    assert "Принята." in page(editor.get(MARKERS)).xpath("string(//*[@id='suggestion'])")


def test_the_seasons_detection_is_one_job_per_season_at_a_time(app: Flask, editor: FlaskClient, tmp_path):
    app.config["JOB_FILES_DIR"] = str(tmp_path / "job-files")
    edit = page(editor.get(f"/admin/content/edit/?id={SERIES}"))
    links = edit.xpath("//a[@data-detect-intro]/@href")
    assert len(links) == 2  # the demo series' two seasons
    season_page = links[1]
    listing = page(editor.get(season_page))
    assert "Рассвет" in listing.text_content()  # its episodes are listed
    answer = post_form(editor, season_page, {})
    assert answer.status_code == 302 and "/admin/jobs/" in answer.headers["Location"]
    with app.app_context():
        job = db.session.scalars(db.select(Job)).one()
        season_id = int(re.search(r"season=(\d+)", season_page).group(1))  # type: ignore[union-attr]
        assert (job.kind, job.params, job.subject) == ("detect_intro", {"season_id": season_id}, f"season:{season_id}")
    again = post_form(editor, season_page, {})
    assert again.status_code == 302 and "detect-intro" in again.headers["Location"]
    assert any("Поиск не начат." in text for text in flashes(editor.get(again.headers["Location"])))
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Job)) == 1


def test_the_markers_reach_the_api_and_the_page_context_only_where_set(app: Flask, client: FlaskClient,
                                                                       demo_catalogue: Flask):
    set_columns(app, intro_start=3.0, intro_end=23.5, credits_start=80.0)
    episodes = {row["id"]: row for row in client.get(f"/episodes?content-id={SERIES}").get_json()}
    assert (episodes[EPISODE]["introStart"], episodes[EPISODE]["introEnd"], episodes[EPISODE]["creditsStart"]) == (
        3.0, 23.5, 80.0)
    other = next(row for key, row in episodes.items() if key != EPISODE)
    assert (other["introStart"], other["introEnd"], other["creditsStart"]) == (None, None, None)
    blob = player_context(client.get(f"/?movie_id={SERIES}&episode_id={EPISODE}").get_data(as_text=True))
    shown = {row["id"]: row for row in blob["episodes"]}
    assert (shown[EPISODE]["introStart"], shown[EPISODE]["introEnd"], shown[EPISODE]["creditsStart"]) == (
        3.0, 23.5, 80.0)
    assert not {"introStart", "introEnd", "creditsStart"} & set(shown[next(k for k in shown if k != EPISODE)])


def test_the_episodes_row_in_the_titles_form_edits_the_markers_by_the_same_rule(app: Flask, editor: FlaskClient):
    from tests.admin.test_content_editing import edit_form

    form = edit_form(editor, SERIES)
    row = next(name.rsplit("-", 1)[0] for name, value in form.items()
               if name.endswith("-id") and "-episodes-" in name and value == str(EPISODE))
    assert {f"{row}-intro_start", f"{row}-intro_end", f"{row}-credits_start"} <= set(form)  # under «Ещё»
    refused = editor.post(f"/admin/content/edit/?id={SERIES}",
                          data={**form, f"{row}-intro_start": "30", f"{row}-intro_end": "10"})
    assert refused.status_code == 200
    assert any("Конец заставки должен быть позже её начала." in text for text in flashes(refused)), flashes(refused)
    assert episode(app).intro_start is None
    saved = editor.post(f"/admin/content/edit/?id={SERIES}", data={
        **edit_form(editor, SERIES), f"{row}-intro_start": "3,5", f"{row}-intro_end": "21.25",
        f"{row}-credits_start": ""})
    assert saved.status_code == 302, flashes(saved)
    done = episode(app)
    assert (done.intro_start, done.intro_end, done.credits_start) == (3.5, 21.25, None)
