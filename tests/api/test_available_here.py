"""The "available here" filter (``availableHere=true``) of the lists, search and marts: only the titles the API plays
for the viewer's country, as the database keeps where each plays (``contents.reach``, app/services/catalogue/reach.py).

The demo (app/demo/catalogue.py) plays 1, 2 and 4 everywhere (4's master path names a file never uploaded: the
database cannot tell, docs/api.md), 3 nowhere in Russia, 5 only in its partner's frames."""

import pytest
from sqlalchemy import delete, select

from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import AvailabilityRule, Content, Episode, Reach, RuleKind
from app.services.catalogue.reach import PlaysHere, playability, plays_here, refresh_reach
from tests.api.queries import statements
from tests.api.test_catalogue_api import assert_error

IN_RUSSIA = [1, 2, 4]  # the default country (DEFAULT_COUNTRY ru): 3 is blocked there, 5 licensed to a site
IN_GERMANY = [1, 2, 3, 4]


def change(app, edit):
    with app.app_context():
        edit()
        db.session.commit()
        invalidate_catalogue()


def ids(response):
    assert response.status_code == 200, response.get_json()
    return sorted(item["id"] for item in response.get_json()["items"])


def reaches(app):
    with app.app_context():
        return dict(db.session.execute(select(Content.id, Content.reach)).all())


def test_the_demo_reaches(app, demo_catalogue):
    assert reaches(app) == {1: Reach.EVERYWHERE, 2: Reach.EVERYWHERE, 3: Reach.EXCEPT_COUNTRIES, 4: Reach.EVERYWHERE,
                            5: Reach.NOWHERE}


@pytest.mark.parametrize("path", ["/contents", "/v2/contents/search?query=показывают"])  # 3's and 5's descriptions
def test_lists_and_search_keep_what_plays_in_the_viewers_country(client, demo_catalogue, behind_proxy, path):
    join = "&" if "?" in path else "?"
    every = ids(client.get(path))
    assert ids(client.get(f"{path}{join}availableHere=true")) == [i for i in IN_RUSSIA if i in every]
    germany = client.get(f"{path}{join}availableHere=true", headers={"X-Viewer-Country": "DE"})
    assert ids(germany) == [i for i in IN_GERMANY if i in every]
    assert ids(client.get(f"{path}{join}availableHere=false")) == every  # false asks nothing


def test_every_list_call_takes_it(client, demo_catalogue, behind_proxy):
    germany = {"X-Viewer-Country": "de"}
    assert ids(client.post("/contents", json={"availableHere": True})) == IN_RUSSIA
    assert ids(client.post("/contents?availableHere=true", json={"availableHere": False})) == [1, 2, 3, 4, 5]
    for version in ("", "/v2"):
        path = f"{version}/types/film/categories/drama-films/contents"
        assert ids(client.get(path)) == [1, 3, 4]
        assert ids(client.get(f"{path}?availableHere=true")) == [1, 4]
        assert ids(client.get(f"{path}?availableHere=true", headers=germany)) == [1, 3, 4]
        assert ids(client.post(path, json={"availableHere": True})) == [1, 4]
    search = {"query": "показывают", "availableHere": True}
    assert ids(client.post("/v2/contents/search", json=search)) == []
    assert ids(client.post("/v2/contents/search", json=search, headers=germany)) == [3]
    assert ids(client.post("/v2/playlists/1/contents", json={"availableHere": True})) == [1, 2]  # of 2, 1, 5
    assert ids(client.post("/v2/playlists/1/contents", json={"availableHere": True}, headers=germany)) == [1, 2]


def test_the_marts_take_it(client, demo_catalogue, behind_proxy):
    def mart(path, **headers):
        response = client.get(path, headers=headers)
        assert response.status_code == 200, response.get_json()
        return {(entry["category"]["contentType"]["slug"], entry["category"]["slug"]):
                [card["id"] for card in entry["contents"]] for entry in response.get_json()}

    assert sorted(mart("/categories/main-mart")[("film", "drama-films")]) == [1, 3, 4]
    here = mart("/categories/main-mart?availableHere=true")
    assert sorted(here[("film", "drama-films")]) == [1, 4] and here[("series", "new")] == [2]
    assert sorted(mart("/categories/main-mart/content-type/1?availableHere=true&limit=5",
                       **{"X-Viewer-Country": "de"})[("film", "drama-films")]) == [1, 3, 4]
    relevant = client.get("/contents/most-relevant?availableHere=true").get_json()
    assert sorted(card["id"] for card in relevant["items"]) == IN_RUSSIA and relevant["total"] == 3
    films = client.get("/contents/most-relevant?type=film&availableHere=true&pageSize=1&page=2").get_json()
    assert films["total"] == 2 and len(films["items"]) == 1  # 1 and 4; counted, not the type's kept total (4)


def test_the_promo_slider_takes_it(app, client, demo_catalogue, behind_proxy):
    def slides(query="", **headers):
        response = client.get(f"/contents/slider-promo{query}", headers=headers)
        assert response.status_code == 200, response.get_json()
        return [slide["content"]["id"] for slide in response.get_json()]

    def series_blocked_in_russia():
        series = db.session.get(Content, 2)
        series.availability_rules.append(AvailabilityRule(kind=RuleKind.BLOCK_COUNTRY, value="ru"))

    change(app, series_blocked_in_russia)
    assert slides() == [2, 1] and slides("?availableHere=false") == [2, 1]
    assert slides("?availableHere=true") == [1]
    assert slides("?availableHere=true", **{"X-Viewer-Country": "de"}) == [2, 1]


def test_the_filter_follows_the_rules_and_the_media_as_they_change(app, client, demo_catalogue, behind_proxy):
    germany = {"X-Viewer-Country": "de"}
    listed = "/contents?availableHere=true"
    def only_in_germany():
        film = db.session.get(Content, 1)
        film.availability_rules.append(AvailabilityRule(kind=RuleKind.ALLOW_COUNTRY, value="de"))

    change(app, only_in_germany)
    assert ids(client.get(listed)) == [2, 4]
    assert ids(client.get(listed, headers=germany)) == IN_GERMANY

    def no_media():
        for episode in db.session.scalars(select(Episode).where(Episode.content_id == 2)):
            episode.master_file_path = None if episode.id % 2 else ""

    change(app, no_media)
    assert ids(client.get(listed, headers=germany)) == [1, 3, 4]
    change(app, lambda: db.session.get(Episode, 4).__setattr__("master_file_path", "/media/titles/x/master.json"))
    assert ids(client.get(listed, headers=germany)) == IN_GERMANY  # one episode with media is enough

    def unlicense():
        partners, film = db.session.get(Content, 5), db.session.get(Content, 1)
        partners.availability_rules, film.availability_rules = [], []

    change(app, unlicense)
    assert ids(client.get(listed)) == [1, 2, 4, 5]
    change(app, lambda: db.session.delete(db.session.get(Episode, 10)))  # 5's only episode
    assert ids(client.get(listed)) == [1, 2, 4]
    assert reaches(app) == {1: Reach.EVERYWHERE, 2: Reach.EVERYWHERE, 3: Reach.EXCEPT_COUNTRIES, 4: Reach.EVERYWHERE,
                            5: Reach.NOWHERE}


def test_an_episode_moved_to_another_content_moves_its_media(app, demo_catalogue):
    change(app, lambda: db.session.get(Episode, 9).__setattr__("content_id", 5))  # 4's only episode, to 5
    assert reaches(app)[4] == Reach.NOWHERE
    change(app, lambda: db.session.execute(delete(AvailabilityRule).where(AvailabilityRule.content_id == 5)))
    with app.app_context():  # a statement the ORM does not see: written again by refresh_reach (the bulk commands')
        assert db.session.get(Content, 5).reach == Reach.NOWHERE
        refresh_reach(db.session)
        db.session.commit()
    assert reaches(app)[5] == Reach.EVERYWHERE


def test_paging_the_filtered_list_misses_nothing_and_repeats_nothing(app, client, demo_catalogue, behind_proxy):
    def add_titles():
        for number in range(12):
            content = Content(title=f"Фильм {number}", content_type_id=1, year=2000 + number)
            media = None if number % 3 == 0 else "/m.json"
            content.episodes.append(Episode(order=1, title="1", master_file_path=media))
            if number % 4 == 1:
                content.availability_rules.append(AvailabilityRule(kind=RuleKind.BLOCK_COUNTRY, value="ru"))
            db.session.add(content)

    change(app, add_titles)
    expected = sorted(i for i in ids(client.get("/contents?pageSize=100")) if i in playing(app, "ru"))
    assert len(expected) == 3 + 6  # the demo's three, and 8 of the 12 with media less the 2 blocked
    for sort in ("position", "year", "title"):
        seen, page, total = [], 1, None
        while True:
            response = client.get(f"/contents?availableHere=true&sort={sort}&pageSize=2&page={page}")
            assert response.status_code == 200, response.get_json()
            body = response.get_json()
            assert total in (None, body["total"])  # steady while paging
            total = body["total"]
            if not body["items"]:
                break
            seen += [item["id"] for item in body["items"]]
            page += 1
        assert total == len(expected) and len(seen) == len(set(seen)) and sorted(seen) == expected


def playing(app, country):
    """The ids that play in ``country`` by the one judgement of a title's snapshot (``playability``)."""
    with app.app_context():
        contents = db.session.scalars(select(Content)).all()
        return {content.id for content in contents if playability(
            [episode.master_file_path for episode in content.episodes],
            [(rule.kind, rule.value) for rule in content.availability_rules], country) is None}


@pytest.mark.parametrize("country", ["ru", "de", "fr", None])
def test_the_database_judges_as_the_snapshot_does(app, demo_catalogue, country):
    """Every combination of media and rules, asked of the database (``plays_here``) and of the values in hand
    (``playability``, what GET /contents/{id} says): the same titles."""
    rules = [(), ((RuleKind.BLOCK_COUNTRY, "ru"),), ((RuleKind.ALLOW_COUNTRY, "de"),),
             ((RuleKind.ALLOW_COUNTRY, "de"), (RuleKind.ALLOW_COUNTRY, "RU ")), ((RuleKind.BLOCK_COUNTRY, "de"),
                                                                                 (RuleKind.ALLOW_COUNTRY, "de")),
             ((RuleKind.ALLOW_DOMAIN, "partner.example"),), ((RuleKind.BLOCK_DOMAIN, "bad.example"),),
             ((RuleKind.BLOCK_DOMAIN, "bad.example"), (RuleKind.BLOCK_COUNTRY, "fr"))]

    def add_titles():
        for number, (media, kinds) in enumerate((media, kinds) for media in (None, "", "/m.json") for kinds in rules):
            content = Content(title=f"Т{number}", content_type_id=1)
            content.episodes.append(Episode(order=1, title="1", master_file_path=media))
            content.availability_rules = [AvailabilityRule(kind=kind, value=value) for kind, value in kinds]
            db.session.add(content)

    change(app, add_titles)
    with app.app_context():
        found = set(db.session.scalars(select(Content.id).where(plays_here(PlaysHere(country)))))
    expected = playing(app, country)
    assert found == expected and len(expected) >= 3


def test_a_bad_value_is_a_422(client, demo_catalogue):
    for path in ("/contents?availableHere=yes", "/contents/most-relevant?availableHere=1",
                 "/contents/slider-promo?availableHere=on",
                 "/categories/main-mart?availableHere=", "/v2/contents/search?query=a&availableHere=TRUE"):
        assert_error(client.get(path), 422, "validation_error")
    assert_error(client.post("/contents", json={"availableHere": "true"}), 422, "validation_error")


def test_kept_answers_are_the_countrys(client, demo_catalogue, behind_proxy):
    """The shared store and a CDN key on the country (Vary names its header): Germany's kept page is not Russia's."""
    path = "/contents?availableHere=true"
    russia = client.get(path)
    assert russia.headers["Cache-Control"].startswith("public") and "X-Viewer-Country" in russia.headers["Vary"]
    assert ids(client.get(path, headers={"X-Viewer-Country": "de"})) == IN_GERMANY
    assert ids(client.get(path)) == IN_RUSSIA


def test_the_filter_costs_no_query_more(app, client, demo_catalogue):
    for path in ("/contents", "/types/film/categories/drama-films/contents", "/categories/main-mart"):
        with statements(app) as plain:
            assert client.get(f"{path}?limit=3" if "mart" in path else path).status_code == 200
        with statements(app) as filtered:
            assert client.get(f"{path}?limit=3&availableHere=true" if "mart" in path
                              else f"{path}?availableHere=true").status_code == 200
        assert len(filtered) == len(plain) > 0, path


def test_rule_values_are_stored_as_they_are_compared(app, demo_catalogue):
    """Trimmed and in lower case (the admin's forms did so already; now every write through the ORM), so the filter
    compares them as they are, by their index."""
    def typed():
        film = db.session.get(Content, 1)
        film.availability_rules.append(AvailabilityRule(kind=RuleKind.ALLOW_COUNTRY, value=" DE "))

    change(app, typed)
    with app.app_context():
        values = db.session.scalars(select(AvailabilityRule.value).where(AvailabilityRule.content_id == 1)).all()
    assert values == ["de"]
    assert reaches(app)[1] == Reach.ONLY_COUNTRIES
