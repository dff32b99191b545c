"""What a title page reads in ``GET /contents/{id}`` beyond spec §3 (issue 33): the labels with their titles, the
categories with their parents (breadcrumbs), the runtime, and whether the title plays for the caller's country
(``playable``, ``reason``), shared per country. The player page's blob keeps spec §3's fields only
(tests/api/test_catalogue_api.py)."""

import pytest
from sqlalchemy import select, update

from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import AvailabilityRule, Category, Content, ContentCategory, Episode, RuleKind
from tests.api.queries import statements
from tests.api.test_player_page import page_context

FILM = {"slug": "film", "title": "Фильм"}


def change(app, edit):
    with app.app_context():
        edit()
        db.session.commit()
        invalidate_catalogue()


def read(client, content_id, **headers):
    response = client.get(f"/contents/{content_id}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_labels_carry_their_titles(client, demo_catalogue):
    closed = read(client, 3)
    assert closed["contentType"] == FILM
    assert closed["countries"] == [{"slug": "fr", "title": "Франция"}]
    assert closed["languages"] == [{"code": "fr", "title": "Français"}]
    assert read(client, 2)["contentType"] == {"slug": "series", "title": "Сериал"}
    card = next(c for c in client.get("/contents?pageSize=100").get_json()["items"] if c["id"] == 3)
    assert card["contentType"] == closed["contentType"] and card["genres"] == closed["genres"]  # the cards' shape
    assert page_context(client.get("/?movie_id=3"))["content"]["countries"] == [{"slug": "fr"}]  # the blob: spec §3


def test_the_categories_with_their_parents_root_first(app, client, demo_catalogue):
    def nest():
        drama = db.session.scalar(select(Category).where(Category.slug == "drama-films"))
        family = Category(content_type_id=1, slug="family-dramas", title="Семейные драмы", parent=drama)
        road = Category(content_type_id=1, slug="road-dramas", title="Дорожные драмы", parent=family)
        db.session.add_all([family, road])
        db.session.flush()
        db.session.add(ContentCategory(content_id=3, category_id=road.id))
        db.session.delete(db.session.get(ContentCategory, (3, drama.id)))  # its parents are not its own categories

    change(app, nest)
    with statements(app) as first_level:
        read(client, 1)
    with statements(app) as seen:
        categories = read(client, 3)["categories"]
    crumbs = [(c["slug"], [p["slug"] for p in c["parents"]]) for c in categories]
    assert crumbs == [("road-dramas", ["drama-films", "family-dramas"])]
    assert categories[0]["contentType"] == FILM and set(categories[0]["parents"][0]) == {"id", "slug", "title"}
    assert len(seen) == len(first_level) + 2  # one query per level of parents above the title's categories

    # each item names its list: /types/{contentType.slug}/categories/{slug}/contents
    listed = client.get(f"/types/{categories[0]['contentType']['slug']}/categories/road-dramas/contents")
    assert [item["id"] for item in listed.get_json()["items"]] == [3]


def test_a_loop_of_parents_ends(app, client, demo_catalogue):
    def loop():
        ids = dict(db.session.execute(select(Category.slug, Category.id).where(Category.content_type_id == 1)).all())
        for slug, parent in (("new", "drama-films"), ("drama-films", "new")):
            db.session.execute(update(Category).where(Category.id == ids[slug]).values(parent_id=ids[parent]))

    change(app, loop)
    crumbs = {c["slug"]: [p["slug"] for p in c["parents"]] for c in read(client, 1)["categories"]}
    assert crumbs == {"drama-films": ["new"], "new": ["drama-films"]}


def test_the_runtime(app, client, demo_catalogue):
    assert read(client, 1)["runtime"] == 1860  # the film's one episode
    with app.app_context():
        durations = sorted(db.session.scalars(select(Episode.duration).where(Episode.content_id == 2)))
    assert len(set(durations)) == 6 and read(client, 2)["runtime"] == round((durations[2] + durations[3]) / 2)

    def parts_and_gaps():
        db.session.add(Episode(content_id=3, order=2, title="Часть 2", duration=600))
        for episode in db.session.scalars(select(Episode).where(Episode.content_id == 2)):
            episode.duration = None if episode.id % 2 else 3000

    change(app, parts_and_gaps)
    assert read(client, 3)["runtime"] == 120 + 600  # a film in two parts: their sum
    assert read(client, 2)["runtime"] == 3000  # the series' episodes with a duration
    change(app, lambda: db.session.get(Episode, 1).__setattr__("duration", None))
    assert read(client, 1)["runtime"] is None


@pytest.mark.parametrize(("content_id", "country", "playable", "reason"), [
    (1, None, True, None),
    (3, None, False, "blocked_country"),  # the default country, ru
    (3, "de", True, None),
    (5, None, False, "blocked_domain"),  # its partner's frames only, never from an API answer
    (5, "de", False, "blocked_domain"),
])
def test_whether_it_plays_here(client, demo_catalogue, behind_proxy, content_id, country, playable, reason):
    body = read(client, content_id, **({"X-Viewer-Country": country} if country else {}))
    assert (body["playable"], body["reason"]) == (playable, reason)


def test_a_title_without_media_says_so_before_its_rules(app, client, demo_catalogue, behind_proxy):
    def no_media():
        for episode in db.session.scalars(select(Episode).where(Episode.content_id.in_((1, 3)))):
            episode.master_file_path = None

    change(app, no_media)
    assert (read(client, 1)["playable"], read(client, 1)["reason"]) == (False, "no_media")
    assert read(client, 3)["reason"] == "no_media"
    assert read(client, 3, **{"X-Viewer-Country": "de"})["reason"] == "no_media"
    assert client.get("/episodes?content-id=1").get_json()[0]["m3u8MasterFilePath"] is None


def test_playable_answers_as_the_available_here_filter(app, client, demo_catalogue, behind_proxy):
    def rules():
        film = db.session.get(Content, 1)
        film.availability_rules.append(AvailabilityRule(kind=RuleKind.ALLOW_COUNTRY, value="de"))
        db.session.get(Episode, 9).master_file_path = None  # 4's only one

    change(app, rules)
    for country in ("ru", "de", "fr"):
        headers = {"X-Viewer-Country": country}
        listed = {item["id"] for item in client.get("/contents?availableHere=true", headers=headers)
                  .get_json()["items"]}
        assert listed == {i for i in range(1, 6) if read(client, i, **headers)["playable"]}, country
        assert listed  # 2 plays everywhere


def test_the_read_is_shared_per_country(client, demo_catalogue, behind_proxy):
    russia = client.get("/contents/3")
    assert russia.headers["Cache-Control"].startswith("public") and "X-Viewer-Country" in russia.headers["Vary"]
    germany = client.get("/contents/3", headers={"X-Viewer-Country": "de"})
    assert germany.get_json()["playable"] is True and germany.headers["ETag"] != russia.headers["ETag"]
    assert client.get("/contents/3").get_json()["playable"] is False  # Russia's kept answer, still Russia's
    by_slug = client.get("/contents/by-slug/zakrytyy-pokaz", headers={"X-Viewer-Country": "de"}).get_json()
    assert by_slug == germany.get_json()
