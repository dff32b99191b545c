"""The media library (Каталог → Медиатека, app/admin/media.py): every stored picture listed by kind with its thumbnail
and where it is used; an upload stored by the poster's rule (decoded whole, encoded again, named by its hash); a delete
refused while the picture is used; the picker's list; editors and administrators only."""

from __future__ import annotations

import io
from collections.abc import Callable
from hashlib import sha256
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from app.admin.access import NO_ACCESS
from app.extensions import db
from app.models import Content, Person, Role
from app.transaction import transaction
from tests.admin.conftest import EMAILS
from tests.admin.helpers import csrf_of, flashes, page, sign_in
from tests.admin.test_content_editing import edit_form

LIBRARY = "/admin/media/"


def image(kind: str = "PNG", size: tuple[int, int] = (300, 450), **options: object) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (20, 90, 200)).save(buffer, kind, **options)
    return buffer.getvalue()


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


def upload(client: FlaskClient, data: bytes, kind: str = "posters", name: str = "кадр.png") -> object:
    return client.post(f"{LIBRARY}upload", data={"kind": kind, "picture": (io.BytesIO(data), name),
                                                  "csrf_token": csrf_of(client, LIBRARY)},
                       content_type="multipart/form-data", follow_redirects=True)


def stored(app: Flask, kind: str) -> list[Path]:
    folder = Path(app.config["MEDIA_ROOT"]) / kind
    return sorted(folder.iterdir()) if folder.is_dir() else []


def test_an_upload_is_decoded_encoded_again_and_named_by_its_hash(app: Flask, editor: FlaskClient):
    data = image("PNG") + b"<html><script>alert(1)</script></html>"  # a PNG+HTML polyglot
    response = upload(editor, data, kind="backdrops")
    assert any(message.startswith("Картинка загружена: /media/backdrops/") for message in flashes(response))
    [file] = stored(app, "backdrops")
    kept = file.read_bytes()
    assert b"<html>" not in kept and file.name == f"{sha256(kept).hexdigest()[:32]}.png"
    with Image.open(file) as picture:
        assert (picture.format, picture.size) == ("PNG", (300, 450))
    assert upload(editor, data, kind="backdrops").status_code == 200 and len(stored(app, "backdrops")) == 1  # once


@pytest.mark.parametrize(("data", "said"), [
    (b"<html>not an image</html>", "Картинка не загружена: Это не картинка JPEG, PNG или WebP"),
    (image("GIF"), "Картинка не загружена: Формат GIF не подходит"),
    (image("PNG", (40, 40)), "Картинка не загружена: Размер 40×40"),
    (image("JPEG")[:-400], "Картинка не загружена: Картинка не читается целиком"),
])
def test_a_bad_upload_is_refused_and_nothing_is_stored(app: Flask, editor: FlaskClient, data: bytes, said: str):
    response = upload(editor, data)
    assert any(message.startswith(said) for message in flashes(response)), flashes(response)
    assert stored(app, "posters") == []


def test_an_upload_of_a_kind_the_library_has_not_is_refused(app: Flask, editor: FlaskClient):
    response = upload(editor, image(), kind="../titles")
    assert "Выберите, что это за картинка." in flashes(response)
    assert not (Path(app.config["MEDIA_ROOT"]) / "titles").exists()


def test_the_list_shows_each_picture_with_its_thumbnail_size_and_uses(app: Flask, editor: FlaskClient):
    upload(editor, image("JPEG"), kind="posters")
    upload(editor, image("PNG", (200, 200)), kind="photos")
    [poster], [photo] = stored(app, "posters"), stored(app, "photos")
    with app.app_context(), transaction():
        db.session.get(Content, 2).poster_url = f"/media/posters/{poster.name}"
        db.session.get(Person, 1).photo_url = f"/media/photos/{photo.name}"
    listing = page(editor.get(LIBRARY))
    rows = {row.get("data-address"): row for row in listing.xpath("//table[@id='media-pictures']/tbody/tr")}
    assert set(rows) == {f"/media/posters/{poster.name}", f"/media/photos/{photo.name}"}
    poster_row = rows[f"/media/posters/{poster.name}"]
    assert " ".join(" ".join(poster_row.xpath(".//td[@class='media-uses']//text()")).split()) == "Постер: Тихая гавань"
    assert poster_row.xpath(".//td[@class='media-uses']//a/@href") == ["/admin/content/edit/?id=2"]
    assert poster_row.xpath("./td[4]/text()") == [f"{poster.stat().st_size / 1024:.0f} КБ"]
    thumb = poster_row.xpath(".//img/@src")[0]
    assert thumb == f"/admin/media/thumb/posters/{poster.name}"
    only_photos = page(editor.get(f"{LIBRARY}?kind=photos")).xpath(
        "//table[@id='media-pictures']/tbody/tr/@data-address")
    assert only_photos == [f"/media/photos/{photo.name}"]

    answer = editor.get(thumb)
    assert answer.status_code == 200 and answer.mimetype == "image/webp"
    assert answer.cache_control.max_age == 365 * 24 * 3600 and answer.cache_control.immutable
    with Image.open(io.BytesIO(answer.data)) as small:
        assert max(small.size) == 240 and small.size == (160, 240)
    cached = Path(app.config["MEDIA_ROOT"]) / "thumbs" / "posters" / f"{poster.stem}.webp"
    made = cached.stat().st_mtime_ns
    assert editor.get(thumb).data == answer.data and cached.stat().st_mtime_ns == made  # made once
    assert editor.get("/admin/media/thumb/posters/..%2F..%2Fsecret.png").status_code == 404
    assert editor.get("/admin/media/thumb/titles/x.png").status_code == 404


def test_the_content_list_shows_the_library_thumbnail_and_the_form_a_picker(app: Flask, editor: FlaskClient):
    upload(editor, image("JPEG"))
    [poster] = stored(app, "posters")
    form = edit_form(editor, 2)
    form["poster_url"] = f"/media/posters/{poster.name}"
    assert editor.post("/admin/content/edit/?id=2", data=form).status_code == 302
    listing = page(editor.get("/admin/content/?search=Тихая"))
    assert f"/admin/media/thumb/posters/{poster.name}" in listing.xpath("//img[@class='editorial-thumb']/@src")
    field = page(editor.get("/admin/content/edit/?id=2")).xpath("//input[@name='poster_url']")[0]
    assert field.get("data-picture-kind") == "posters"
    picked = editor.get("/admin/media/pick?kind=posters").get_json()
    assert picked["total"] == 1 and picked["pictures"][0]["address"] == f"/media/posters/{poster.name}"
    assert editor.get("/admin/media/pick?kind=photos").get_json() == {"total": 0, "pictures": []}


def test_a_typed_path_is_still_checked_by_the_address_rule(app: Flask, editor: FlaskClient):
    form = edit_form(editor, 2)
    form["poster_url"] = "javascript:alert(1)"
    response = editor.post("/admin/content/edit/?id=2", data=form)
    assert response.status_code == 200
    with app.app_context():
        assert db.session.get(Content, 2).poster_url == "/media/posters/series-s1e1.jpg"


def test_a_picture_in_use_is_not_deleted_and_says_where(app: Flask, editor: FlaskClient):
    upload(editor, image("JPEG"))
    [poster] = stored(app, "posters")
    address = f"/media/posters/{poster.name}"
    with app.app_context(), transaction():
        db.session.get(Content, 2).poster_url = address
    editor.get(f"/admin/media/thumb/posters/{poster.name}")

    def delete() -> object:
        return editor.post(f"{LIBRARY}delete", data={"kind": "posters", "name": poster.name,
                                                     "csrf_token": csrf_of(editor, LIBRARY)}, follow_redirects=True)

    said = flashes(delete())
    assert any("Картинка не удалена. Картинка используется: постер «Тихая гавань» (№ 2)" in text for text in said), said
    assert poster.is_file()
    with app.app_context(), transaction():
        db.session.get(Content, 2).poster_url = None
    assert f"Картинка {address} удалена." in flashes(delete())
    assert not poster.exists()
    assert not (Path(app.config["MEDIA_ROOT"]) / "thumbs" / "posters" / f"{poster.stem}.webp").exists()
    assert "Картинка не удалена. Такой картинки в медиатеке нет." in flashes(delete())


def test_a_delete_without_its_token_deletes_nothing(app: Flask, editor: FlaskClient):
    upload(editor, image("JPEG"))
    [poster] = stored(app, "posters")
    response = editor.post(f"{LIBRARY}delete", data={"kind": "posters", "name": poster.name}, follow_redirects=True)
    assert "Форма устарела: попробуйте ещё раз." in flashes(response) and poster.is_file()


@pytest.mark.parametrize("role", [None, Role.VIEWER])
@pytest.mark.parametrize(("method", "url"), [
    ("get", LIBRARY), ("get", "/admin/media/pick?kind=posters"), ("get", "/admin/media/thumb/posters/a.png"),
    ("post", "/admin/media/upload"), ("post", "/admin/media/delete"),
])
def test_only_editors_and_administrators_open_the_library(app: Flask, demo_catalogue: Flask, accounts: dict,
                                                          role: Role | None, method: str, url: str):
    client = app.test_client()
    if role is not None:  # a viewer's sign-in is refused: the client stays anonymous to the admin
        assert NO_ACCESS in " ".join(flashes(sign_in(client, EMAILS[role])) + page(sign_in(client, EMAILS[role]))
                                     .xpath("//text()"))
    response = getattr(client, method)(url, data={"kind": "posters", "name": "a.png"} if method == "post" else None)
    assert response.status_code == 302 and "/admin/session/" in response.headers["Location"]


def test_editors_and_administrators_both_use_the_library(app: Flask, editor: FlaskClient,
                                                         signed_in: Callable[[Role], FlaskClient]):
    for client in (editor, signed_in(Role.ADMIN)):
        assert client.get(LIBRARY).status_code == 200
        assert upload(client, image("WEBP")).status_code == 200
    assert len(stored(app, "posters")) == 1  # the same picture twice: one file
