"""What the admin checks of the files an editor gives: a poster upload (a real image, not too large, stored by its
hash), an episode's master file (it exists and the player can read it), and the availability preview."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from app.extensions import db
from app.models import Content, Role
from tests.admin.helpers import csrf_of, flashes, page
from tests.admin.test_content_editing import edit_form, series_form


def image(kind: str = "PNG", size: tuple[int, int] = (300, 450)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, kind)
    return buffer.getvalue()


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


def save_with_poster(editor: FlaskClient, data: bytes, name: str) -> object:
    form = edit_form(editor, 2)
    form["poster"] = (io.BytesIO(data), name)
    return editor.post("/admin/content/edit/?id=2", data=form, content_type="multipart/form-data")


def test_a_poster_upload_is_stored_by_its_hash_and_shown(app: Flask, editor: FlaskClient):
    data = image("JPEG")
    response = save_with_poster(editor, data, "постер.jpg")
    assert response.status_code == 302, flashes(response)
    with app.app_context():
        url = db.session.get(Content, 2).poster_url
    assert url.startswith("/media/posters/") and url.endswith(".jpg")
    stored = Path(app.config["MEDIA_ROOT"]) / url.removeprefix("/media/")
    assert stored.read_bytes() == data
    assert app.test_client().get("/contents/2").get_json()["posterUrl"] == url


@pytest.mark.parametrize(("data", "name", "said"), [
    (b"<html>not an image</html>", "poster.jpg", "Постер: Это не картинка JPEG, PNG или WebP"),
    (image("GIF"), "poster.gif", "Постер: Формат GIF не подходит"),
    (image("PNG", (40, 40)), "tiny.png", "Постер: Размер 40×40"),
    (b"\xff" * (5 * 1_048_576 + 10), "huge.jpg", "Постер: Файл больше 5 МБ."),
])
def test_a_bad_poster_is_refused_on_the_form(app: Flask, editor: FlaskClient, data: bytes, name: str, said: str):
    response = save_with_poster(editor, data, name)
    assert response.status_code == 200
    assert any(message.startswith(said) for message in flashes(response)), flashes(response)
    form = page(response)
    assert form.xpath("//input[@name='title']/@value") == ["Тихая гавань"]
    assert form.xpath("//input[@name='poster']/@data-max-bytes") == [str(5 * 1_048_576)]  # the page still checks
    with app.app_context():
        assert db.session.get(Content, 2).poster_url == "/media/posters/series-s1e1.jpg"


def test_the_form_tells_the_page_the_poster_limit(editor: FlaskClient):
    field = page(editor.get("/admin/content/edit/?id=2")).xpath("//input[@name='poster']")[0]
    assert field.get("type") == "file" and field.get("data-max-bytes") == str(5 * 1_048_576)


@pytest.mark.parametrize(("path", "content", "said"), [
    ("/media/titles/nowhere/master.json", None, "файла /media/titles/nowhere/master.json нет"),
    ("titles/x/master.json", None, "путь должен начинаться с /media/"),
    ("/media/titles/x/master.json", "{not json", "это не JSON"),
    ("/media/titles/x/master.json", json.dumps({"sources": [{"label": "Дубляж"}]}),
     "в мастер-файле нет ни одного источника"),
    ("/media/titles/x/index.m3u8", "<html>", "это не плейлист HLS"),
    ("/media/../../etc/passwd", None, "файла /media/../../etc/passwd нет"),
])
def test_a_master_path_the_player_cannot_read_is_refused(app: Flask, editor: FlaskClient, path: str,
                                                         content: str | None, said: str):
    if content is not None:
        file = Path(app.config["MEDIA_ROOT"]) / path.removeprefix("/media/")
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(content)
    response = editor.post("/admin/content/new/", data={
        **series_form(app, title="С мастер-файлом", **{"seasons-0-episodes-0-master_file_path": path}),
        "csrf_token": csrf_of(editor, "/admin/content/new/")})
    assert response.status_code == 200
    assert f"Мастер-файл серии «Начало»: {said}" in " ".join(flashes(response)), flashes(response)


def test_a_master_json_the_player_reads_is_taken(app: Flask, editor: FlaskClient):
    file = Path(app.config["MEDIA_ROOT"]) / "titles/north/master.json"
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps({"sources": [{"label": "Дубляж", "link": "/media/titles/north/master.m3u8",
                                             "isDefault": True}], "subtitles": []}))
    response = editor.post("/admin/content/new/", data={
        **series_form(app, title="С мастер-файлом", **{
            "seasons-0-episodes-0-master_file_path": "/media/titles/north/master.json",
            "seasons-0-episodes-1-master_file_path": "https://cdn.example/north/2/master.json"}),
        "csrf_token": csrf_of(editor, "/admin/content/new/")})
    assert response.status_code == 302, flashes(response)


def test_the_availability_preview_answers_as_the_player(app: Flask, editor: FlaskClient):
    form = edit_form(editor, 2)
    form.update({"availability_rules-0-kind": "block_country", "availability_rules-0-value": " RU ",
                 "availability_rules-1-kind": "allow_domain", "availability_rules-1-value": "partner.example"})
    assert editor.post("/admin/content/edit/?id=2", data=form).status_code == 302
    answers = {}
    for country, domain in (("ru", "partner.example"), ("kz", "partner.example"), ("kz", "other.example"),
                            ("kz", "www.partner.example")):
        response = editor.get(f"/admin/content/availability/?id=2&country={country}&domain={domain}")
        answers[country, domain] = page(response).xpath("//*[@id='verdict']/text()")[0]
    assert answers == {("ru", "partner.example"): "Не будет показан: в этой стране показ закрыт.",
                       ("kz", "partner.example"): "Будет показан.",
                       ("kz", "other.example"): "Не будет показан: на этом сайте показ закрыт.",
                       ("kz", "www.partner.example"): "Будет показан."}


def test_a_long_series_page_is_not_refused_for_its_size(app: Flask, editor: FlaskClient):
    fields = {f"seasons-0-episodes-{n}-{name}": value for n in range(300) for name, value in (
        ("order", str(n + 1)), ("title", f"Серия {n + 1}"), ("description", "Длинное описание серии. " * 10))}
    form = {**series_form(app, title="Очень длинный сериал"), **fields, "csrf_token": csrf_of(editor,
                                                                                           "/admin/content/new/")}
    response = editor.post("/admin/content/new/", data=form)
    assert response.status_code == 302, flashes(response)
    with app.app_context():
        content = db.session.scalar(db.select(Content).where(Content.title == "Очень длинный сериал"))
        assert len(content.seasons[0].episodes) == 300
