"""Query parameters of the player page (spec §2, §5)."""

import pytest

from app.services.player.params import (
    InvalidMovieId,
    MissingMovieId,
    PlayerParams,
    parse_lang_order,
    parse_player_params,
    parse_time_code,
)


@pytest.mark.parametrize("query", [{}, {"movie_id": ""}, {"movie_id": "   "}, {"season": "1"}])
def test_missing_movie_id(query):
    with pytest.raises(MissingMovieId):
        parse_player_params(query)


@pytest.mark.parametrize("raw", ["abc", "12abc", "-1", "0", "1.5", "1e3", "99999999999", "０１"])
def test_movie_id_that_cannot_name_a_content(raw):
    with pytest.raises(InvalidMovieId):
        parse_player_params({"movie_id": raw})


def test_movie_id_is_an_integer():
    assert parse_player_params({"movie_id": " 42 "}) == PlayerParams(movie_id=42)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("90", 90), ("12.5", 12), ("0", 0), ("1.2.3", 1), ("007", 7), (".5", None), ("...", None), ("1:30", None),
     ("-5", None), ("10s", None), ("", None), (" 5", None), (None, None)],
)
def test_time_codes_are_digits_and_dots_read_as_whole_numbers(raw, expected):
    assert parse_time_code(raw) == expected


def test_time_codes_reach_the_params():
    params = parse_player_params({"movie_id": "1", "t": "125.9", "episode_time": "x"})
    assert params.time_code == 125
    assert params.episode_time is None


def test_episode_defaults_to_one_once_a_season_is_given():
    assert parse_player_params({"movie_id": "2", "season": "2"}).episode == 1
    assert parse_player_params({"movie_id": "2", "season": "2", "episode": "3"}).episode == 3
    assert parse_player_params({"movie_id": "2", "episode": "3"}).season is None


@pytest.mark.parametrize("raw", ["two", "-1", "0", "1.5", ""])
def test_garbage_numbers_are_ignored(raw):
    params = parse_player_params({"movie_id": "2", "season": raw, "episode": raw, "episode_id": raw})
    assert (params.season, params.episode, params.episode_id) == (None, None, None)


@pytest.mark.parametrize(("raw", "expected"), [("1", True), ("true", True), ("on", True), ("0", False),
                                               ("false", False), ("", False), ("yes please", False)])
def test_flags(raw, expected):
    params = parse_player_params({"movie_id": "1", "auto_play": raw, "enabled_share": raw,
                                  "disable_checking_available": raw})
    assert params.auto_play is params.enabled_share is params.disable_checking_available is expected


def test_free_text_is_trimmed_and_bounded():
    params = parse_player_params({"movie_id": "1", "user_id": "  u-1 ", "voice_author": "x" * 500})
    assert params.user_id == "u-1"
    assert params.voice_author is not None and len(params.voice_author) == 128


def test_lang_order():
    assert parse_lang_order("RU, en,ru,,<script>,pt-BR,toolonglang") == ("ru", "en", "pt-br")
    assert parse_lang_order(None) == ()
