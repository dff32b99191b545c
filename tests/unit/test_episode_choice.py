"""The four-step episode choice (spec §2), each rule and where it falls through."""

from app.services.player.episodes import EpisodeRef, choose_episode, play_order

# Two seasons of three, deliberately listed out of order.
S2E1, S2E2, S2E3 = EpisodeRef(21, 1, 2), EpisodeRef(22, 2, 2), EpisodeRef(23, 3, 2)
S1E1, S1E2, S1E3 = EpisodeRef(11, 1, 1), EpisodeRef(12, 2, 1), EpisodeRef(13, 3, 1)
SERIES = [S2E2, S1E3, S2E1, S1E1, S2E3, S1E2]


def test_play_order_is_season_order_then_episode_order():
    assert play_order(SERIES) == [S1E1, S1E2, S1E3, S2E1, S2E2, S2E3]


def test_no_episodes():
    assert choose_episode([], episode_id=1, season=1, episode=1) is None


def test_rule_1_explicit_episode_id_wins_over_everything():
    assert choose_episode(SERIES, episode_id=22, season=1, episode=3, completed={22}) == S2E2


def test_rule_1_unknown_episode_id_falls_through_to_season_and_episode():
    assert choose_episode(SERIES, episode_id=999, season=2, episode=3) == S2E3


def test_rule_2_season_and_episode_match_orders_not_ids():
    assert choose_episode(SERIES, season=1, episode=2) == S1E2


def test_rule_2_episode_defaults_to_one():
    assert choose_episode(SERIES, season=2) == S2E1


def test_rule_2_no_match_falls_through_to_first_not_completed():
    assert choose_episode(SERIES, season=3, episode=1, completed={11}) == S1E2
    assert choose_episode(SERIES, season=1, episode=9, completed={11, 12}) == S1E3


def test_rule_3_first_not_completed_in_play_order():
    assert choose_episode(SERIES, completed={11, 12, 13}) == S2E1


def test_rule_4_all_completed_gives_the_first():
    assert choose_episode(SERIES, completed={11, 12, 13, 21, 22, 23}) == S1E1


def test_rule_4_nothing_completed_gives_the_first():
    assert choose_episode(SERIES) == S1E1


def test_a_film_has_one_seasonless_episode():
    film = EpisodeRef(1, 1, None)
    assert choose_episode([film], season=1, episode=1) == film
    assert choose_episode([film], episode_id=2) == film
