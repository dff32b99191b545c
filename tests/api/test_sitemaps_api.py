"""robots.txt, the sitemap index and files (sitemaps.org with Google's video extension), and their generation
(app/services/seo/sitemaps.py, app/api/seo.py).

The files are validated against the published schemas, vendored in tests/data/xsd (README there). Demo catalogue
(app/demo/catalogue.py): 1 a film (1860 s, age 12), 2 a series of 2 × 3 episodes (ids 2-7), 3 a film blocked in
Russia (age 18), 4 a film without a poster, 5 a film allowed on partner.example only.
"""

from __future__ import annotations

import functools
import gzip
import itertools
import socket
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from sqlalchemy import func, insert, select, update

from app import create_app
from app.database import unhurried
from app.extensions import db
from app.jobs import sitemaps as sitemap_job
from app.jobs.queue import in_broker
from app.models import AvailabilityRule, Content, ContentType, Episode, Role, RuleKind, Season
from app.models.jobs import Job, JobState
from app.models.sitemaps import SitemapFile, SitemapState
from app.services.seo import sitemap_entries, sitemaps
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.queries import statements
from tests.api.test_catalogue_api import assert_error
from tests.queued import work_off_queue

XSD = Path(__file__).resolve().parents[1] / "data" / "xsd"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
VIDEO = "{http://www.google.com/schemas/sitemap-video/1.1}"
NS = {"sm": SM[1:-1], "video": VIDEO[1:-1]}
BASE = "http://localhost/"  # the test client's own origin


@functools.cache
def schema(name: str) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD / name)))


def generate(app, base: str = BASE, **overrides: Any) -> sitemaps.Generation:
    """Generates with the application's configuration (and ``overrides`` of SitemapConfig's fields)."""
    batch = overrides.pop("batch", sitemap_entries.BATCH)
    with app.app_context():
        config = sitemap_entries.sitemap_config(app.config, base)
        config = sitemap_entries.SitemapConfig(**{**config.__dict__, **overrides})
        return sitemap_job.generate(db.session, config, batch=batch)


def fetch(client, path: str, **headers: str) -> bytes:
    response = client.get(path, headers={"Accept-Encoding": "identity", **headers})
    assert response.status_code == 200, (path, response.status_code, response.get_data(as_text=True)[:300])
    assert response.mimetype == "application/xml"
    return response.get_data()


def valid(document: bytes, schema_name: str) -> etree._Element:
    root = etree.fromstring(document)
    checker = schema(schema_name)
    assert checker.validate(root), checker.error_log.last_error
    return root


def files_of(client) -> list[bytes]:
    """Every sitemap file the index lists, each validated, in order."""
    index = valid(fetch(client, "/sitemap.xml"), "siteindex.xsd")
    locs = [loc.text for loc in index.iterfind("sm:sitemap/sm:loc", NS)]
    assert locs == [f"{BASE}sitemap{n}.xml" for n in range(1, len(locs) + 1)]
    return [fetch(client, loc.removeprefix(BASE.rstrip("/"))) for loc in locs]


def entries(document: bytes) -> list[dict[str, Any]]:
    """Each <url>: its loc and lastmod, and its videos as {field: text} (restriction as (relationship, text))."""
    found = []
    for url in etree.fromstring(document).iterfind("sm:url", NS):
        videos = []
        for video in url.iterfind("video:video", NS):
            fields: dict[str, Any] = {child.tag.removeprefix(VIDEO): child.text for child in video}
            restriction = video.find("video:restriction", NS)
            if restriction is not None:
                fields["restriction"] = (restriction.get("relationship"), restriction.text)
            videos.append(fields)
        found.append({"loc": url.findtext("sm:loc", namespaces=NS), "lastmod": url.findtext("sm:lastmod",
                                                                                              namespaces=NS),
                      "videos": videos})
    return found


def all_entries(client) -> list[dict[str, Any]]:
    return [entry for document in files_of(client) for entry in entries(document)]


def add_catalogue(app, contents: int, episodes: int, first_id: int = 1000) -> None:
    """``contents`` published series of one season with ``episodes`` playable episodes each, inserted in bulk (a batch:
    without the requests' statement deadline, as the generation's own command runs)."""
    with app.app_context(), unhurried(app, db.engine):
        type_id = db.session.scalar(select(ContentType.id).where(ContentType.slug == "bulk"))
        if type_id is None:
            type_id = db.session.execute(insert(ContentType).values(slug="bulk", title="Bulk")).inserted_primary_key[0]
        ids = range(first_id, first_id + contents)
        db.session.execute(insert(Content.__table__), [
            {"id": i, "slug": f"bulk-{i}", "title": f"Сериал {i}", "description": f"Описание {i}", "published": True,
             "position": 0, "content_type_id": type_id, "has_multiple_episodes": True,
             "poster_url": f"/media/posters/{i}.jpg"} for i in ids])
        db.session.execute(insert(Season.__table__), [{"id": i, "content_id": i, "order": 1, "title": None}
                                                      for i in ids])
        db.session.execute(insert(Episode.__table__), [
            {"id": i * 100_000 + n, "content_id": i, "season_id": i, "order": n, "title": f"Серия {n}",
             "description": "", "duration": 1500, "poster_path": None, "master_file_path": "/media/titles/x/m.json"}
            for i in ids for n in range(1, episodes + 1)])
        db.session.commit()


@pytest.fixture
def callers(app):
    headers: dict[str, Any] = {"anonymous": {}}
    for role in (Role.VIEWER, Role.EDITOR, Role.ADMIN):
        headers[f"{role.value}_id"] = make_account(app, f"{role.value}@example.com", role)
        headers[role.value] = bearer(sign_in(app.test_client(), f"{role.value}@example.com"))
    return headers


# --- robots.txt


def test_robots_txt_allows_the_pages_names_the_sitemap_and_runs_no_query(app, client):
    with statements(app) as seen:
        response = client.get("/robots.txt")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    assert seen == []  # nothing of the database: it answers while the database is gone
    lines = response.get_data(as_text=True).splitlines()
    assert lines[0] == "User-agent: *"
    assert lines[-1] == "Sitemap: http://localhost/sitemap.xml"
    disallowed = {line.removeprefix("Disallow: ") for line in lines if line.startswith("Disallow: ")}
    assert {"/debug/", "/user/", "/administration/", "/ad-tracking", "/session-context"} <= disallowed
    # nothing a player page needs: the page itself, its scripts, posters and media, the catalogue reads
    for public in ("/", "/?movie_id=1", "/season-1/episode-2", "/assets/", "/media/", "/lib.js", "/contents/1",
                   "/episodes"):
        assert not any(public.startswith(path.split("*")[0]) and "*" not in path for path in disallowed), public
    assert "Allow: /" in lines
    assert response.headers["Cache-Control"] == "public, max-age=3600"


def test_robots_txt_names_the_public_address(app, client):
    app.config["PUBLIC_URL"] = "https://player.example"
    assert client.get("/robots.txt").get_data(as_text=True).endswith("\nSitemap: https://player.example/sitemap.xml\n")


def test_robots_txt_answers_200_whatever_fails(app, client, monkeypatch):
    def broken(_url):
        raise RuntimeError("anything at all")

    monkeypatch.setattr(sitemaps, "robots_txt", broken)
    response = client.get("/robots.txt")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert "Disallow: /debug/" in body and "Sitemap:" not in body  # the rules still, without the sitemap


def test_robots_txt_answers_200_with_the_database_black_holed(assets_built):
    """A database server that accepts connections and never answers (tests/test_database_outages.py's black hole):
    robots.txt answers at once, while a call that needs the database gets its 503."""
    hole = socket.create_server(("127.0.0.1", 0), backlog=16)  # the kernel accepts; nobody ever answers
    try:
        app = create_app({"TESTING": True,
                          "DATABASE_URL": f"postgresql+psycopg://postgres@127.0.0.1:{hole.getsockname()[1]}/gone"})
        client = app.test_client()
        started = time.monotonic()
        response = client.get("/robots.txt")
        assert response.status_code == 200 and time.monotonic() - started < 1
        assert "Sitemap: http://localhost/sitemap.xml" in response.get_data(as_text=True)
        assert client.get("/sitemap1.xml").status_code == 503  # the database really is gone
        assert client.get("/robots.txt").status_code == 200  # and stays so while the breaker is open
    finally:
        hole.close()


# --- the files against the schemas


def test_the_index_and_every_file_validate_against_the_published_schemas(app, client, demo_catalogue):
    made = generate(app)
    assert (made.url_count, made.file_count) == (9, 1)
    documents = files_of(client)  # validated each, the index against siteindex.xsd
    assert len(documents) == 1
    root = valid(documents[0], "urlset-video.xsd")
    assert len(root.findall("sm:url/video:video", NS)) == 8


def test_the_schemas_refuse_what_they_should(app, client, demo_catalogue):
    """The validation can fail: a lower-case country, a title over 100 characters, a video without a thumbnail."""
    generate(app)
    document = files_of(client)[0]
    checker = schema("urlset-video.xsd")
    for breaking in (
        lambda root: setattr(root.find(".//video:restriction", NS), "text", "ru"),
        lambda root: setattr(root.find(".//video:title", NS), "text", "x" * 101),
        lambda root: root.find(".//video:video", NS).remove(root.find(".//video:thumbnail_loc", NS)),
    ):
        root = etree.fromstring(document)
        breaking(root)
        assert not checker.validate(root)


def test_before_any_generation_the_index_lists_nothing_and_no_file_exists(app, client, demo_catalogue, caplog):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    root = etree.fromstring(response.get_data())
    assert root.tag == f"{SM}sitemapindex" and len(root) == 0
    assert "no sitemap generated yet" in caplog.text
    assert_error(client.get("/sitemap1.xml"), 404, "sitemap_not_found")


# --- what is listed


def test_the_demo_catalogue_as_video_entries(app, client, demo_catalogue):
    with app.app_context():
        created = db.session.get(Content, 1).created_at
    generate(app)
    found = all_entries(client)
    assert [entry["loc"] for entry in found] == [
        f"{BASE}?movie_id=1",
        *(f"{BASE}season-{s}/episode-{e}?movie_id=2" for s in (1, 2) for e in (1, 2, 3)),
        f"{BASE}?movie_id=3",
        f"{BASE}?movie_id=4",  # no poster: the page, without a video
    ]  # 5 is licensed to partner.example only: a crawler could not play it
    film = found[0]["videos"]
    assert film == [{
        "thumbnail_loc": f"{BASE}media/posters/film-long.jpg",
        "title": "Долгая дорога домой",
        "description": "Фильм длиннее получаса: здесь показывается мид-ролл.",
        "player_loc": f"{BASE}?movie_id=1&episode_id=1",
        "duration": "1860",
        "publication_date": created.replace(microsecond=0).isoformat(),
    }]
    storm = found[2]["videos"][0]
    assert storm["title"] == "Тихая гавань, сезон 1, серия 2. Шторм"
    assert storm["description"] == "В рыбацком посёлке на севере пропадает смотритель маяка."  # the content's
    assert storm["player_loc"] == f"{BASE}?movie_id=2&episode_id=3" and storm["duration"] == "60"
    blocked = found[7]["videos"][0]
    assert blocked["restriction"] == ("deny", "RU") and blocked["family_friendly"] == "no"  # blocked in Russia, 18
    assert found[8]["videos"] == []
    assert all(entry["lastmod"] for entry in found)


def test_rules_unpublished_contents_and_episodes_without_a_master_file(app, client, demo_catalogue):
    with app.app_context():
        db.session.add_all([
            AvailabilityRule(content_id=1, kind=RuleKind.ALLOW_COUNTRY, value="fr"),
            AvailabilityRule(content_id=1, kind=RuleKind.ALLOW_COUNTRY, value="us"),
            AvailabilityRule(content_id=1, kind=RuleKind.BLOCK_COUNTRY, value="us"),
            AvailabilityRule(content_id=1, kind=RuleKind.ALLOW_COUNTRY, value="ru"),
            AvailabilityRule(content_id=2, kind=RuleKind.BLOCK_DOMAIN, value="pirate.example"),  # a crawler is on none
            AvailabilityRule(content_id=4, kind=RuleKind.ALLOW_COUNTRY, value="fr"),
            AvailabilityRule(content_id=4, kind=RuleKind.BLOCK_COUNTRY, value="fr"),  # plays nowhere
        ])
        db.session.get(Episode, 3).master_file_path = None  # never uploaded
        db.session.get(Episode, 6).master_file_path = ""
        db.session.get(Content, 3).published = False
        db.session.commit()
    generate(app)
    found = all_entries(client)
    assert [entry["loc"].removeprefix(BASE) for entry in found] == [
        "?movie_id=1", "season-1/episode-1?movie_id=2", "season-1/episode-3?movie_id=2",
        "season-2/episode-1?movie_id=2", "season-2/episode-3?movie_id=2"]
    assert found[0]["videos"][0]["restriction"] == ("allow", "FR RU")
    assert all("restriction" not in entry["videos"][0] for entry in found[1:])


def test_text_is_escaped_and_kept_as_text(app, client, demo_catalogue):
    title = 'Тест <script>alert("x")</script> & «кавычки» \'\x01'
    with app.app_context():
        content = db.session.get(Content, 1)
        content.title = title
        db.session.get(Episode, 1).description = "Описание ]]> <b>&amp;</b>\x0b"
        db.session.get(Episode, 1).title = title
        db.session.get(Episode, 1).poster_path = "/media/posters/с пробелом.jpg?a=1&b=<2>"  # before the content's
        db.session.commit()
    generate(app)
    document = files_of(client)[0]
    valid(document, "urlset-video.xsd")
    assert b"<script>" not in document and b"&lt;script&gt;" in document
    video = entries(document)[0]["videos"][0]
    assert video["title"] == 'Тест <script>alert("x")</script> & «кавычки» \''  # the control character dropped
    assert video["description"] == "Описание ]]> <b>&amp;</b>"
    assert video["thumbnail_loc"] == (f"{BASE}media/posters/%D1%81%20%D0%BF%D1%80%D0%BE%D0%B1%D0%B5%D0%BB%D0%BE%D0%BC"
                                      ".jpg?a=1&b=%3C2%3E")


def test_long_titles_and_descriptions_are_cut_to_the_schema(app, client, demo_catalogue):
    with app.app_context():
        db.session.get(Content, 1).title = "Очень " * 40
        db.session.get(Episode, 1).description = "слово " * 1000
        db.session.get(Episode, 1).duration = 28_801  # beyond the schema: left out
        db.session.commit()
    generate(app)
    document = files_of(client)[0]
    valid(document, "urlset-video.xsd")
    video = entries(document)[0]["videos"][0]
    assert len(video["title"]) == 100 and video["title"].endswith("…")
    assert len(video["description"]) <= 2048 and video["description"].endswith("…")
    assert "duration" not in video


def test_the_site_s_page_template_and_one_url_for_the_episodes_of_one_page(app, client, demo_catalogue):
    app.config["SITEMAP_PAGE_URL"] = "https://site.example/{type}/{slug}?s={season}&e={episode}&id={episode_id}"
    generate(app)
    found = all_entries(client)
    assert found[0]["loc"] == "https://site.example/film/dolgaya-doroga-domoy?s=&e=1&id=1"
    assert found[0]["videos"][0]["player_loc"] == f"{BASE}?movie_id=1&episode_id=1"  # still our embed address
    assert found[2]["loc"] == "https://site.example/series/tikhaya-gavan?s=1&e=2&id=3"
    app.config["SITEMAP_PAGE_URL"] = "/{type}/{slug}"  # one page per title: its episodes together, on our origin
    generate(app)
    found = all_entries(client)
    assert [entry["loc"] for entry in found] == [f"{BASE}film/dolgaya-doroga-domoy", f"{BASE}series/tikhaya-gavan",
                                                 f"{BASE}film/zakrytyy-pokaz", f"{BASE}film/poteryannaya-plenka"]
    assert [video["player_loc"] for video in found[1]["videos"]] == [
        f"{BASE}?movie_id=2&episode_id={n}" for n in range(2, 8)]


def test_configuration_beyond_the_protocol_is_refused():
    for bad in ({"SITEMAP_MAX_URLS": 50_001}, {"SITEMAP_MAX_URLS": 0}, {"SITEMAP_MAX_BYTES": 52_428_801},
                {"SITEMAP_PAGE_URL": "https://site.example/{name}"}):
        with pytest.raises(ValueError, match="SITEMAP_"):
            create_app({"TESTING": True, "DATABASE_URL": "sqlite://", **bad})


# --- splitting


def test_fifty_thousand_urls_a_file_then_the_next(app, client):
    add_catalogue(app, contents=10, episodes=5001)  # 50,010 playable episodes
    made = generate(app)
    assert made.url_count == 50_010 and [info.urls for info in made.files] == [50_000, 10]
    documents = files_of(client)
    assert [len(entries(document)) for document in documents] == [50_000, 10]
    first = valid(documents[0], "urlset-video.xsd")
    assert first[-1].findtext("sm:loc", namespaces=NS) == f"{BASE}season-1/episode-4991?movie_id=1009"
    second = valid(documents[1], "urlset-video.xsd")
    assert [url.findtext("sm:loc", namespaces=NS) for url in second] == [
        f"{BASE}season-1/episode-{n}?movie_id=1009" for n in range(4992, 5002)]


def test_a_file_never_passes_the_byte_limit_and_splits_only_when_full(app, client, demo_catalogue):
    limit = 1500
    app.config["SITEMAP_MAX_BYTES"] = limit
    made = generate(app)
    documents = files_of(client)
    assert made.file_count == len(documents) > 3
    assert [info.size for info in made.files] == [len(document) for document in documents]
    assert all(len(document) <= limit for document in documents)
    assert sum(len(entries(document)) for document in documents) == made.url_count == 9
    for document, following in itertools.pairwise(documents):
        valid(document, "urlset-video.xsd")
        first_url = etree.tostring(etree.fromstring(following)[0])  # with its namespace declarations: an upper bound
        declarations = len(b' xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
                           b' xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"')
        assert len(document) + len(first_url) - declarations > limit  # the next entry would not have fitted


def test_an_entry_no_file_can_hold_is_skipped_not_written(app, client, demo_catalogue):
    with app.app_context():
        db.session.get(Episode, 1).description = "длинное описание " * 120  # ~2 kB of text, ~4 kB of UTF-8
        db.session.commit()
    app.config["SITEMAP_MAX_BYTES"] = 4096
    made = generate(app)
    assert made.skipped_count == 1 and made.url_count == 8
    assert f"{BASE}?movie_id=1" not in [entry["loc"] for entry in all_entries(client)]


# --- serving


def test_gzip_when_the_client_takes_it_with_conditional_answers(app, client, demo_catalogue):
    made = generate(app)
    plain = client.get("/sitemap1.xml", headers={"Accept-Encoding": "identity"})
    packed = client.get("/sitemap1.xml", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert "Content-Encoding" not in plain.headers and int(plain.headers["Content-Length"]) == made.files[0].size
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert len(packed.get_data()) == made.files[0].gzip_size < made.files[0].size
    for response in (plain, packed):
        assert response.headers["Vary"] == "Accept-Encoding"
        assert response.headers["Cache-Control"] == "public, max-age=3600"
        assert response.headers["Last-Modified"]
    assert plain.headers["ETag"] != packed.headers["ETag"]
    refused = client.get("/sitemap1.xml", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in refused.headers and refused.get_data() == plain.get_data()
    again = client.get("/sitemap1.xml", headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""
    since = client.get("/sitemap1.xml", headers={"Accept-Encoding": "identity",
                                                 "If-Modified-Since": plain.headers["Last-Modified"]})
    assert since.status_code == 304
    index = client.get("/sitemap.xml", headers={"Accept-Encoding": "gzip"})
    assert index.headers["Content-Encoding"] == "gzip" and b"sitemap1.xml" in gzip.decompress(index.get_data())


@pytest.mark.parametrize("path", ["/sitemap2.xml", "/sitemap0.xml", "/sitemap01.xml", "/sitemap2147483648.xml",
                                  "/sitemap99999999999999999999.xml"])
def test_an_unknown_file_is_a_404_in_the_error_shape(app, client, demo_catalogue, path):
    generate(app)
    assert_error(client.get(path), 404, "sitemap_not_found")


def test_a_file_is_one_statement_and_generation_a_fixed_number_per_batch(app, client):
    add_catalogue(app, contents=10, episodes=2)
    with statements(app) as small:
        generate(app)
    add_catalogue(app, contents=240, episodes=2, first_id=5000)
    with statements(app) as large:
        generate(app)
    assert len(small) == len(large) <= 20  # 25 times the contents, the same statements
    with statements(app) as batched:
        generate(app, batch=100)
    selects = [sql for sql in batched if sql.lstrip().upper().startswith("SELECT")]
    assert len(batched) == len(large) + 2 * 3  # three batches of 100 instead of one: three queries each
    assert sum("FROM contents" in sql for sql in selects) == 3
    for path in ("/sitemap1.xml", "/sitemap.xml"):
        with statements(app) as seen:
            assert client.get(path, headers={"Accept-Encoding": "gzip"}).status_code == 200
        assert len(seen) == 1


# --- regeneration


def stored_rows(app) -> list[tuple[int, int]]:
    with app.app_context():
        return [tuple(row) for row in db.session.execute(
            select(SitemapFile.generation, SitemapFile.number).order_by(SitemapFile.generation, SitemapFile.number))]


def test_regeneration_replaces_every_file_at_once_and_keeps_what_did_not_change(app, client, demo_catalogue, clock):
    app.config["SITEMAP_MAX_URLS"] = 4
    generate(app)
    before = {n: client.get(f"/sitemap{n}.xml", headers={"Accept-Encoding": "gzip"}) for n in (1, 2, 3)}
    assert stored_rows(app) == [(1, 0), (1, 1), (1, 2), (1, 3)]
    clock.shift(1)  # Last-Modified has whole seconds
    with app.app_context():
        db.session.execute(update(Content).where(Content.id == 3).values(title="Новое название"))
        db.session.commit()
    generate(app)
    assert stored_rows(app) == [(2, 0), (2, 1), (2, 2), (2, 3)]  # the old generation's rows are gone
    after = {n: client.get(f"/sitemap{n}.xml", headers={"Accept-Encoding": "gzip"}) for n in (1, 2, 3)}
    for n in (1, 3):  # the same bytes: the same ETag and Last-Modified, and a crawler's copy stays good
        assert after[n].headers["ETag"] == before[n].headers["ETag"]
        assert after[n].headers["Last-Modified"] == before[n].headers["Last-Modified"]
    assert after[2].headers["ETag"] != before[2].headers["ETag"]  # content 3 is in the second file
    assert after[2].headers["Last-Modified"] != before[2].headers["Last-Modified"]
    assert "Новое название".encode() in gzip.decompress(after[2].get_data())


def test_readers_see_the_old_files_until_the_new_ones_are_all_written(app, client, demo_catalogue, monkeypatch):
    app.config["SITEMAP_MAX_URLS"] = 3
    generate(app)
    old = {n: fetch(client, f"/sitemap{n}.xml") for n in (1, 2, 3)}
    with app.app_context():
        db.session.execute(update(Content).where(Content.id == 1).values(title="Другое"))
        db.session.commit()
    store, seen = sitemap_job._Run.store, []

    def store_and_look(run, number, *args):
        stored = store(run, number, *args)
        seen.append({n: fetch(app.test_client(), f"/sitemap{n}.xml") for n in (1, 2, 3)})
        return stored

    monkeypatch.setattr(sitemap_job._Run, "store", store_and_look)
    generate(app)
    assert len(seen) == 4 and all(view == old for view in seen)  # three files and the index written, none seen
    assert fetch(client, "/sitemap1.xml") != old[1]


def test_a_generation_that_fails_leaves_the_live_files_and_frees_the_lock(app, client, demo_catalogue,
                                                                           monkeypatch):
    app.config["SITEMAP_MAX_URLS"] = 3
    generate(app)
    old = fetch(client, "/sitemap1.xml")
    store = sitemap_job._Run.store

    def fail_on_the_third(run, number, *args):
        if number == 3:
            raise OSError("the disk is full")
        return store(run, number, *args)

    monkeypatch.setattr(sitemap_job._Run, "store", fail_on_the_third)
    with app.app_context():
        db.session.execute(update(Content).where(Content.id == 1).values(title="Другое"))
        db.session.commit()
    with pytest.raises(OSError, match="disk"):
        generate(app)
    assert fetch(client, "/sitemap1.xml") == old
    assert stored_rows(app) == [(1, 0), (1, 1), (1, 2), (1, 3)]  # what it wrote went with it
    monkeypatch.setattr(sitemap_job._Run, "store", store)
    assert generate(app).url_count == 9  # the lock is free
    assert fetch(client, "/sitemap1.xml") != old


def test_one_generation_at_a_time(app, client, demo_catalogue, callers, monkeypatch):
    store, answers = sitemap_job._Run.store, []

    def store_and_ask_again(run, *args):
        stored = store(run, *args)
        answers.append(app.test_client().get("/debug/generate-sitemap-xml", headers=callers["admin"]))
        return stored

    monkeypatch.setattr(sitemap_job._Run, "store", store_and_ask_again)
    response = client.post("/debug/generate-sitemap-xml", headers=callers["admin"])
    assert response.status_code == 202
    assert_error(client.post("/debug/generate-sitemap-xml", headers=callers["admin"]), 409,
                 "sitemap_generation_running")  # one waits in the queue already
    assert len(work_off_queue(app)) == 1
    assert client.get("/debug/meta/sitemap.xml", headers=callers["admin"]).get_json()["urlCount"] == 9
    assert len(answers) == 2  # asked while the file and while the index were stored: refused both times
    for answer in answers:
        assert_error(answer, 409, "sitemap_generation_running")
    monkeypatch.setattr(sitemap_job._Run, "store", store)
    with app.app_context():  # a generation that died holding the lock: after LOCK_STALE the next one takes over
        db.session.execute(update(SitemapState).values(running_token="x" * 32,
                                                       running_since=datetime.now(UTC) - timedelta(minutes=5)))
        db.session.commit()
    assert_error(client.get("/debug/generate-sitemap-xml", headers=callers["admin"]), 409,
                 "sitemap_generation_running")
    assert client.get("/debug/meta/sitemap.xml", headers=callers["admin"]).get_json()["runningSince"]
    with app.app_context():
        db.session.execute(update(SitemapState).values(running_since=datetime.now(UTC) - timedelta(minutes=11)))
        db.session.commit()
    assert client.get("/debug/generate-sitemap-xml", headers=callers["admin"]).status_code == 202


def test_the_generation_is_a_job_of_the_worker_and_the_call_answers_at_once(app, client, demo_catalogue, callers):
    """202 before anything is generated (tens of seconds on a large catalogue, past any proxy's patience): the
    generation is a job the worker process runs (never a web worker's thread, whose requests its CPU would hold up);
    the live generation stays what readers get until the new one is done."""
    response = client.get("/debug/generate-sitemap-xml", headers=callers["admin"])
    assert response.status_code == 202 and response.get_json()["runningSince"] is not None
    assert response.get_json()["generatedAt"] is None  # nothing generated yet: the answer did not wait for it
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(SitemapFile)) == 0
        queued = db.session.scalars(select(Job).where(Job.kind == sitemap_job.KIND)).one()
        assert (queued.state, queued.account_id) == (JobState.QUEUED, callers["admin_id"])
        assert in_broker(app) == [queued.id]  # sent once the request committed
    assert work_off_queue(app) == [queued.id]
    assert client.get("/debug/meta/sitemap.xml", headers=callers["admin"]).get_json()["urlCount"] == 9
    with app.app_context():
        done = db.session.get(Job, queued.id)
        assert done.state == JobState.DONE and done.message.startswith("Карта сайта собрана: адресов 9, файлов 1")
        assert done.result["url_count"] == 9


def test_the_generation_takes_a_bearer_header_never_the_cookie(app, client, demo_catalogue, callers):
    """A GET with side effects: the administrator's authToken cookie alone (a link on another site, followed by the
    administrator's browser) starts nothing."""
    token = callers["admin"]["Authorization"].removeprefix("Bearer ")
    client.set_cookie("authToken", token)
    response = client.get("/debug/generate-sitemap-xml")
    assert_error(response, 401, "unauthorized")
    assert work_off_queue(app) == []
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(SitemapFile)) == 0


# --- the administrators' calls


@pytest.mark.parametrize(("caller", "refusal"), [("anonymous", 401), ("viewer", 403), ("editor", 403), ("admin", None)])
def test_the_debug_calls_are_for_administrators_only(app, client, demo_catalogue, callers, caller, refusal):
    for method, path, done in (("GET", "/debug/meta/sitemap.xml", 200), ("GET", "/debug/generate-sitemap-xml", 202),
                               ("POST", "/debug/generate-sitemap-xml", 202)):
        response = client.open(path, method=method, headers=callers[caller])
        assert response.status_code == (refusal or done), (method, path, response.get_json())
        if refusal is None:
            assert response.headers["Cache-Control"] == "no-store"
            work_off_queue(app)  # the next call's generation after this one's: one at a time
        else:
            assert response.get_json()["error"]["code"] in {"unauthorized", "forbidden"}
    work_off_queue(app)
    with app.app_context():
        generated = db.session.scalar(select(func.count()).select_from(SitemapFile))
    assert generated == (2 if caller == "admin" else 0)


def test_the_metadata_before_and_after_a_generation(app, client, demo_catalogue, callers):
    before = client.get("/debug/meta/sitemap.xml", headers=callers["admin"]).get_json()
    assert before == {"generatedAt": None, "durationMs": None, "baseUrl": None, "urlCount": 0, "videoCount": 0,
                      "skippedCount": 0, "fileCount": 0, "index": None, "files": [], "runningSince": None}
    app.config["SITEMAP_MAX_URLS"] = 5
    started = client.get("/debug/generate-sitemap-xml", headers=callers["admin"]).get_json()
    assert {**started, "runningSince": None} == before and started["runningSince"]
    work_off_queue(app)
    meta = client.get("/debug/meta/sitemap.xml", headers=callers["admin"]).get_json()
    assert meta["baseUrl"] == BASE and meta["urlCount"] == 9 and meta["videoCount"] == 8
    assert meta["fileCount"] == 2 and [f["urls"] for f in meta["files"]] == [5, 4]
    assert [f["loc"] for f in meta["files"]] == [f"{BASE}sitemap1.xml", f"{BASE}sitemap2.xml"]
    assert meta["index"]["loc"] == f"{BASE}sitemap.xml" and meta["index"]["urls"] == 2
    for number, info in enumerate(meta["files"], start=1):
        body = fetch(client, f"/sitemap{number}.xml")
        assert info["bytes"] == len(body) and 0 < info["gzipBytes"] < len(body)
    assert datetime.fromisoformat(meta["generatedAt"]) >= datetime.fromisoformat(meta["files"][-1]["lastmod"])


# --- the commands


def test_the_demo_seed_and_the_command_generate(app, client):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["demo", "seed"])
    assert result.exit_code == 0 and "sitemaps: 9 URLs (8 videos) in 1 files" in result.output
    assert b"http://127.0.0.1:5000/?movie_id=1" in fetch(client, "/sitemap1.xml")  # make start's address
    result = runner.invoke(args=["sitemap", "generate", "--base-url", "https://player.example"])
    assert result.exit_code == 0 and "for https://player.example/" in result.output
    assert b"<loc>https://player.example/sitemap1.xml</loc>" in fetch(client, "/sitemap.xml")
    with app.app_context():
        db.session.execute(update(SitemapState).values(running_token="x" * 32, running_since=datetime.now(UTC)))
        db.session.commit()
    result = runner.invoke(args=["sitemap", "generate"])
    assert result.exit_code == 1 and "уже создаётся" in result.output
    assert runner.invoke(args=["sitemap", "generate", "--base-url", "player.example"]).exit_code == 2  # no origin


def test_the_synthetic_catalogue_command_generates_too(app, client, demo_catalogue):
    app.config["PUBLIC_URL"] = BASE.rstrip("/")  # the command's addresses: PUBLIC_URL's
    result = app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "30"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        playable = db.session.scalar(select(func.count()).select_from(Episode).join(Content).where(
            Content.published, Content.id > 5))
    assert f"sitemaps: {playable + 9:,} URLs" in result.output  # the demo's 9 and every synthetic episode
    assert len(all_entries(client)) == playable + 9
