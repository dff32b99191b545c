"""Publishing at a time (issue 31): a title scheduled to show is absent from every public surface (its reads, the
lists, search, the player page and its media, the sitemaps) until its second comes, and present from that very
second, kept answers included (the catalogue's generation moves with a passed boundary); withdrawn alike at its
end. An editor's preview plays a draft at its signed address only; the public, or a forged or stale mark, gets
'Контент не доступен'."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask

from app import clock as the_clock
from app.caching import invalidate_catalogue
from app.config import Settings
from app.extensions import db
from app.http.previews import PREVIEW_SECONDS, page_mark
from app.models import Content
from app.services.seo import sitemap_entries
from tests.api.test_player_page import page_context

SERIES = 2  # the demo's "Тихая гавань"
MEDIA_ROOT = Path(Settings.from_env().MEDIA_ROOT)


def schedule(app: Flask, **values: object) -> None:
    with app.app_context():
        content = db.session.get(Content, SERIES)
        for name, value in values.items():
            setattr(content, name, value)
        db.session.commit()
        invalidate_catalogue()  # what the admin's save does


def surfaces(client) -> dict[str, bool]:
    """Where the series shows for the public now."""
    listed = client.get("/contents?pageSize=50").get_json()
    found = client.get("/v2/contents/search?query=гавань").get_json()
    page = client.get(f"/?movie_id={SERIES}")
    return {
        "read": client.get(f"/contents/{SERIES}").status_code == 200,
        "seasons": client.get(f"/contents/{SERIES}/seasons").status_code == 200,
        "list": SERIES in [item["id"] for item in listed["items"]],
        "search": SERIES in [item["id"] for item in found["items"]],
        "page": page.status_code == 200 and "Контент не доступен" not in page.get_data(as_text=True),
    }


def in_sitemap(app: Flask) -> bool:
    with app.app_context():
        config = sitemap_entries.sitemap_config(app.config, "https://player.example")
        return any(f"movie_id={SERIES}" in entry.loc for entry in sitemap_entries.entries(db.session, config))


def test_a_scheduled_title_shows_from_its_second_and_goes_at_its_end(app, client, demo_catalogue, clock):
    start = the_clock.now().replace(microsecond=0) + timedelta(hours=2)
    schedule(app, publish_at=start, unpublish_at=start + timedelta(days=1))
    assert surfaces(client) == dict.fromkeys(("read", "seasons", "list", "search", "page"), False)
    assert not in_sitemap(app)

    clock.move_to(start - timedelta(seconds=1))
    assert not any(surfaces(client).values())  # a second before: still nowhere
    clock.move_to(start)
    assert all(surfaces(client).values()), surfaces(client)  # at its second: everywhere, kept answers too
    assert in_sitemap(app)

    clock.move_to(start + timedelta(days=1))
    assert not any(surfaces(client).values())  # withdrawn at its end
    assert not in_sitemap(app)


def test_a_draft_is_nowhere_whatever_its_dates(app, client, demo_catalogue, clock):
    schedule(app, published=False, publish_at=the_clock.now() - timedelta(days=1))
    assert not any(surfaces(client).values())


def preview_address(app: Flask, content: int, expires: int | None = None, **extra: str) -> str:
    expires = int(the_clock.now().timestamp()) + PREVIEW_SECONDS if expires is None else expires
    query = "&".join(f"{name}={value}" for name, value in extra.items())
    with app.app_context():
        mark = page_mark(content, expires)
    return f"/preview?movie_id={content}&preview_exp={expires}&preview_sig={mark}" + (f"&{query}" if query else "")


@pytest.fixture
def media(app: Flask, demo_catalogue: Flask) -> Flask:
    if not (MEDIA_ROOT / "titles" / "series-s1e1" / "master.json").is_file():
        pytest.fail("the demo media are missing: `make test` generates them (flask demo media)")
    app.config["MEDIA_ROOT"] = str(MEDIA_ROOT)
    return app


def test_an_editors_preview_plays_a_draft_that_the_public_never_gets(app, client, media, clock):
    schedule(app, published=False)
    assert client.get(f"/?movie_id={SERIES}").status_code == 404
    response = client.get(preview_address(app, SERIES, episode_id="3"))
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    assert "noindex" in response.headers["X-Robots-Tag"]
    assert "frame-ancestors" in response.headers["Content-Security-Policy"]  # the player page's own policy
    context = page_context(response)
    assert context["episodeId"] == 3
    master = next(e for e in context["episodes"] if e["id"] == 3)["m3u8MasterFilePath"]
    mark = parse_qs(urlsplit(master).query)["preview"][0]
    assert client.get(master).status_code == 200  # the draft's master JSON, marked: it plays
    unmarked = master.split("?")[0]
    assert client.get(unmarked).status_code == 404  # the same address without the mark: the public's answer
    forged = unmarked + "?preview=" + re.sub(r"^.", lambda m: "0" if m.group() != "0" else "1", mark)
    assert client.get(forged).status_code == 404


def test_a_preview_address_forged_stale_or_for_another_title_is_refused(app, client, media, clock):
    schedule(app, published=False)
    now = int(the_clock.now().timestamp())
    expires = now + PREVIEW_SECONDS
    with app.app_context():
        others, own = page_mark(1, expires), page_mark(SERIES, expires)
    refused = [
        f"/preview?movie_id={SERIES}",  # no mark
        f"/preview?movie_id={SERIES}&preview_exp={expires}&preview_sig={others}",  # another title's
        f"/preview?movie_id={SERIES}&preview_exp={expires + 60}&preview_sig={own}",  # another expiry
        preview_address(app, SERIES, expires=now + 10 * PREVIEW_SECONDS),  # further off than a preview lasts
        "/preview?movie_id=abc&preview_exp=1&preview_sig=x",
    ]
    for address in refused:
        response = client.get(address)
        assert response.status_code == 404, address
        assert "Контент не доступен" in response.get_data(as_text=True)
        assert response.headers["Cache-Control"] == "no-store"
    address = preview_address(app, SERIES)
    assert client.get(address).status_code == 200
    clock.shift(PREVIEW_SECONDS + 1)
    assert client.get(address).status_code == 404  # a quarter of an hour later: gone


def test_the_schedule_is_kept_in_utc(app, demo_catalogue):
    moment = datetime(2027, 3, 1, 9, 30, tzinfo=UTC)
    schedule(app, publish_at=moment)
    with app.app_context():
        assert db.session.get(Content, SERIES).publish_at == moment
