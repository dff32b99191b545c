"""The playlist the player page carries (app/http/media.py first_playlist): the master JSON's default source, signed as
its signed address serves it, read from MEDIA_ROOT; nothing when it is not a file of ours to read. The demo's real
media: tests/api/test_licensed_media.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask

from app.http.media import PLAYLIST_INLINE_MAX, first_playlist, signed_prefix, starting_playlists

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
    assert first(app, address) == {"url": f"{prefix(app)}/dub.m3u8", "text": PLAYLIST,
                                   "media": [f"{prefix(app)}/video-240p.m3u8"]}


def test_without_a_default_the_first_source(app: Flask, title: Path):
    address = master(title, {"label": "", "link": "/media/titles/a/dub.m3u8"},
                     {"label": "", "link": "/media/titles/a/orig.m3u8", "isDefault": "yes"})  # not true: no default
    assert first(app, address)["url"] == f"{prefix(app)}/dub.m3u8"


def test_an_episode_whose_path_is_a_playlist_carries_that_one(app: Flask, title: Path):
    assert first(app, "/media/titles/a/dub.m3u8") == {"url": f"{prefix(app)}/dub.m3u8", "text": PLAYLIST,
                                                      "media": [f"{prefix(app)}/video-240p.m3u8"]}


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


# The demo's shape (instance/media/titles/film-long/master.m3u8), with a fifth variant, an I-frame playlist, subtitles,
# a variant on another host and one in a scheme no player fetches.
MASTER = """#EXTM3U
#EXT-X-VERSION:7
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Русский",LANGUAGE="ru",DEFAULT=YES,AUTOSELECT=YES,URI="audio-ru.m3u8"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="audio-en.m3u8"
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Русские",LANGUAGE="ru",DEFAULT=YES,URI="subs/ru.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1920x1080,CODECS="avc1.640028,mp4a.40.2",AUDIO="aud"
video-1080p.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=230590,RESOLUTION=426x240,CODECS="avc1.4d401e,mp4a.40.2",AUDIO="aud"
video-240p.m3u8
#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="iframes.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=588054,RESOLUTION=854x480,CODECS="avc1.4d401e,mp4a.40.2",AUDIO="aud"
video-480p.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=388494,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2",AUDIO="aud"
video-360p.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=1200000,RESOLUTION=1280x720,CODECS="avc1.4d401e,mp4a.40.2",AUDIO="aud"
https://cdn.example/a/video-720p.m3u8
"""


def test_the_media_playlists_a_player_starts_on_are_the_lowest_variants_and_their_default_audio():
    link = "/media/s/sig/1800000000/ru/7/titles/a/master.m3u8"
    assert starting_playlists(MASTER, link) == [
        "/media/s/sig/1800000000/ru/7/titles/a/video-240p.m3u8",
        "/media/s/sig/1800000000/ru/7/titles/a/video-360p.m3u8",
        "/media/s/sig/1800000000/ru/7/titles/a/video-480p.m3u8",
        "https://cdn.example/a/video-720p.m3u8",
        "/media/s/sig/1800000000/ru/7/titles/a/audio-ru.m3u8",
    ]  # never the fifth (1080p), the I-frames, the other audio or the subtitles


def test_no_media_playlists_from_a_media_playlist_or_a_link_no_player_fetches():
    assert starting_playlists("#EXTM3U\n#EXTINF:4.0,\nseg_00000.m4s\n", "/media/s/x/a/video.m3u8") == []
    assert starting_playlists("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\njavascript:alert(1)\n", "/media/a/m.m3u8") == []
    assert starting_playlists("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=x\nv.m3u8\n", "/m/a.m3u8") == ["/m/v.m3u8"]
