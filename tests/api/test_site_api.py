"""GET /menu, /redirect-info, /main-redirect-info, /contents/slider-promo (spec §7): the site around the player.

Demo data (app/demo/extras.py): the menu «Фильмы» (/films, with «Новинки» and «Драмы») and «Сериалы» (/series); one
redirect, /film/1-dolgaya-doroga → /films/dolgaya-doroga-domoy (301); two promo slides, «Новый сезон «Тихой гавани»»
(content 2) then the film of content 1 under its own title, both always active.
"""

from datetime import UTC, datetime, timedelta

import pytest

from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import Category, Content, ContentType, MenuItem, PromoSlide, Redirect
from tests.api.queries import statements
from tests.api.test_catalogue_api import assert_error

SHARED = "public, max-age=0, s-maxage=60, stale-while-revalidate=300"
OLD, NEW = "/film/1-dolgaya-doroga", "/films/dolgaya-doroga-domoy"


def change(app, *rows, **published):
    """Adds ``rows`` (and sets contents' ``published`` by ``content_<id>=bool``), as an editor would: what was kept of
    the catalogue is stale afterwards."""
    with app.app_context():
        db.session.add_all(rows)
        for name, value in published.items():
            db.session.get(Content, int(name.removeprefix("content_"))).published = value
        db.session.commit()
        invalidate_catalogue()


# --- the menu


def test_the_menu_is_the_demo_tree_in_order(client, demo_catalogue):
    response = client.get("/menu")
    assert response.status_code == 200
    assert response.get_json() == [
        {"title": "Фильмы", "url": "/films", "list": {"type": "film", "category": None}, "children": [
            {"title": "Новинки", "url": "/films/new", "list": {"type": "film", "category": "new"}, "children": []},
            {"title": "Драмы", "url": "/films/drama-films", "list": {"type": "film", "category": "drama-films"},
             "children": []},
        ]},
        {"title": "Сериалы", "url": "/series", "list": {"type": "series", "category": None}, "children": []},
    ]
    assert response.headers["Cache-Control"] == SHARED and response.headers["ETag"]


def test_the_menu_follows_positions_at_every_level_and_any_depth(app, client, demo_catalogue):
    with app.app_context():
        films = db.session.scalars(db.select(MenuItem).where(MenuItem.url == "/films")).one()
        new = db.session.scalars(db.select(MenuItem).where(MenuItem.url == "/films/new")).one()
        films.position = 5  # after «Сериалы» now
        new.position = 9  # after «Драмы»
        db.session.add(MenuItem(title="Избранное", url="https://other.example/top", position=-1))
        new.children.append(MenuItem(title="Этой недели", url="/films/new/week", position=0))
        db.session.commit()
        invalidate_catalogue()
    tree = client.get("/menu").get_json()
    assert [item["title"] for item in tree] == ["Избранное", "Сериалы", "Фильмы"]
    assert [item["title"] for item in tree[2]["children"]] == ["Драмы", "Новинки"]
    assert tree[2]["children"][1]["children"] == [{"title": "Этой недели", "url": "/films/new/week", "list": None,
                                                   "children": []}]


def test_the_menu_is_one_query_however_big(app, client, demo_catalogue):
    app.config["SHARED_CACHE_SECONDS"] = 0  # every request runs the view
    with statements(app) as small:
        client.get("/menu")
    with app.app_context():
        for index in range(20):
            db.session.add(MenuItem(title=f"Раздел {index}", url=f"/s/{index}", position=10 + index,
                                    children=[MenuItem(title="Подраздел", url=f"/s/{index}/x")]))
        db.session.commit()
    with statements(app) as big:
        tree = client.get("/menu").get_json()
    assert len(tree) == 22 and len(small) == len(big) == 1


def test_every_list_an_entry_opens_is_there(client, demo_catalogue):
    """What a site does with an entry's list: ask it. The type's titles, or the category's."""
    for entry in [item for top in client.get("/menu").get_json() for item in (top, *top["children"])]:
        opened = entry["list"]
        if opened["category"] is None:
            response = client.get("/contents", query_string={"type": opened["type"]})
        else:
            response = client.get(f"/types/{opened['type']}/categories/{opened['category']}/contents")
        assert response.status_code == 200 and response.get_json()["total"] > 0, entry


def test_an_entry_s_list_follows_its_category_and_goes_with_it(app, client, demo_catalogue):
    app.config["SHARED_CACHE_SECONDS"] = 0
    with app.app_context():
        drama = db.session.scalars(db.select(MenuItem).where(MenuItem.url == "/films/drama-films")).one()
        detective = db.session.scalars(db.select(Category).where(Category.slug == "detective-series")).one()
        drama.category, drama.content_type = detective, None  # a category names its own type
        db.session.commit()
    films = client.get("/menu").get_json()[0]
    assert films["children"][1]["list"] == {"type": "series", "category": "detective-series"}
    with app.app_context():
        cartoons = ContentType(slug="cartoons", title="Мультфильмы")
        db.session.add(MenuItem(title="Мультфильмы", url="/cartoons", position=9, content_type=cartoons))
        db.session.commit()
    assert client.get("/menu").get_json()[2]["list"] == {"type": "cartoons", "category": None}
    with app.app_context():
        db.session.execute(db.delete(Category).where(Category.slug == "detective-series"))
        db.session.execute(db.delete(ContentType).where(ContentType.slug == "cartoons"))
        db.session.commit()
    tree = client.get("/menu").get_json()
    assert tree[0]["children"][1]["list"] is None and tree[2]["list"] is None  # the entries stay, with no list
    assert (tree[0]["children"][1]["url"], tree[2]["url"]) == ("/films/drama-films", "/cartoons")


def test_a_loop_an_edit_made_is_left_out_not_endless(app, client, demo_catalogue):
    with app.app_context():
        one, two = MenuItem(title="Один", url="/one"), MenuItem(title="Два", url="/two")
        db.session.add_all([one, two])
        db.session.flush()
        one.parent_id, two.parent_id = two.id, one.id
        db.session.commit()
        invalidate_catalogue()
    tree = client.get("/menu").get_json()
    assert [item["title"] for item in tree] == ["Фильмы", "Сериалы"]


def test_an_empty_menu_is_an_empty_list(client, app):
    assert client.get("/menu").get_json() == []


# --- redirects


@pytest.mark.parametrize(("asked", "location"), [
    (OLD, NEW),
    (OLD + "/", NEW),  # a trailing slash is the same path
    (OLD + "//", NEW),
    (OLD + "?utm_source=vk&s=2", NEW + "?utm_source=vk&s=2"),  # the query goes on
    (OLD + "/?s=2", NEW + "?s=2"),
    (OLD + "?", NEW),
    (OLD + "#cast", NEW + "#cast"),
])
def test_an_old_path_says_where_it_lives(client, demo_catalogue, asked, location):
    response = client.get("/redirect-info", query_string={"path": asked})
    assert response.status_code == 200
    assert response.get_json() == {"path": asked, "location": location, "status": 301}
    assert response.headers["Cache-Control"] == SHARED


@pytest.mark.parametrize("asked", [
    "/films/dolgaya-doroga-domoy",  # where it lives already
    OLD + "/extra",  # only the exact path moved
    "/film/1-dolgaya",  # nor its prefix
    OLD.upper(),  # paths are case-sensitive
    "/",
    "/нет/такой страницы?q=' OR 1=1 --",
])
def test_a_path_that_has_not_moved_gets_nulls(client, demo_catalogue, asked):
    response = client.get("/redirect-info", query_string={"path": asked})
    assert response.status_code == 200
    assert response.get_json() == {"path": asked, "location": None, "status": None}


def test_the_query_joins_one_the_new_address_has_and_its_fragment_stays(app, client, demo_catalogue):
    change(app, Redirect(from_path="/old-series/", to_path="/series/tikhaya-gavan?season=2#episodes", status=302))
    body = client.get("/redirect-info?path=/old-series%3Fs%3D1%23top").get_json()
    assert body == {"path": "/old-series?s=1#top", "location": "/series/tikhaya-gavan?season=2&s=1#episodes",
                    "status": 302}
    # stored with a trailing slash, asked without it: the same path
    assert client.get("/redirect-info?path=/old-series").get_json()["location"] == \
        "/series/tikhaya-gavan?season=2#episodes"


@pytest.mark.parametrize("query", ["", "?path=", "?path=film/1", "?path=https://evil.example/x",
                                   "?path=/" + "a" * 1024])
def test_the_path_is_required_and_a_site_path(client, demo_catalogue, query):
    error = assert_error(client.get(f"/redirect-info{query}"), 422, "validation_error")
    assert "path" in error["details"]["fields"]


def test_a_path_of_the_longest_length_is_asked(client, demo_catalogue):
    asked = "/" + "a" * 1023
    assert client.get("/redirect-info", query_string={"path": asked}).get_json()["location"] is None


def test_the_main_redirect_is_nothing_until_there_is_one(app, client, demo_catalogue):
    assert client.get("/main-redirect-info").get_json() == {"path": "/", "location": None, "status": None}
    change(app, Redirect(from_path="/", to_path="https://new-home.example/", status=308))
    response = client.get("/main-redirect-info")
    assert response.get_json() == {"path": "/", "location": "https://new-home.example/", "status": 308}
    assert response.headers["Cache-Control"] == SHARED
    assert client.get("/redirect-info?path=/%3Fref%3Dad").get_json()["location"] == "https://new-home.example/?ref=ad"


def test_the_site_calls_accept_a_session_context(client, demo_catalogue, viewer_headers):
    for path in ("/menu", f"/redirect-info?path={OLD}", "/main-redirect-info", "/contents/slider-promo"):
        assert client.get(path, headers=viewer_headers()).status_code == 200


# --- the promo slider


def slides(client):
    response = client.get("/contents/slider-promo")
    assert response.status_code == 200
    return response.get_json()


def test_the_demo_slides_in_order_with_their_contents_as_cards(client, demo_catalogue):
    found = slides(client)
    assert [(s["title"], s["content"]["id"]) for s in found] == [("Новый сезон «Тихой гавани»", 2),
                                                                  ("Долгая дорога домой", 1)]  # the content's title
    first = found[0]
    assert set(first) == {"id", "title", "imageUrl", "content"}
    assert first["imageUrl"] == "/media/posters/series-s1e1.jpg"
    assert first["content"]["slug"] == "tikhaya-gavan"
    assert first["content"]["contentType"] == {"slug": "series", "title": "Сериал"}
    assert [g["slug"] for g in first["content"]["genres"]] == ["detective", "drama"]


def test_only_slides_active_now_show(app, client, demo_catalogue):
    now = datetime.now(UTC)
    hour = timedelta(hours=1)
    change(app,
           PromoSlide(content_id=3, title="прошлый", image_url="/p.jpg", position=-5, active_until=now - hour),
           PromoSlide(content_id=3, title="будущий", image_url="/f.jpg", position=-4, active_from=now + hour),
           PromoSlide(content_id=3, title="сейчас", image_url="/n.jpg", position=-3, active_from=now - hour,
                      active_until=now + hour),
           PromoSlide(content_id=4, title="с начала", image_url="/s.jpg", position=-2, active_from=now - hour),
           PromoSlide(content_id=5, title="до конца", image_url="/e.jpg", position=-1, active_until=now + hour),
           PromoSlide(content_id=5, title="пустой срок", image_url="/x.jpg", position=7, active_from=now + hour,
                      active_until=now - hour))
    assert [s["title"] for s in slides(client)] == ["сейчас", "с начала", "до конца", "Новый сезон «Тихой гавани»",
                                                    "Долгая дорога домой"]


def test_the_periods_edges_start_included_end_excluded(app, demo_catalogue):
    from app.services.catalogue.site import promo_slides

    start = datetime(2030, 1, 1, tzinfo=UTC)
    end = start + timedelta(days=7)
    change(app, PromoSlide(content_id=3, title="неделя", image_url="/w.jpg", position=-1, active_from=start,
                           active_until=end))
    with app.app_context():
        def titles(at):
            return [slide.title for slide in promo_slides(at) if slide.title == "неделя"]

        assert titles(start - timedelta(seconds=1)) == []
        assert titles(start) == ["неделя"]
        assert titles(end - timedelta(seconds=1)) == ["неделя"]
        assert titles(end) == []


def test_slides_of_unpublished_contents_are_left_out(app, client, demo_catalogue):
    change(app, content_2=False)
    assert [s["content"]["id"] for s in slides(client)] == [1]


def test_equal_positions_keep_the_order_they_were_made_in(app, client, demo_catalogue):
    change(app, *(PromoSlide(content_id=4, title=f"слайд {n}", image_url="/s.jpg", position=-1) for n in range(3)))
    assert [s["title"] for s in slides(client)][:3] == ["слайд 0", "слайд 1", "слайд 2"]


def test_the_slider_costs_the_same_queries_for_two_slides_or_twenty(app, client, demo_catalogue):
    app.config["SHARED_CACHE_SECONDS"] = 0
    with statements(app) as two:
        assert len(slides(client)) == 2
    change(app, *(PromoSlide(content_id=1 + n % 5, image_url=f"/{n}.jpg", position=10 + n) for n in range(18)))
    with statements(app) as twenty:
        assert len(slides(client)) == 20
    assert len(two) == len(twenty) <= 2


def test_the_slider_is_shared_and_an_edit_shows(app, client, demo_catalogue):
    first = client.get("/contents/slider-promo")
    assert first.headers["Cache-Control"] == SHARED and first.headers["ETag"]
    change(app, PromoSlide(content_id=5, title="новый", image_url="/n.jpg", position=-1))
    assert slides(client)[0]["title"] == "новый"
