"""The master JSON's storyboard (issue 35, contract 2) is signed like its sources: an origin-relative link into the
title's folder goes through the viewer's signed prefix; a link relative to the master, or elsewhere, is kept."""

from __future__ import annotations

import json

from flask import Flask

from app.http.media import sign_master


def signed(app: Flask, master: dict[str, object]) -> dict[str, object]:
    with app.app_context():
        document = sign_master(json.dumps(master).encode(), "titles/a", "/media/s/SIG/9/ru/2")
        found: dict[str, object] = json.loads(document)
        return found


def test_an_origin_relative_storyboard_is_signed_with_the_sources(app: Flask):
    master = {"sources": [{"label": "", "link": "/media/titles/a/master.m3u8", "isDefault": True}], "subtitles": [],
              "storyboard": "/media/titles/a/storyboard/map.vtt", "duration": 12.5}
    answer = signed(app, master)
    assert answer["storyboard"] == "/media/s/SIG/9/ru/2/storyboard/map.vtt"
    assert answer["sources"] == [{"label": "", "link": "/media/s/SIG/9/ru/2/master.m3u8", "isDefault": True}]
    assert answer["duration"] == 12.5


def test_a_relative_or_outside_storyboard_is_kept(app: Flask):
    assert signed(app, {"sources": [], "storyboard": "storyboard/map.vtt"})["storyboard"] == "storyboard/map.vtt"
    outside = "/media/titles/b/map.vtt"
    assert signed(app, {"sources": [], "storyboard": outside})["storyboard"] == outside
    assert "storyboard" not in signed(app, {"sources": []})
