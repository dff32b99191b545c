"""POST and GET /episodes/fresh (the newest episodes across series) and GET /episodes/{id}/resource (what the player
needs to play one episode), spec §7 "Catalogue: persons, episodes, countries"."""

import re
from datetime import UTC, datetime, timedelta

import pytest

from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import Content, Episode, Season
from tests.api.queries import statements
from tests.api.test_catalogue_api import assert_error

LONG_AGO = datetime(2020, 1, 1, tzinfo=UTC)


def add_series(app, title, episodes, added, published=True):
    """A series of one season with ``episodes`` episodes, the n-th added ``n`` hours after ``added``; its ids."""
    with app.app_context():
        content = Content(title=title, content_type_id=2, has_multiple_episodes=True, published=published)
        season = Season(content=content, order=1, title="Сезон 1")
        content.episodes = [Episode(season=season, order=n, title=f"Серия {n}", duration=1500 + n,
                                    master_file_path="/media/titles/series-s1e1/master.json",
                                    created_at=added + timedelta(hours=n)) for n in range(1, episodes + 1)]
        db.session.add(content)
        db.session.commit()
        invalidate_catalogue()
        return content.id, [episode.id for episode in content.episodes]


@pytest.fixture
def dated(app, demo_catalogue):
    """The demo's series (its episodes dated long ago), and two more: one newer, one unpublished and newest."""
    with app.app_context():
        db.session.execute(Episode.__table__.update().values(created_at=LONG_AGO))
        db.session.commit()
    newer = add_series(app, "Новая серия", 3, datetime(2026, 5, 1, tzinfo=UTC))
    hidden = add_series(app, "Скрытый сериал", 2, datetime(2026, 6, 1, tzinfo=UTC), published=False)
    return {"newer": newer, "hidden": hidden}


def fresh(client, query="", method="get", body=None):
    response = client.post("/episodes/fresh", json=body or {}) if method == "post" \
        else client.get(f"/episodes/fresh{query}")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_fresh_episodes_are_the_last_added_of_published_series_first(client, dated):
    newer_id, newer_episodes = dated["newer"]
    answer = fresh(client, "?pageSize=4")
    assert [item["id"] for item in answer["items"]] == [*reversed(newer_episodes), 7]  # then the demo's last
    assert answer["total"] == 3 + 6  # the new series and the demo's; the unpublished one, and films, are not there
    first = answer["items"][0]
    assert first["content"]["id"] == newer_id and first["content"]["title"] == "Новая серия"
    assert first["season"] == {"id": first["season"]["id"], "order": 1, "title": "Сезон 1"}
    assert first["addedAt"] == "2026-05-01T03:00:00+00:00"
    assert "m3u8MasterFilePath" not in first  # a list names no media: GET /episodes/{id}/resource does
    # the demo's six share one time: the highest id first
    rest = fresh(client, "?pageSize=6&page=2")["items"]
    assert [item["content"]["id"] for item in rest] == [2, 2, 2]
    ids = [item["id"] for item in answer["items"][3:]] + [item["id"] for item in rest]
    assert ids == sorted(ids, reverse=True)


def test_fresh_episodes_post_takes_the_body_and_a_type(client, dated):
    assert fresh(client, method="post", body={"pageSize": 2}) == fresh(client, "?pageSize=2")
    assert fresh(client, method="post", body={"type": "film"})["total"] == 0
    assert fresh(client, "?type=series")["total"] == 9


@pytest.mark.parametrize("query", ["?type=Сериал", "?pageSize=101", "?page=0"])
def test_fresh_episodes_refuse_bad_input(client, dated, query):
    assert_error(client.get(f"/episodes/fresh{query}"), 422, "validation_error")


def test_fresh_episodes_ignore_a_query_key_they_do_not_know(client, dated):
    assert fresh(client, "?colour=red") == fresh(client)


def test_fresh_episodes_of_an_unknown_type_are_none(client, dated):
    """A filter value that names nothing matches nothing, as on every list (docs/api.md, Lists)."""
    for response in (client.post("/episodes/fresh", json={"type": "opera"}), client.get("/episodes/fresh?type=opera")):
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["items"] == [] and response.get_json()["total"] == 0


def test_fresh_episodes_cost_the_same_queries_for_a_page_of_one_or_fifty(app, client, dated):
    app.config["SHARED_CACHE_SECONDS"] = 0
    for n in range(8):
        add_series(app, f"Сериал {n}", 8, datetime(2025, 1, 1 + n, tzinfo=UTC))
    with statements(app) as one:
        assert len(fresh(client, "?pageSize=1")["items"]) == 1
    with statements(app) as fifty:
        assert len(fresh(client, "?pageSize=50")["items"]) == 50
    assert len(one) == len(fifty) <= 5


def test_an_episodes_resource_is_what_the_player_plays(client, demo_catalogue):
    episodes = client.get("/episodes?content-id=2").get_json()
    answer = client.get(f"/episodes/{episodes[4]['id']}/resource").get_json()
    assert answer["available"] is True and answer["reason"] is None
    read = client.get("/contents/2").get_json()
    # the player's fields (spec §3): the read's labels without their titles (tests/api/test_title_page.py)
    labels = {"contentType": {"slug": read["contentType"]["slug"]},
              "countries": [{"slug": country["slug"]} for country in read["countries"]],
              "languages": [{"code": language["code"]} for language in read["languages"]]}
    assert answer["content"] == {**{k: v for k, v in read.items() if k in answer["content"]}, **labels}
    assert answer["content"]["title"] == "Тихая гавань"
    assert answer["episode"] == episodes[4]  # signed the same way, for the same viewer
    assert re.fullmatch(r"/media/s/[\w-]{22}/\d+/ru/2/titles/series-s2e2/master\.json",
                        answer["episode"]["m3u8MasterFilePath"])


@pytest.mark.parametrize(("content_id", "country", "referer", "reason"), [
    (3, "ru", None, "blocked_country"),
    (3, "de", None, None),
    (5, "ru", "https://other.example/film", "blocked_domain"),
    # licensed to partner.example: its player there plays it; an API answer never does, whatever Referer it names
    (5, "ru", "https://www.partner.example/film", "blocked_domain"),
    (5, "ru", None, "blocked_domain"),
])
def test_a_resource_names_no_media_where_the_title_does_not_play(client, demo_catalogue, behind_proxy, content_id,
                                                                 country, referer, reason):
    episode = client.get(f"/episodes?content-id={content_id}").get_json()[0]["id"]
    headers = {"X-Viewer-Country": country, **({"Referer": referer} if referer else {})}
    answer = client.get(f"/episodes/{episode}/resource", headers=headers).get_json()
    assert answer["reason"] == reason and answer["available"] is (reason is None)
    assert (answer["episode"]["m3u8MasterFilePath"] is None) is (reason is not None)


def test_a_resource_is_the_same_whatever_page_the_referer_names(client, demo_catalogue):
    """The API judges no Referer (anyone can write one), so its answers are the same for every caller in a country
    and may be shared, a domain-licensed title's included: it never carries that title's addresses."""
    episode = client.get("/episodes?content-id=5").get_json()[0]["id"]
    plain = client.get(f"/episodes/{episode}/resource")
    claimed = client.get(f"/episodes/{episode}/resource", headers={"Referer": "https://partner.example/film"})
    assert plain.get_json() == claimed.get_json() and claimed.get_json()["episode"]["m3u8MasterFilePath"] is None
    assert "s-maxage" in plain.headers["Cache-Control"]


def test_the_resource_of_an_unknown_or_unpublished_episode_is_a_404(app, client, dated):
    hidden_episode = dated["hidden"][1][0]
    for episode_id in (hidden_episode, 987654, 99999999999):
        assert_error(client.get(f"/episodes/{episode_id}/resource"), 404, "episode_not_found")
