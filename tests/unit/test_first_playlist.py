"""The playlist the player page carries (app/http/media.py first_playlist): the master JSON's default source, signed as
its signed address serves it, read from MEDIA_ROOT; nothing when it is not a file of ours to read. The demo's real
media: tests/api/test_licensed_media.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask

from app.http.media import PLAYLIST_INLINE_MAX, first_playlist, signed_prefix

PLAYLIST = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=230488,RESOLUTION=426x240\nvideo-240p.m3u8\n"


@pytest.fixture
def title(app: Flask, tmp_path: Path) -> Path:
    folder = tmp_path / "titles" / "a"
    folder.mkdir(parents=True)
    (folder / "dub.m3u8").write_text(PLAYLIST)
    (folder / "orig.m3u8").write_text("#EXTM3U\n# the original\n")
    app.config["MEDIA_ROOT"] = str(tmp_path)
    return folder


def master(folder: Path, *sources: dict[str, object]) -> str:
    (folder / "master.json").write_text(json.dumps({"sources": list(sources), "subtitles": []}))
    return "/media/titles/a/master.json"


def first(app: Flask, address: str | None) -> dict[str, str] | None:
    with app.test_request_context():
        return first_playlist(address, "ru", 7, 1_800_000_000)


def prefix(app: Flask) -> str:
    with app.test_request_context():
        return signed_prefix(7, "titles/a", "ru", 1_800_000_000)


def test_the_default_source_signed_as_the_master_names_it_with_its_text(app: Flask, title: Path):
    address = master(title, {"label": "Оригинал", "link": "/media/titles/a/orig.m3u8"},
                     {"label": "Дубляж", "link": "/media/titles/a/dub.m3u8", "isDefault": True})
    assert first(app, address) == {"url": f"{prefix(app)}/dub.m3u8", "text": PLAYLIST}


def test_without_a_default_the_first_source(app: Flask, title: Path):
    address = master(title, {"label": "", "link": "/media/titles/a/dub.m3u8"},
                     {"label": "", "link": "/media/titles/a/orig.m3u8", "isDefault": "yes"})  # not true: no default
    assert first(app, address) == {"url": f"{prefix(app)}/dub.m3u8", "text": PLAYLIST}


def test_an_episode_whose_path_is_a_playlist_carries_that_one(app: Flask, title: Path):
    assert first(app, "/media/titles/a/dub.m3u8") == {"url": f"{prefix(app)}/dub.m3u8", "text": PLAYLIST}


@pytest.mark.parametrize("link", [
    "https://cdn.example/titles/a/dub.m3u8",  # an outside CDN's
    "/media/titles/b/dub.m3u8",  # another title's folder: not signed by this prefix
    "/media/titles/a/missing.m3u8",
    "/media/titles/a/../a/dub.m3u8",
])
def test_nothing_for_a_playlist_not_ours_to_read(app: Flask, title: Path, link: str):
    assert first(app, master(title, {"label": "", "link": link, "isDefault": True})) is None


def test_nothing_for_an_unreadable_master_or_playlist(app: Flask, title: Path):
    assert first(app, "/media/titles/a/none.json") is None
    (title / "master.json").write_text("[1, 2]")
    assert first(app, "/media/titles/a/master.json") is None
    (title / "master.json").write_text("{not json")
    assert first(app, "/media/titles/a/master.json") is None
    assert first(app, master(title)) is None  # no source at all
    (title / "dub.m3u8").write_bytes(b"#EXTM3U\n\xff\xfe\n")  # not UTF-8
    assert first(app, "/media/titles/a/dub.m3u8") is None


def test_nothing_for_a_playlist_over_the_limit(app: Flask, title: Path):
    (title / "dub.m3u8").write_text("#EXTM3U\n" + "#" * PLAYLIST_INLINE_MAX)
    assert first(app, "/media/titles/a/dub.m3u8") is None


def test_nothing_outside_the_protected_folders(app: Flask, title: Path):
    assert first(app, None) is None
    assert first(app, "https://cdn.example/titles/a/master.json") is None
    assert first(app, "/media/posters/a.m3u8") is None
