"""What the transcoding job plans for a source (issue 35, docs/video-transcoding.md), without ffmpeg: the ladder's
rungs no taller than the source, the names and languages of the audio and subtitle renditions, the storyboard's tiles,
and the ffmpeg pass's keyframes at every segment boundary."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.services.media.ladder import Rung, choose, language_name, parse_ladder, short_language, unique
from app.services.media.probe import AudioStream, Source, SubtitleStream, VideoStream
from app.services.media.transcode import Options, encode_arguments, plan, storyboard_map

LADDER = parse_ladder("360:800,480:1400,720:2800,1080:5000")


def options(**changes: object) -> Options:
    values: dict = {"ladder": LADDER, "preset": "veryfast", "segment_seconds": 6, "audio_kbps": 128,
                    "loudnorm": "I=-16:TP=-1.5:LRA=11", "threads": 0, **changes}
    return Options(**values)


def a_source(width: int = 1920, height: int = 800, duration: float = 5400.0) -> Source:
    return Source(Path("/uploads/film.mkv"), "matroska,webm", duration, 1, VideoStream(0, "h264", width, height, 24.0),
                  (AudioStream(1, "ac3", 6, "rus", "Дубляж"), AudioStream(2, "aac", 2, "eng", None),
                   AudioStream(3, "aac", 2, None, None)),
                  (SubtitleStream(4, "subrip", "rus", None, True), SubtitleStream(5, "hdmv_pgs_subtitle", "eng", None,
                                                                                   False)))


def test_the_ladder_parses_and_refuses_what_is_wrong():
    assert parse_ladder(" 720:2800 , 360:800") == (Rung(360, 800), Rung(720, 2800))
    assert (Rung(720, 2800).maxrate, Rung(720, 2800).bufsize) == (2996, 4200)
    for wrong in ("720", "720:x", "", "720:2800,720:3000", "10:800"):
        with pytest.raises(ValueError, match="TRANSCODE_LADDER"):
            parse_ladder(wrong)


def test_a_source_gets_the_rungs_no_taller_than_it():
    assert [rung.height for rung in choose(LADDER, 1080)] == [360, 480, 720, 1080]
    assert [rung.height for rung in choose(LADDER, 800)] == [360, 480, 720]  # a 1920x800 scope film: no 1080
    assert choose(LADDER, 241) == (Rung(240, 356),)  # shorter than the lowest rung: itself, the bitrate by pixels


def test_languages_and_labels():
    assert [short_language(code) for code in ("rus", "ger", "eng", "ru", None)] == ["ru", "de", "en", "ru", None]
    assert [language_name(code) for code in ("rus", "eng", "xxx")] == ["Русский", "Английский", None]
    assert unique(["Русский", "Русский", "English"]) == ["Русский", "Русский 2", "English"]


def test_the_plan_names_every_audio_stream_and_skips_picture_subtitles():
    made = plan(a_source(), options())
    assert [(video.rung.name, video.width) for video in made.videos] == [("360p", 864), ("480p", 1152),
                                                                         ("720p", 1728)]
    assert [(audio.label, audio.language, audio.folder) for audio in made.audio] == [
        ("Дубляж", "ru", "audio-1"), ("Английский", "en", "audio-2"), ("Дорожка 3", None, "audio-3")]
    assert [(sub.label, sub.language, sub.file) for sub in made.subtitles] == [("Русский", "ru", "1-ru.vtt")]
    assert made.pictures_skipped == 1
    # 90 minutes: a tile every 18 s, 300 tiles on three sheets of 10x10, 160x66 each (the film's 2.4:1)
    assert (made.interval, made.tiles, made.columns, made.rows, made.tile_height) == (18, 300, 10, 10, 66)


def test_keyframes_at_every_segment_boundary_in_one_pass():
    args = encode_arguments(plan(a_source(), options()), options(), Path("/out"))
    assert args[args.index("-force_key_frames") + 1] == "expr:gte(t,n_forced*6)"
    assert args[args.index("-g") + 1] == args[args.index("-keyint_min") + 1] == "144"  # 6 s at 24 fps
    assert args[args.index("-sc_threshold") + 1] == "0"
    assert args.count("-i") == 1 and "split=4[s0][s1][s2][s3]" in args[args.index("-filter_complex") + 1]
    assert args[args.index("-var_stream_map") + 1] == ("v:0,name:360p v:1,name:480p v:2,name:720p "
                                                        "a:0,name:audio-1 a:1,name:audio-2 a:2,name:audio-3")
    assert "loudnorm=I=-16:TP=-1.5:LRA=11" in args[args.index("-filter_complex") + 1]


def test_the_storyboard_map_covers_the_film_to_its_end(tmp_path: Path):
    made = plan(a_source(duration=2000.5), options())  # a tile every 7 s: 286 tiles, the last on the third sheet
    (tmp_path / "storyboard").mkdir()
    for number in (1, 2, 3):
        (tmp_path / "storyboard" / f"sheet-{number:03d}.jpg").write_bytes(b"")
    cues = storyboard_map(made, tmp_path).split("\n\n")
    assert cues[1] == "00:00:00.000 --> 00:00:07.000\nsheet-001.jpg#xywh=0,0,160,66"
    assert cues[101] == "00:11:40.000 --> 00:11:47.000\nsheet-002.jpg#xywh=0,0,160,66"
    assert cues[-1].strip() == "00:33:15.000 --> 00:33:20.500\nsheet-003.jpg#xywh=800,528,160,66"
    assert len(cues) - 1 == made.tiles == 286


def test_the_transcode_settings_are_typed_and_checked_at_start():
    from app.config import Settings

    key = "k" * 48
    settings = Settings.from_env({"SECRET_KEY": key, "TRANSCODE_LADDER": "480:1200,240:300",
                                  "TRANSCODE_SEGMENT_SECONDS": "4", "TRANSCODE_THREADS": "2"})
    settings.check()
    assert Options.from_config(vars(settings)) == options(ladder=(Rung(240, 300), Rung(480, 1200)),
                                                          segment_seconds=4, threads=2)
    for wrong, match in (({"TRANSCODE_LADDER": "720:x"}, "TRANSCODE_LADDER"),
                         ({"TRANSCODE_SEGMENT_SECONDS": "12"}, "TRANSCODE_SEGMENT_SECONDS")):
        with pytest.raises(ValueError, match=match):
            Settings.from_env({"SECRET_KEY": key, **wrong}).check()
