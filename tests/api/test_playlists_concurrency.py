"""Many adds to one playlist at once, from threads, against PostgreSQL (where requests run in parallel; SQLite has
one writer at a time): the same content and different ones, near the cap. Every add answers 200 or the cap's 422,
never a 500; the playlist ends with exactly the contents it should, never more than the cap, each once."""

from __future__ import annotations

import os
import threading

import pytest
from flask import Flask

from app.extensions import db
from app.models import Content, ContentType, PlaylistItem
from app.transaction import transaction
from tests.api.playlists_helpers import create, viewer
from tests.conftest import reconfigure

pytestmark = pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql")),
                                reason="concurrent writers need PostgreSQL")
CAP = 10


def published_contents(app: Flask, count: int) -> list[int]:
    with app.app_context(), transaction():
        kind = ContentType(slug="film", title="Фильм")
        contents = [Content(title=f"Фильм {n}", slug=f"film-{n}", content_type=kind, published=True)
                    for n in range(count)]
        db.session.add_all(contents)
        db.session.flush()
        return [content.id for content in contents]


def at_once(app: Flask, headers: dict[str, str], paths: list[str], body: dict | None = None) -> list[tuple[int, dict]]:
    """Posts each of ``paths`` (with ``body``) from a thread of its own, all released together; their statuses and
    bodies."""
    answers: list[tuple[int, dict]] = []
    start = threading.Barrier(len(paths))

    def post(path: str) -> None:
        client = app.test_client()
        start.wait()
        response = client.post(path, headers=headers, json=body)
        answers.append((response.status_code, response.get_json()))

    threads = [threading.Thread(target=post, args=(path,)) for path in paths]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == len(paths), "a request did not finish"
    return answers


def stored(app: Flask, playlist_id: int) -> list[tuple[int, int]]:
    with app.app_context():
        return list(db.session.execute(db.select(PlaylistItem.content_id, PlaylistItem.position)
                                       .where(PlaylistItem.playlist_id == playlist_id)
                                       .order_by(PlaylistItem.position)).tuples())


@pytest.fixture
def setting(app):
    reconfigure(app, PLAYLIST_MAX_CONTENTS=CAP, RATE_LIMIT_PLAYLIST_WRITES="100000 per minute")
    owner = viewer(app, "owner@example.com")
    return owner, create(app.test_client(), owner), published_contents(app, 30)


def test_the_same_content_added_at_once_is_there_once(app, setting):
    owner, playlist_id, ids = setting
    answers = at_once(app, owner, [f"/playlists/{playlist_id}/contents/{ids[0]}"] * 16)
    assert [status for status, _ in answers] == [200] * 16
    assert sum(body["changed"] for _, body in answers) == 1  # one add did it; the others found it there
    assert stored(app, playlist_id) == [(ids[0], 1)]


def test_different_contents_added_at_once_stop_exactly_at_the_cap(app, setting):
    owner, playlist_id, ids = setting
    client = app.test_client()
    for content_id in ids[:CAP - 3]:  # near the cap: three places left
        assert client.post(f"/playlists/{playlist_id}/contents/{content_id}", headers=owner).status_code == 200
    newcomers = ids[CAP - 3:CAP + 9]  # twelve contents for three places, each asked twice
    answers = at_once(app, owner, [f"/playlists/{playlist_id}/contents/{content_id}" for content_id in newcomers] * 2)
    statuses = [status for status, _ in answers]
    assert set(statuses) <= {200, 422}, statuses
    refused = [body["error"]["code"] for status, body in answers if status == 422]
    assert set(refused) == {"playlist_full"}
    added = [body["contentId"] for status, body in answers if status == 200 and body["changed"]]
    assert len(added) == 3 and len(set(added)) == 3
    rows = stored(app, playlist_id)
    assert len(rows) == CAP  # exactly the cap, never over it
    assert len({content_id for content_id, _ in rows}) == CAP  # each content once
    assert [position for _, position in rows] == list(range(1, CAP + 1))  # one after another, no two in one place
    assert {content_id for content_id, _ in rows} == set(ids[:CAP - 3]) | set(added)
    # the repeats of an added content answered 200 unchanged or 422 (the playlist was full when they came first)
    assert statuses.count(200) >= 3


def test_playlists_made_at_once_stop_at_the_accounts_cap(app, setting):
    owner, _, _ = setting
    reconfigure(app, PLAYLIST_MAX_PER_ACCOUNT=5)  # one made by the fixture: four places left
    bodies = at_once(app, owner, ["/playlists/new"] * 12, {"title": "Список"})
    statuses = sorted(status for status, _ in bodies)
    assert statuses == [201] * 4 + [422] * 8, statuses
    assert app.test_client().post("/v2/playlists", headers=owner).get_json()["total"] == 5
