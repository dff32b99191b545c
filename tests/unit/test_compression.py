"""Flask-Compress (app/extensions.py): brotli or gzip for text, never for media or ranges; asset caching intact."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli
import pytest
from flask import Flask
from flask.testing import FlaskClient

CHROME = "gzip, deflate, br, zstd"  # what Chromium sends
PAGE = "/?movie_id=1&auto_play=1"


def decode(response) -> bytes:
    body = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    if encoding == "br":
        return brotli.decompress(body)
    if encoding == "gzip":
        return gzip.decompress(body)
    assert encoding is None, encoding
    return body


def without_nonce(html: bytes) -> bytes:
    return re.sub(rb'nonce="[^"]*"', b'nonce=""', html)


@pytest.fixture
def entry_script(app: Flask) -> str:
    with app.app_context():
        return app.extensions["assets_manifest"].entry("player.tsx").script


@pytest.fixture
def media(app: Flask) -> dict[str, bytes]:
    """Small stand-ins for the generated media, written under the test app's MEDIA_ROOT."""
    root = app.config["MEDIA_ROOT"]
    files = {
        "t/seg_00001.m4s": bytes(range(256)) * 40,
        "t/film.mp4": b"\x00\x00\x00\x18ftypmp42" + bytes(8000),
        "t/index.m3u8": ("#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n"
                         + "".join(f"#EXTINF:4.000,\nseg_{i:05d}.m4s\n" for i in range(60))
                         + "#EXT-X-ENDLIST\n").encode(),
        "t/ru.vtt": ("WEBVTT\n\n" + "".join(f"00:00:{i:02d}.000 --> 00:00:{i:02d}.900\nСтрока {i}\n\n"
                                            for i in range(40))).encode(),
    }
    for name, data in files.items():
        path = Path(root, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return files


@pytest.mark.parametrize(("accept", "expected"), [
    ("br", "br"), (CHROME, "br"), ("gzip", "gzip"), ("gzip, deflate", "gzip"), ("br;q=0.5, gzip", "gzip"),
    ("", None), ("identity", None), ("zstd", None),
])
def test_page_is_compressed_as_the_client_accepts(client: FlaskClient, demo_catalogue: Flask, accept, expected):
    plain = client.get(PAGE)
    response = client.get(PAGE, headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert response.headers.get("Content-Encoding") == expected
    assert "Accept-Encoding" in response.headers["Vary"]
    assert response.headers["Content-Length"] == str(len(response.get_data()))
    assert without_nonce(decode(response)) == without_nonce(plain.get_data())
    if expected:
        assert len(response.get_data()) < len(plain.get_data()) / 2


def test_the_compressed_page_is_the_page(client: FlaskClient, demo_catalogue: Flask):
    plain = client.get(PAGE, headers={"Accept-Encoding": "identity"}).get_data()
    for encoding in ("br", "gzip"):
        assert decode(client.get(PAGE, headers={"Accept-Encoding": encoding})) == plain


@pytest.fixture
def asset(app: Flask, tmp_path: Path) -> tuple[str, bytes]:
    """A hashed script in a throwaway assets folder, with no pre-compressed sibling: Flask-Compress's to encode."""
    folder = tmp_path / "dist"
    folder.mkdir()
    data = b"export function f(){" + b"return 'player';" * 400 + b"}\n"
    (folder / "entry-ABCD1234.js").write_bytes(data)
    app.config["ASSETS_DIR"] = str(folder)
    return "/assets/entry-ABCD1234.js", data


@pytest.mark.parametrize(("accept", "expected"), [(CHROME, "br"), ("gzip", "gzip"), ("", None)])
def test_assets_are_compressed_and_stay_immutable(client: FlaskClient, asset, accept, expected):
    url, original = asset
    response = client.get(url, headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers.get("Content-Encoding") == expected
    assert decode(response) == original
    assert response.cache_control.immutable and response.cache_control.max_age == 31_536_000
    etag, weak = response.get_etag()
    assert etag and not weak
    if expected:
        assert etag.endswith(f":{expected}")  # a different representation, a different strong ETag
        assert "Accept-Ranges" not in response.headers
        assert len(response.get_data()) < len(original) / 2

    again = client.get(url, headers={"Accept-Encoding": accept, "If-None-Match": f'"{etag}"'})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert "Accept-Encoding" in again.headers["Vary"]


def test_a_pre_compressed_asset_is_passed_through(client: FlaskClient, assets_built, entry_script):
    """The build may write .br/.gz siblings (app/player/static.py serves them): never encoded a second time."""
    original = (assets_built / entry_script.removeprefix("/assets/")).read_bytes()
    for accept in (CHROME, "gzip", ""):
        response = client.get(entry_script, headers={"Accept-Encoding": accept})
        assert response.status_code == 200
        assert decode(response) == original
        assert response.cache_control.immutable
        etag, _ = response.get_etag()
        assert client.get(entry_script, headers={"Accept-Encoding": accept,
                                                 "If-None-Match": f'"{etag}"'}).status_code == 304


def test_a_range_request_is_never_compressed(client: FlaskClient, asset):
    url, original = asset
    response = client.get(url, headers={"Accept-Encoding": CHROME, "Range": "bytes=100-199"})
    assert response.status_code == 206
    assert "Content-Encoding" not in response.headers
    assert response.get_data() == original[100:200]


@pytest.mark.parametrize("name", ["t/seg_00001.m4s", "t/film.mp4"])
def test_media_is_never_compressed(client: FlaskClient, media, name):
    response = client.get(f"/media/{name}", headers={"Accept-Encoding": CHROME})
    assert response.status_code == 200
    assert response.mimetype.startswith("video/")
    assert "Content-Encoding" not in response.headers
    assert "Vary" not in response.headers
    assert response.get_data() == media[name]

    partial = client.get(f"/media/{name}", headers={"Accept-Encoding": CHROME, "Range": "bytes=0-99"})
    assert partial.status_code == 206
    assert "Content-Encoding" not in partial.headers
    assert partial.get_data() == media[name][:100]


@pytest.mark.parametrize(("name", "mimetype"), [("t/index.m3u8", "application/vnd.apple.mpegurl"),
                                                ("t/ru.vtt", "text/vtt")])
def test_playlists_and_subtitles_are_compressed(client: FlaskClient, media, name, mimetype):
    response = client.get(f"/media/{name}", headers={"Accept-Encoding": CHROME})
    assert response.mimetype == mimetype
    assert response.headers["Content-Encoding"] == "br"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert decode(response) == media[name]
    assert client.get(f"/media/{name}").headers.get("Content-Encoding") is None


def test_api_json_is_compressed(client: FlaskClient, demo_catalogue: Flask):
    plain = client.get("/openapi.json")
    response = client.get("/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert decode(response) == plain.get_data()
