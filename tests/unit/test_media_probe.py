"""The source check of issue 35 (app/services/media/probe.py) on files ffmpeg makes here: what a usable source holds,
and the editor's reason for what cannot be used."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from app.services.media.probe import Unusable, probe, read

pytestmark = pytest.mark.skipif(shutil.which("ffprobe") is None, reason="bin/setup installs Debian's ffmpeg")


def ffmpeg(*arguments: str) -> None:
    subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments], check=True, timeout=60)


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two seconds of 320×180 picture, a Russian and an English audio stream, English text subtitles."""
    folder = tmp_path_factory.mktemp("source")
    subtitles = folder / "en.srt"
    subtitles.write_text("1\n00:00:00,500 --> 00:00:01,500\nHello\n", encoding="utf-8")
    target = folder / "source.mkv"
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2",
           "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-f", "lavfi", "-i", "sine=frequency=660:duration=2",
           "-i", str(subtitles), "-map", "0", "-map", "1", "-map", "2", "-map", "3",
           "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-c:s", "srt",
           "-metadata:s:a:0", "language=rus", "-metadata:s:a:1", "language=eng", "-metadata:s:a:1", "title=English",
           "-metadata:s:s:0", "language=eng", str(target))
    return target


def test_a_source_tells_its_streams_and_their_languages(source: Path):
    found = probe(source)
    assert "matroska" in found.container and 1.9 <= found.duration <= 2.2 and found.size == source.stat().st_size
    assert (found.video.codec, found.video.width, found.video.height, found.video.fps) == ("h264", 320, 180, 25.0)
    assert [(audio.language, audio.title, audio.channels) for audio in found.audio] == [
        ("rus", None, 1), ("eng", "English", 1)]
    assert [(subtitle.codec, subtitle.language, subtitle.text) for subtitle in found.subtitles] == [
        ("subrip", "eng", True)]


def test_what_is_no_video_is_refused_in_russian(tmp_path: Path):
    text = tmp_path / "notes.mp4"
    text.write_text("это не видео", encoding="utf-8")
    with pytest.raises(Unusable, match="не читается как видео"):
        probe(text)
    sound = tmp_path / "sound.m4a"
    ffmpeg("-f", "lavfi", "-i", "sine=duration=2", "-c:a", "aac", str(sound))
    with pytest.raises(Unusable, match=r"^В файле нет видеодорожки\.$"):
        probe(sound)


@pytest.mark.parametrize(("streams", "container", "reason"), [
    ([{"index": 0, "codec_type": "video", "codec_name": "mjpeg", "width": 600, "height": 600,
       "disposition": {"attached_pic": 1}}], {"duration": "5"}, "нет видеодорожки"),
    ([{"index": 0, "codec_type": "video", "codec_name": "h264", "width": 32, "height": 32}], {"duration": "5"},
     "Размер кадра 32×32 не поддерживается"),
    ([{"index": 0, "codec_type": "video", "codec_name": "h264", "width": 640, "height": 360}], {"duration": "0.4"},
     "меньше секунды"),
    ([{"index": 0, "codec_type": "video", "width": 640, "height": 360}], {"duration": "5"}, "Кодек"),
])
def test_a_cover_a_tiny_frame_a_blink_and_an_unknown_codec_are_refused(streams, container, reason):
    with pytest.raises(Unusable, match=reason):
        read(Path("x"), container, streams)


def test_picture_subtitles_are_told_apart_and_und_is_no_language():
    found = read(Path("x"), {"duration": "60", "format_name": "matroska,webm"}, [
        {"index": 0, "codec_type": "video", "codec_name": "hevc", "width": 3840, "height": 2160,
         "avg_frame_rate": "24000/1001"},
        {"index": 1, "codec_type": "audio", "codec_name": "ac3", "channels": 6, "tags": {"LANGUAGE": "und"}},
        {"index": 2, "codec_type": "subtitle", "codec_name": "hdmv_pgs_subtitle", "tags": {"language": "rus"}}])
    assert found.video.fps == 23.976 and found.audio[0].language is None and found.audio[0].channels == 6
    assert not found.subtitles[0].text and found.subtitles[0].language == "rus"
