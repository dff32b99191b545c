"""Who may do what with playlists, as a matrix: every call of app/api/playlists.py, on every kind of playlist it can
name, for every kind of caller. Each cell is the status the rules (app/services/playlists/access.py) promise; the
test runs them all and reports every cell that answered otherwise (100 % expected).

Callers: nobody, a device identity only (X-Session-Context: playlists are an account's), the owner, another viewer,
an editor, an administrator, and a blocked account (blocked after signing in: the block revoked its token, 401)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from app.extensions import db
from app.models import Account, Playlist, PlaylistItem, Role, Visibility
from app.transaction import transaction
from tests.api.accounts_helpers import bearer, block, make_account, sign_in
from tests.conftest import reconfigure

ROLES = ("anonymous", "device", "owner", "other", "editor", "admin", "blocked")
# The playlists a call can name: the owner's private (P) and public (U) ones, a published editors' one (E, the
# demo's), an unpublished editors' one (D)
EDITORIAL = 1


def row(*statuses: int) -> dict[str, int]:
    return dict(zip(ROLES, statuses, strict=True))


WRITE_P = row(401, 401, 200, 404, 404, 404, 401)  # a change to the owner's private playlist
WRITE_U = row(401, 401, 200, 403, 403, 403, 401)  # to the owner's public one: others may read it, not change it
WRITE_E = row(401, 401, 403, 403, 403, 403, 401)  # to an editors' one: in the admin only
READ_P = row(404, 404, 200, 404, 404, 404, 401)
READ_U = row(200, 200, 200, 200, 200, 200, 401)  # the blocked account's token is refused, never read as nobody
READ_D = row(404, 404, 404, 404, 200, 200, 401)

# (name, method, path (with {P}, {U}, {E}, {D}), body, expected)
CALLS: list[tuple[str, str, str, Any, dict[str, int]]] = [
    ("create", "POST", "/playlists/new", {"title": "Новый"}, row(401, 401, 201, 201, 201, 201, 401)),
    ("own list", "POST", "/v2/playlists", None, row(401, 401, 200, 200, 200, 200, 401)),
    ("read P", "POST", "/playlists/{P}", None, READ_P),
    ("read U", "POST", "/playlists/{U}", None, READ_U),
    ("read E", "POST", "/playlists/{E}", None, READ_U),
    ("read D", "POST", "/playlists/{D}", None, READ_D),
    ("change P", "POST", "/playlists/{P}", {"title": "Другое"}, WRITE_P),
    ("change U", "POST", "/playlists/{U}", {"visibility": "private"}, WRITE_U),
    ("change E", "POST", "/playlists/{E}", {"title": "Другое"}, WRITE_E),
    ("change D", "POST", "/playlists/{D}", {"title": "Другое"}, row(401, 401, 404, 404, 403, 403, 401)),
    ("add P", "POST", "/playlists/{P}/contents/2", None, WRITE_P),
    ("add U", "POST", "/playlists/{U}/contents/2", {"remove": False}, WRITE_U),
    ("add E", "POST", "/playlists/{E}/contents/3", None, WRITE_E),
    ("remove P", "POST", "/playlists/{P}/contents/1", {"remove": True}, WRITE_P),
    ("remove U", "POST", "/playlists/{U}/contents/1", {"remove": True}, WRITE_U),
    ("remove E", "POST", "/playlists/{E}/contents/1", {"remove": True}, WRITE_E),
    ("delete P", "DELETE", "/playlists/{P}", None, {**WRITE_P, "owner": 204}),
    ("delete U", "DELETE", "/playlists/{U}", None, {**WRITE_U, "owner": 204}),
    ("delete E", "DELETE", "/playlists/{E}", None, WRITE_E),
    ("contents P", "POST", "/playlists/{P}/contents", None, READ_P),
    ("contents U", "POST", "/playlists/{U}/contents", None, READ_U),
    ("contents E", "POST", "/playlists/{E}/contents", None, READ_U),
    ("contents D", "POST", "/playlists/{D}/contents", None, READ_D),
    ("v2 contents P", "POST", "/v2/playlists/{P}/contents", {"sort": "title"}, READ_P),
    ("v2 contents U", "POST", "/v2/playlists/{U}/contents", None, READ_U),
    ("v2 contents E", "POST", "/v2/playlists/{E}/contents", None, READ_U),
    ("v2 contents D", "POST", "/v2/playlists/{D}/contents", None, READ_D),
    ("by slug E", "POST", "/playlists/by-slug/luchshee-v-demo", None, READ_U),
    ("by slug D", "POST", "/playlists/by-slug/chernovik", None, READ_D),
]


@pytest.fixture
def callers(app: Flask, demo_catalogue: Flask, viewer_headers: Callable[..., dict[str, str]]) -> dict[str, Any]:
    reconfigure(app, RATE_LIMIT_PLAYLIST_WRITES="100000 per minute", PLAYLIST_MAX_PER_ACCOUNT=1000)
    with app.app_context(), transaction():
        db.session.add(Playlist(slug="chernovik", title="Черновик", published=False))
    client = app.test_client()
    headers: dict[str, dict[str, str]] = {"anonymous": {}, "device": viewer_headers()}
    for name, role in (("owner", Role.VIEWER), ("other", Role.VIEWER), ("editor", Role.EDITOR),
                       ("admin", Role.ADMIN), ("blocked", Role.VIEWER)):
        make_account(app, f"{name}@example.com", role)
        headers[name] = bearer(sign_in(client, f"{name}@example.com"))
    with app.app_context():
        blocked_id = db.session.scalar(db.select(Account.id).where(Account.email == "blocked@example.com"))
    block(app, blocked_id)
    return headers


def fresh_playlists(app: Flask) -> dict[str, int]:
    """A private and a public playlist of the owner's, each listing contents 1 and 5 (written directly: the calls
    that make them are tested elsewhere)."""
    with app.app_context(), transaction():
        owner = db.session.scalar(db.select(Account.id).where(Account.email == "owner@example.com"))
        made = {key: Playlist(account_id=owner, title=title, visibility=visibility, published=True,
                              items=[PlaylistItem(content_id=1, position=1), PlaylistItem(content_id=5, position=2)])
                for key, title, visibility in (("P", "Личный", Visibility.PRIVATE),
                                               ("U", "Открытый", Visibility.PUBLIC))}
        db.session.add_all(made.values())
        db.session.flush()
        draft = db.session.scalar(db.select(Playlist.id).where(Playlist.slug == "chernovik"))
        return {"P": made["P"].id, "U": made["U"].id, "E": EDITORIAL, "D": draft}


def test_every_call_answers_every_caller_as_the_rules_say(app, callers):
    client = app.test_client()
    wrong, cells = [], 0
    ids = fresh_playlists(app)
    for name, method, path, body, expected in CALLS:
        for role in ROLES:
            if name.startswith(("change", "add", "remove", "delete")):
                ids = fresh_playlists(app)  # each change meets the playlists as they were made
            response = client.open(path.format(**ids), method=method, headers=callers[role],
                                   **({"json": body} if body is not None else {}))
            cells += 1
            if response.status_code != expected[role]:
                wrong.append(f"{name} as {role}: {response.status_code}, expected {expected[role]}")
            elif response.status_code >= 400:
                error = response.get_json()["error"]
                assert error["status"] == response.status_code and error["message"], (name, role, error)
    assert cells == len(CALLS) * len(ROLES)
    assert not wrong, f"{len(wrong)} of {cells} cells off:\n" + "\n".join(wrong)


def test_refusals_change_nothing(app, callers):
    """What the matrix refused left the playlists as they were: a stranger's change, add or delete did nothing."""
    client = app.test_client()
    ids = fresh_playlists(app)
    for role in ("other", "editor", "admin", "anonymous", "device", "blocked"):
        client.post(f"/playlists/{ids['U']}", json={"title": "Чужое"}, headers=callers[role])
        client.post(f"/playlists/{ids['U']}/contents/2", headers=callers[role])
        client.post(f"/playlists/{ids['U']}/contents/1", json={"remove": True}, headers=callers[role])
        client.delete(f"/playlists/{ids['U']}", headers=callers[role])
        client.post(f"/playlists/{EDITORIAL}/contents/3", headers=callers[role])
    shown = client.post(f"/playlists/{ids['U']}").get_json()
    assert (shown["title"], shown["contentsCount"]) == ("Открытый", 2)
    assert [c["id"] for c in client.post(f"/playlists/{ids['U']}/contents").get_json()["items"]] == [1, 5]
    assert [c["id"] for c in client.post(f"/playlists/{EDITORIAL}/contents").get_json()["items"]] == [2, 1, 5]
