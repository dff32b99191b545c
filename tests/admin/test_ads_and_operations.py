"""Ads in the admin (a creative from an uploaded MP4, placements and the VAST the player will fetch, the hits'
counts) and the administrators' operations (clear the caches, regenerate the sitemaps)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from lxml import etree

from app.caching import store
from app.demo.ads import encode_creative
from app.extensions import db
from app.models import AdCreative, AdPlacement, AdPosition, AdTrackingHit, Role
from tests.admin.helpers import csrf_of, field_errors, flashes, page, post_form
from tests.queued import work_off_queue


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real 2-second H.264 MP4, made with ffmpeg."""
    target = tmp_path_factory.mktemp("clip") / "clip.mp4"
    encode_creative(target, 2, "testsrc2", 440)
    return target


@pytest.fixture
def editor(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> Iterator[FlaskClient]:
    yield signed_in(Role.EDITOR)


def new_creative(editor: FlaskClient, title: str, data: bytes, name: str) -> object:
    return editor.post("/admin/ad_creative/new/", content_type="multipart/form-data", data={
        "title": title, "advertiser": "Рекламодатель", "duration": "", "skip_offset": "00:00:01",
        "click_through_url": "https://advertiser.example/", "video": (io.BytesIO(data), name),
        "csrf_token": csrf_of(editor, "/admin/ad_creative/new/")})


def test_a_creative_from_an_uploaded_mp4_reads_its_size_and_length(app: Flask, editor: FlaskClient, clip: Path):
    response = new_creative(editor, "Ролик из файла", clip.read_bytes(), "ролик.mp4")
    assert response.status_code == 302, flashes(response)
    with app.app_context():
        creative = db.session.scalar(db.select(AdCreative).where(AdCreative.title == "Ролик из файла"))
        assert creative is not None and creative.duration == 2
        [media] = creative.media_files
        assert (media.width, media.height, media.mime_type) == (640, 360, "video/mp4")
        assert media.url.startswith("/media/ads/") and media.url.endswith(".mp4")
        assert (Path(app.config["MEDIA_ROOT"]) / media.url.removeprefix("/media/")).read_bytes() == clip.read_bytes()


def test_a_file_that_is_not_an_mp4_is_refused(app: Flask, editor: FlaskClient):
    response = new_creative(editor, "Не ролик", b"\x89PNG\r\n\x1a\n" + b"0" * 100, "ролик.mp4")
    assert response.status_code == 200
    assert "Ролик: это не файл MP4." in flashes(response)
    assert page(response).xpath("//input[@name='title']/@value") == ["Не ролик"]


@pytest.fixture
def creative_id(app: Flask, editor: FlaskClient, clip: Path) -> int:
    assert new_creative(editor, "Для размещения", clip.read_bytes(), "clip.mp4").status_code == 302
    with app.app_context():
        return db.session.scalar(db.select(AdCreative.id).where(AdCreative.title == "Для размещения"))


@pytest.mark.parametrize(("fields", "said"), [
    ({"vast_url": ""}, "Выберите ролик или укажите внешний VAST: одно из двух."),
    ({"vast_url": "javascript:alert(1)", "creative": ""}, "Нужен адрес http:// или https://."),  # on the field
])
def test_a_placement_names_one_ad_with_a_web_address(editor: FlaskClient, fields: dict[str, str], said: str):
    data = {"title": "Плохое размещение", "position": "preroll", "order": "0", "enabled": "y", "creative": "",
            "wrapper_depth": "0", **fields}
    response = post_form(editor, "/admin/ad_placement/new/", data)
    assert said in flashes(response) + field_errors(response, "vast_url")


def test_the_vast_preview_is_the_document_the_player_fetches(app: Flask, editor: FlaskClient, creative_id: int):
    response = post_form(editor, "/admin/ad_placement/new/", {
        "title": "Перед фильмом", "position": "preroll", "order": "0", "enabled": "y", "creative": str(creative_id),
        "vast_url": "", "wrapper_depth": "0"})
    assert response.status_code == 302, flashes(response)
    with app.app_context():
        placement = db.session.scalar(db.select(AdPlacement).where(AdPlacement.title == "Перед фильмом"))
        assert placement.position is AdPosition.PREROLL
    preview = page(editor.get(f"/admin/ad_placement/vast/?id={placement.id}"))
    document = etree.fromstring(preview.xpath("//pre/text()")[0].encode())
    served = etree.fromstring(app.test_client().get(f"/vast.xml?creative={creative_id}").data)
    assert [e.tag for e in document.iter()] == [e.tag for e in served.iter()]
    assert document.xpath("//*[local-name()='MediaFile']/text()")[0].strip().endswith(".mp4")
    ad_list = app.test_client().get("/ad-list.json?content_id=2").get_json()
    assert {"vastUrl": preview.xpath("//code/text()")[0]} in ad_list["prerollList"]


def test_the_hits_are_counted_per_creative_and_event(app: Flask, editor: FlaskClient, creative_id: int):
    with app.app_context():
        db.session.add_all([AdTrackingHit(creative_id=creative_id, event=event, source="inline")
                            for event in ("impression", "impression", "start", "complete")]
                           + [AdTrackingHit(creative_id=999, event="impression", source="inline")])
        db.session.commit()
    rows = [[" ".join(cell.text_content().split()) for cell in row.xpath("td")]
            for row in page(editor.get("/admin/ad_hit/counts/")).xpath("//table[@id='counts']/tbody/tr")]
    assert rows == [["Для размещения", "complete", "1"], ["Для размещения", "impression", "2"],
                    ["Для размещения", "start", "1"], ["Ролик №999 (удалён)", "impression", "1"]]


def test_an_administrator_clears_the_caches_and_regenerates_the_sitemaps(
        app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]):
    admin = signed_in(Role.ADMIN)
    app.test_client().get("/contents/2")  # kept
    with app.app_context():
        assert {size.name: size.entries for size in store().sizes()}["responses"] >= 1
    response = post_form(admin, "/admin/operations/clear-caches", {}, form_url="/admin/operations/")
    assert response.status_code == 302
    with app.app_context():
        assert {size.name: size.entries for size in store().sizes()}["responses"] == 0
    response = post_form(admin, "/admin/operations/generate-sitemaps", {}, form_url="/admin/operations/")
    said = flashes(admin.get("/admin/operations/"))
    assert any(message.startswith("Карта сайта собирается") for message in said), said  # at once, not after it
    assert len(work_off_queue(app)) == 1  # a job of the worker's
    assert app.test_client().get("/sitemap.xml").status_code == 200
    assert "Собрана" in page(admin.get("/admin/operations/")).xpath("//p[@id='sitemap']/text()")[0]
    refused = admin.post("/admin/operations/clear-caches")  # no token
    assert "Форма устарела" in " ".join(flashes(admin.get(refused.headers["Location"])))
