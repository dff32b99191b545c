"""What the admin checks of the files an editor gives: a poster upload (a real image, not too large, stored by its
hash), an episode's master file (it exists and the player can read it), and the availability preview."""

from __future__ import annotations

import io
import json
import struct
import zlib
from collections.abc import Callable
from hashlib import sha256
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
    with Image.open(stored) as kept:  # re-encoded (hole 12): the same picture, named by the hash of what is stored
        assert (kept.format, kept.size) == ("JPEG", (300, 450))
    assert url.removeprefix("/media/posters/").removesuffix(".jpg") == sha256(stored.read_bytes()).hexdigest()[:32]
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
    ("/media/../../etc/passwd", None, "путь без частей «.», «..» и пустых"),
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


# Posters are decoded whole and stored re-encoded (issue 30, hole 12).

def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        chunks.append((data[at + 4:at + 8], data[at + 8:at + 8 + length]))
        at += 12 + length
    return chunks


def png_of(chunks: list[tuple[bytes, bytes]]) -> bytes:
    """A PNG of these chunks, each with its right CRC (so that only decoding its pixels can tell it is wrong)."""
    return b"\x89PNG\r\n\x1a\n" + b"".join(struct.pack(">I", len(body)) + kind + body
                                          + struct.pack(">I", zlib.crc32(kind + body)) for kind, body in chunks)


def garbage_pixels() -> bytes:
    chunks = png_chunks(image("PNG"))
    return png_of([(kind, bytes(range(256)) * (len(body) // 256 + 1) if kind == b"IDAT" else body)
                   for kind, body in chunks])


def truncated_pixels() -> bytes:
    """Its pixel data cut off a third of the way (the file itself ends as a PNG should)."""
    chunks = png_chunks(image("PNG"))
    return png_of([(kind, body[: len(body) // 3] if kind == b"IDAT" else body) for kind, body in chunks])


HTML = b"<html><body><script>alert(document.domain)</script></body></html>"


@pytest.mark.parametrize("data", [garbage_pixels(), truncated_pixels()], ids=["garbage", "truncated"])
def test_a_poster_whose_pixels_do_not_decode_is_refused(app: Flask, editor: FlaskClient, data: bytes):
    with Image.open(io.BytesIO(data)) as header:
        assert header.size == (300, 450)  # its header reads: only decoding every pixel finds it out
    response = save_with_poster(editor, data, "poster.png")
    assert response.status_code == 200
    assert "Постер: Картинка не читается целиком: файл повреждён." in flashes(response), flashes(response)
    with app.app_context():
        assert db.session.get(Content, 2).poster_url == "/media/posters/series-s1e1.jpg"


def stored_poster(app: Flask) -> bytes:
    with app.app_context():
        url = db.session.get(Content, 2).poster_url
    stored = (Path(app.config["MEDIA_ROOT"]) / url.removeprefix("/media/")).read_bytes()
    assert Path(url).stem == sha256(stored).hexdigest()[:32]
    return stored


def test_a_png_html_polyglot_is_stored_as_a_clean_png(app: Flask, editor: FlaskClient):
    chunks = png_chunks(image("PNG"))
    text = (b"tEXt", b"Comment\x00" + HTML)
    data = png_of([chunks[0], text, *chunks[1:]]) + HTML  # in a chunk, and after the end
    response = save_with_poster(editor, data, "poster.png")
    assert response.status_code == 302, flashes(response)
    stored = stored_poster(app)
    assert b"<script" not in stored and b"<html" not in stored
    assert [kind for kind, _ in png_chunks(stored)] == [b"IHDR", b"IDAT", b"IEND"]
    with Image.open(io.BytesIO(stored)) as kept, Image.open(io.BytesIO(data)) as sent:
        assert kept.format == "PNG" and list(kept.getdata()) == list(sent.getdata())


def test_a_jpegs_metadata_is_not_stored_and_its_orientation_is_applied(app: Flask, editor: FlaskClient):
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90° to show
    exif[0x010E] = "<script>alert(1)</script>"  # ImageDescription
    buffer = io.BytesIO()
    Image.new("RGB", (450, 300), (10, 120, 30)).save(buffer, "JPEG", exif=exif.tobytes(),
                                                     comment=b"<script>alert(2)</script>")
    response = save_with_poster(editor, buffer.getvalue() + HTML, "poster.jpg")
    assert response.status_code == 302, flashes(response)
    stored = stored_poster(app)
    assert b"<script" not in stored and b"Exif" not in stored
    with Image.open(io.BytesIO(stored)) as kept:
        assert kept.format == "JPEG" and kept.size == (300, 450) and not kept.getexif()


def test_a_webp_poster_is_stored_as_webp(app: Flask, editor: FlaskClient):
    response = save_with_poster(editor, image("WEBP") + HTML, "poster.webp")
    assert response.status_code == 302, flashes(response)
    stored = stored_poster(app)
    assert b"<script" not in stored
    with Image.open(io.BytesIO(stored)) as kept:
        assert (kept.format, kept.size) == ("WEBP", (300, 450))


def test_an_animated_poster_is_refused(app: Flask, editor: FlaskClient):
    buffer = io.BytesIO()
    frames = [Image.new("RGB", (300, 450), color) for color in ((255, 0, 0), (0, 255, 0))]
    frames[0].save(buffer, "PNG", save_all=True, append_images=frames[1:])
    response = save_with_poster(editor, buffer.getvalue(), "poster.png")
    assert response.status_code == 200
    assert "Постер: Нужна одна картинка, не анимация." in flashes(response), flashes(response)


# A title's media folder belongs to one content (issue 30, hole 14).

def master_at(app: Flask, relative: str) -> str:
    file = Path(app.config["MEDIA_ROOT"]) / relative
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps({"sources": [{"label": "Дубляж", "link": f"/media/{relative}"}]}))
    return f"/media/{relative}"


def new_series(editor: FlaskClient, app: Flask, title: str, master: str) -> object:
    return editor.post("/admin/content/new/", data={
        **series_form(app, title=title, **{"seasons-0-episodes-0-master_file_path": master}),
        "csrf_token": csrf_of(editor, "/admin/content/new/")})


def test_a_master_path_in_another_contents_folder_is_refused(app: Flask, editor: FlaskClient):
    master = master_at(app, "titles/series-s1e1/extra.json")  # the folder of «Тихая гавань» (2)'s first episode
    response = new_series(editor, app, "Чужая папка", master)
    assert response.status_code == 200
    assert ("Мастер-файл серии «Начало»: папка titles/series-s1e1 уже принадлежит «Тихая гавань» (№ 2): у каждого "
            "фильма или сериала своя папка.") in flashes(response), flashes(response)
    form = edit_form(editor, 3)  # «Закрытый показ»: its film's episode moved into that folder
    episode = next(name for name in form if name.endswith("-master_file_path"))
    form[episode] = master
    response = editor.post("/admin/content/edit/?id=3", data=form)
    assert response.status_code == 200
    assert any("папка titles/series-s1e1 уже принадлежит «Тихая гавань» (№ 2)" in said for said in flashes(response))


def test_a_contents_own_folder_and_a_new_one_are_taken(app: Flask, editor: FlaskClient):
    form = edit_form(editor, 2)
    episode = next(name for name, value in form.items() if value == "/media/titles/series-s1e1/master.json")
    form[episode] = master_at(app, "titles/series-s1e1/master-v2.json")  # its own folder
    response = editor.post("/admin/content/edit/?id=2", data=form)
    assert response.status_code == 302, flashes(response)
    response = new_series(editor, app, "Своя папка", master_at(app, "titles/series_s1e1/master.json"))
    assert response.status_code == 302, flashes(response)  # "_" is no wildcard: another folder


@pytest.mark.parametrize("path", ["/media/titles/x/../series-s1e1/master.json", "/media/titles//x/master.json",
                                  "/media/titles/./x/master.json"])
def test_a_master_path_with_dot_or_empty_parts_is_refused(app: Flask, editor: FlaskClient, path: str):
    master_at(app, "titles/x/master.json")
    response = new_series(editor, app, "Путь с точками", path)
    assert response.status_code == 200
    assert any("Мастер-файл серии «Начало»: путь без частей «.», «..» и пустых" in said for said in flashes(response))
