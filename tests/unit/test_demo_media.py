"""The demo media generator, run once per session on two short titles (one long enough to loop the source)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

import pytest

from app.demo.catalogue import SEGMENT_SECONDS, DemoTitle
from app.demo.media import AUDIO, FPS, SAMPLE_RATE, SOURCE_SECONDS, VIDEO, find_ffmpeg, generate

TITLES = (DemoTitle("short", 8, voices=("Дубляж", "Оригинал")), DemoTitle("looped", 68))
BASE_SECONDS = 68
LOOP_PACKETS = {("video", v.name): SOURCE_SECONDS * FPS for v in VIDEO} | {
    ("audio", a.name): SOURCE_SECONDS * SAMPLE_RATE // a.frame_samples for a in AUDIO
}
RENDITIONS = list(LOOP_PACKETS)


class Generated(NamedTuple):
    root: Path
    log: list[str]


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    root = tmp_path_factory.mktemp("media")
    log: list[str] = []
    assert generate(root, titles=TITLES, log=log.append) is True
    return Generated(root, log)


@pytest.fixture(scope="session")
def media(generated: Generated) -> Path:
    return generated.root


def ffmpeg(*args: str) -> subprocess.CompletedProcess[str]:
    command = [find_ffmpeg(), "-nostdin", "-hide_banner", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def segments(playlist: Path) -> list[tuple[str, Path]]:
    """(EXTINF line, resolved segment path) of a media playlist."""
    lines = playlist.read_text("utf-8").splitlines()
    return [(line, playlist.parent / uri) for line, uri in pairwise(lines) if line.startswith("#EXTINF:")]


def seconds(extinf: str) -> float:
    return float(extinf.removeprefix("#EXTINF:").rstrip(","))


def packets(playlist: Path) -> list[list[str]]:
    """Stream-copied packets as framecrc rows: stream, dts, pts, duration, size, crc."""
    result = ffmpeg("-copyts", "-i", str(playlist), "-c", "copy", "-f", "framecrc", "-")
    assert result.returncode == 0, result.stderr
    return [[field.strip() for field in line.split(",")] for line in result.stdout.splitlines() if line[:1].isdigit()]


def test_progress_is_logged_per_step(generated: Generated) -> None:
    steps = [line for line in generated.log if not line.endswith("%")]
    assert steps[0] == f"[media 1/{len(steps)}] encoding {SOURCE_SECONDS} s source ({len(VIDEO)} video renditions)…"
    assert steps[-1] == f"[media {len(steps)}/{len(steps)}] writing 2 titles and posters…"
    assert f"[media 1/{len(steps)}]   100 %" in generated.log


def test_second_run_is_a_no_op(media: Path) -> None:
    assert generate(media, titles=TITLES, log=pytest.fail) is False


def test_only_the_published_trees_remain(media: Path) -> None:
    assert sorted(path.name for path in media.iterdir()) == [".stamp", "base", "posters", "titles"]
    assert sorted(path.name for path in (media / "base").iterdir()) == ["audio", "video"]


@pytest.mark.parametrize(("kind", "name"), RENDITIONS)
def test_base_rendition_is_cut_in_segments_of_4_s(media: Path, kind: str, name: str) -> None:
    playlist = media / "base" / kind / name / "index.m3u8"
    listed = segments(playlist)
    assert len(listed) == math.ceil(BASE_SECONDS / SEGMENT_SECONDS)
    assert (playlist.parent / "init.mp4").is_file()
    assert all(path.is_file() for _, path in listed)
    durations = [seconds(extinf) for extinf, _ in listed]
    if kind == "video":
        assert durations == [SEGMENT_SECONDS] * len(durations)
    else:  # AAC frames (1024 samples) do not divide 4 s: its segments are a frame longer or shorter
        assert all(abs(duration - SEGMENT_SECONDS) < 0.033 for duration in durations)
    assert sum(durations) == pytest.approx(BASE_SECONDS, abs=0.033)


@pytest.mark.parametrize(("kind", "name"), RENDITIONS)
def test_base_loops_the_source_without_gaps_or_drift(media: Path, kind: str, name: str) -> None:
    rows = packets(media / "base" / kind / name / "index.m3u8")
    for previous, row in pairwise(rows):
        assert int(row[1]) == int(previous[1]) + int(previous[3]), f"gap after dts {previous[1]}"
    loop = LOOP_PACKETS[kind, name]
    assert rows[loop][4:6] == rows[0][4:6]  # the second loop starts with the first packet, exactly 64 s later
    assert int(rows[loop][2]) == loop * int(rows[0][3])


@pytest.mark.parametrize("title", TITLES, ids=lambda title: title.slug)
def test_title_playlists_take_the_first_base_segments_as_their_own_files(media: Path, title: DemoTitle) -> None:
    """Each title holds what it plays (its signed address reaches nothing else): the first base segments, linked."""
    count = title.duration // SEGMENT_SECONDS
    folder = media / "titles" / title.slug
    for kind, name in RENDITIONS:
        playlist = folder / f"{kind}-{name}.m3u8"
        text = playlist.read_text("utf-8")
        assert text.startswith(
            "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            f'#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MAP:URI="{kind}-{name}/init.mp4"\n'
        )
        assert text.endswith("#EXT-X-ENDLIST\n")
        base = segments(media / "base" / kind / name / "index.m3u8")[:count]
        own = segments(playlist)
        assert [extinf for extinf, _ in own] == [extinf for extinf, _ in base]
        for (_, path), (_, original) in zip(own, base, strict=True):
            assert path.parent == folder / f"{kind}-{name}" and path.name == original.name
            assert path.samefile(original)  # a hard link: no second copy on disk
        assert (folder / f"{kind}-{name}" / "init.mp4").samefile(media / "base" / kind / name / "init.mp4")
    assert not any(path.is_symlink() for path in folder.rglob("*"))


def test_one_hls_master_per_voice(media: Path) -> None:
    short, looped = (media / "titles" / title.slug for title in TITLES)
    assert sorted(path.name for path in short.glob("master*.m3u8")) == ["master-2.m3u8", "master.m3u8"]
    assert [path.name for path in looped.glob("master*.m3u8")] == ["master.m3u8"]
    defaults = {}
    for name in ("master.m3u8", "master-2.m3u8"):
        lines = (short / name).read_text("utf-8").splitlines()
        media_lines = [line for line in lines if line.startswith("#EXT-X-MEDIA:")]
        assert len(media_lines) == len(AUDIO)
        assert all('GROUP-ID="aud"' in line and 'CHANNELS="2"' in line for line in media_lines)
        assert all((short / line.split('URI="')[1].rstrip('"')).is_file() for line in media_lines)
        defaults[name] = [line.split('LANGUAGE="')[1][:2] for line in media_lines if "DEFAULT=YES" in line]
        ac3 = next(line for line in media_lines if 'URI="audio-ac3.m3u8"' in line)
        assert 'NAME="Русский AC3"' in ac3 and "DEFAULT=NO,AUTOSELECT=NO" in ac3
        variants = [(line, uri) for line, uri in pairwise(lines) if line.startswith("#EXT-X-STREAM")]
        assert [uri for _, uri in variants] == [f"video-{v.name}.m3u8" for v in VIDEO]
        for (line, _), rendition in zip(variants, VIDEO, strict=True):
            attributes = dict(part.split("=", 1) for part in line.split(":", 1)[1].split(",") if "=" in part)
            assert attributes["RESOLUTION"] == f"{rendition.width}x{rendition.height}"
            assert attributes["FRAME-RATE"] == "24.000"
            assert attributes["AUDIO"] == '"aud"'
            assert int(attributes["BANDWIDTH"]) >= int(attributes["AVERAGE-BANDWIDTH"]) > rendition.bitrate // 2
        assert all('CODECS="avc1.4d401e,mp4a.40.2"' in line for line, _ in variants)
    assert defaults == {"master.m3u8": ["ru"], "master-2.m3u8": ["en"]}


def test_master_json(media: Path) -> None:
    master = json.loads((media / "titles" / "short" / "master.json").read_text("utf-8"))
    assert master == {
        "sources": [
            {"label": "Дубляж", "link": "/media/titles/short/master.m3u8", "isDefault": True},
            {"label": "Оригинал", "link": "/media/titles/short/master-2.m3u8", "isDefault": False},
        ],
        "subtitles": [
            {"label": "Русские", "language": "ru", "src": "/media/titles/short/subs/ru.vtt"},
            {"label": "English", "language": "en", "src": "/media/titles/short/subs/en.vtt"},
        ],
    }
    looped = json.loads((media / "titles" / "looped" / "master.json").read_text("utf-8"))
    assert looped["sources"] == [{"label": "Дубляж", "link": "/media/titles/looped/master.m3u8", "isDefault": True}]


@pytest.mark.parametrize("title", TITLES, ids=lambda title: title.slug)
def test_subtitles_cover_the_title_every_4_s(media: Path, title: DemoTitle) -> None:
    for language, text in (("ru", "Субтитры, реплика"), ("en", "Subtitles, line")):
        vtt = (media / "titles" / title.slug / "subs" / f"{language}.vtt").read_text("utf-8")
        assert vtt.startswith("WEBVTT\n\n")
        timings = [line for line in vtt.splitlines() if " --> " in line]
        assert len(timings) == title.duration // SEGMENT_SECONDS
        assert timings[0] == "00:00:00.000 --> 00:00:04.000"
        assert timings[-1].endswith(f" --> 00:{title.duration // 60:02d}:{title.duration % 60:02d}.000")
        assert f"{text} {len(timings)}" in vtt


def test_posters_are_640x360_jpegs(media: Path) -> None:
    for title in TITLES:
        poster = media / "posters" / f"{title.slug}.jpg"
        assert poster.read_bytes()[:3] == b"\xff\xd8\xff"
        assert "mjpeg" in (probe := ffmpeg("-i", str(poster)).stderr) and "640x360" in probe
    assert (media / "posters" / "short.jpg").read_bytes() != (media / "posters" / "looped.jpg").read_bytes()


@pytest.mark.parametrize("title", TITLES, ids=lambda title: title.slug)
def test_every_master_decodes_without_errors(media: Path, title: DemoTitle) -> None:
    # All streams are mapped: ffmpeg's HLS demuxer logs bogus NAL errors for the variants it discards.
    for master in (media / "titles" / title.slug).glob("master*.m3u8"):
        result = ffmpeg("-v", "error", "-i", str(master), "-map", "0", "-f", "null", "-")
        assert (result.returncode, result.stderr) == (0, "")


def test_changed_titles_are_rewritten_without_reencoding_base(media: Path, tmp_path: Path) -> None:
    copy = tmp_path / "media"
    shutil.copytree(media, copy)
    base_inode = (copy / "base").stat().st_ino
    log: list[str] = []
    assert generate(copy, titles=TITLES, url_prefix="/cdn", log=log.append) is True
    assert log == ["[media 1/1] writing 2 titles and posters…"]
    assert (copy / "base").stat().st_ino == base_inode
    master = json.loads((copy / "titles" / "short" / "master.json").read_text("utf-8"))
    assert master["sources"][0]["link"] == "/cdn/titles/short/master.m3u8"
    assert generate(copy, titles=TITLES, url_prefix="/cdn", log=pytest.fail) is False


def test_interrupted_run_is_not_taken_for_done(media: Path, tmp_path: Path) -> None:
    copy = tmp_path / "media"
    shutil.copytree(media, copy)

    def fail_on_titles(line: str) -> None:
        if "titles" in line:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate(copy, titles=TITLES, url_prefix="/cdn", log=fail_on_titles)
    assert not (copy / ".stamp").exists()
