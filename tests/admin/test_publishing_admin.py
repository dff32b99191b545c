"""Publishing in the admin (issue 31): a new title is a draft, a time to publish at is typed in Moscow time and kept
in UTC, a withdrawal before the publication is refused; an editor's preview address is handed out to editors only;
episodes and seasons that swap numbers in one save are saved (defect 4), the trail saying each change once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import clock as the_clock
from app.extensions import db
from app.models import AuditEntry, Content, Episode, Role, Season
from tests.admin.helpers import flashes, page, post_form
from tests.admin.test_content_editing import content_titled, create, edit_form, series_form

SERIES = 2  # the demo's "Тихая гавань": season 1 holds episodes 2, 3, 4 numbered 1, 2, 3


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> Iterator[FlaskClient]:
    yield signed_in(Role.EDITOR)


def test_a_new_title_is_a_draft_until_published(app: Flask, editor: FlaskClient):
    new = page(editor.get("/admin/content/new/"))
    assert new.xpath("//input[@name='published']/@checked") == []  # the box starts unticked
    form = series_form(app, title="Черновик")
    del form["published"]
    assert create(editor, form).status_code == 302
    draft = content_titled(app, "Черновик")
    assert draft is not None and draft.published is False
    assert editor.get(f"/contents/{draft.id}").status_code == 404


def test_a_time_to_publish_at_is_moscow_time_kept_in_utc(app: Flask, editor: FlaskClient, clock):
    form = series_form(app, title="По расписанию", publish_at="2030-01-01T12:00", unpublish_at="2030-02-01 12:00")
    del form["published"]
    response = create(editor, form)
    assert response.status_code == 302, flashes(editor.get("/admin/content/"))
    scheduled = content_titled(app, "По расписанию")
    assert scheduled is not None
    assert scheduled.publish_at == datetime(2030, 1, 1, 9, 0, tzinfo=UTC)  # 12:00 in Moscow
    assert scheduled.unpublish_at == datetime(2030, 2, 1, 9, 0, tzinfo=UTC)
    assert scheduled.published is True  # a time to publish at: published then
    said = flashes(editor.get("/admin/content/"))
    assert "Запланировано: «По расписанию» появится 01.01.2030 12:00 (МСК)." in said
    edit = page(editor.get(f"/admin/content/edit/?id={scheduled.id}"))
    assert edit.xpath("//input[@name='publish_at']/@value") == ["2030-01-01T12:00"]  # shown in Moscow time again
    assert f"id {scheduled.id}" in " ".join(edit.xpath("//h1//text()"))  # the content id, in the heading
    assert "Запланирован на 01.01.2030 12:00 (МСК)" in edit.text_content()


@pytest.mark.parametrize(("fields", "message"), [
    ({"publish_at": "2030-01-02T12:00", "unpublish_at": "2030-01-01T12:00"}, "«Снять с публикации» должно быть"),
    ({"publish_at": "вчера"}, "Дата и время в виде ДД.ММ.ГГГГ ЧЧ:ММ (московское время)."),
])
def test_a_schedule_that_cannot_be_is_refused_and_the_form_kept(app: Flask, editor: FlaskClient, fields, message):
    response = create(editor, series_form(app, title="Неверные даты", **fields))
    assert response.status_code == 200
    text = " ".join(page(response).text_content().split())
    assert message in text
    assert page(response).xpath("//input[@name='publish_at']/@value") == [fields["publish_at"]]
    assert content_titled(app, "Неверные даты") is None


def test_the_preview_address_is_handed_to_editors_only(app: Flask, editor: FlaskClient, client: FlaskClient):
    with app.app_context():
        db.session.get(Content, SERIES).published = False
        db.session.commit()
    handed = editor.get(f"/admin/content/preview/?id={SERIES}&episode=3")
    assert handed.status_code == 302
    address = urlsplit(handed.headers["Location"])
    assert address.path == "/preview" and parse_qs(address.query)["episode_id"] == ["3"]
    played = client.get(f"{address.path}?{address.query}")  # the address works in any browser, for its while
    assert played.status_code == 200 and "Тихая гавань" in played.get_data(as_text=True)
    assert client.get(f"/?movie_id={SERIES}").status_code == 404  # the public's page of the draft
    anonymous = app.test_client().get(f"/admin/content/preview/?id={SERIES}")
    assert anonymous.status_code == 302 and "/admin/session/" in anonymous.headers["Location"]
    assert editor.get(f"/admin/content/preview/?id={SERIES}&episode=1").status_code == 404  # another title's
    assert editor.get("/admin/content/preview/?id=99999999999").status_code == 404
    listed = page(editor.get("/admin/content/"))
    assert listed.xpath(f"//a[contains(@href, '/admin/content/preview/?id={SERIES}')]")  # a row's preview


def orders(app: Flask) -> dict[int, int]:
    with app.app_context():
        return dict(db.session.execute(db.select(Episode.id, Episode.order).where(Episode.content_id == SERIES)).all())


def episode_fields(form: dict[str, Any], episode_id: int) -> str:
    """The form's prefix of the episode ``episode_id`` ("seasons-0-episodes-1")."""
    return next(name.removesuffix("-id") for name, value in form.items()
                if name.endswith("-id") and "episodes" in name and value == str(episode_id))


def test_two_episodes_swap_numbers_in_one_save(app: Flask, editor: FlaskClient):
    form = edit_form(editor, SERIES)
    first, second = episode_fields(form, 2), episode_fields(form, 3)
    form[f"{first}-order"], form[f"{second}-order"] = "2", "1"
    response = post_form(editor, f"/admin/content/edit/?id={SERIES}", form)
    assert response.status_code == 302, flashes(response)
    assert orders(app)[2] == 2 and orders(app)[3] == 1
    with app.app_context():
        changes = [entry.changes for entry in db.session.scalars(
            db.select(AuditEntry).where(AuditEntry.object_type == "episodes"))]
    assert {"order": [1, 2]} in changes and {"order": [2, 1]} in changes, changes  # once each, never via -id


def test_a_season_reversed_and_seasons_swapped_in_one_save(app: Flask, editor: FlaskClient):
    form = edit_form(editor, SERIES)
    for episode_id, order in ((2, "3"), (3, "2"), (4, "1")):  # a drag that reversed season 1
        form[f"{episode_fields(form, episode_id)}-order"] = order
    form["seasons-0-order"], form["seasons-1-order"] = "2", "1"
    response = post_form(editor, f"/admin/content/edit/?id={SERIES}", form)
    assert response.status_code == 302, flashes(response)
    assert [orders(app)[i] for i in (2, 3, 4)] == [3, 2, 1]
    with app.app_context():
        assert dict(db.session.execute(db.select(Season.order, Season.title).where(
            Season.content_id == SERIES)).all()) == {2: "Сезон 1", 1: "Сезон 2"}


def test_an_episode_deleted_and_its_number_given_to_a_new_one_in_one_save(app: Flask, editor: FlaskClient):
    form = edit_form(editor, SERIES)
    third = episode_fields(form, 4)
    form[f"del-{third}"] = "y"
    season = third.rsplit("-episodes-", 1)[0]
    form.update({f"{season}-episodes-9-order": "3", f"{season}-episodes-9-title": "Новая третья"})
    response = post_form(editor, f"/admin/content/edit/?id={SERIES}", form)
    assert response.status_code == 302, flashes(response)
    with app.app_context():
        assert db.session.get(Episode, 4) is None
        assert db.session.scalar(db.select(Episode.title).where(Episode.content_id == SERIES,
                                                                Episode.order == 3, Episode.season_id == 1)) == \
            "Новая третья"


def test_the_episodes_are_compact_rows_with_their_media_status(app: Flask, editor: FlaskClient):
    edit = page(editor.get(f"/admin/content/edit/?id={SERIES}"))
    rows = edit.xpath("//*[@data-episode-row]")
    assert len(rows) == 6
    first = rows[0]
    assert first.xpath(".//input[contains(@name, '-order')]/@aria-label") == ["Номер серии"]
    assert first.xpath(".//button[@data-move='up']") and first.xpath(".//button[@data-move='down']")
    assert first.xpath(f".//a[contains(@href, '/admin/content/preview/?id={SERIES}&episode=')]")
    statuses = {" ".join(row.xpath(".//*[@data-media-status]//text()")).strip() for row in rows}
    assert statuses == {"Видео: файл не найден"} or statuses <= {"Видео есть", "Видео: файл не найден"}
    assert edit.xpath("//details[contains(@class, 'season-block')]")  # seasons collapse


def test_a_title_unpublished_in_bulk_and_published_again_drops_a_time_to_come(app: Flask, editor: FlaskClient):
    with app.app_context():
        content = db.session.get(Content, SERIES)
        content.publish_at = the_clock.now() + timedelta(days=3)
        db.session.commit()
    response = post_form(editor, "/admin/content/action/", {"action": "publish", "rowid": str(SERIES)},
                         form_url="/admin/content/")
    assert response.status_code == 302
    with app.app_context():
        content = db.session.get(Content, SERIES)
        assert content.published and content.publish_at is None
    assert editor.get(f"/contents/{SERIES}").status_code == 200
