"""Who may call what of the viewer's library (issue 32), as a matrix: every call of history, progress, marks and
sessions, for every kind of caller. A device identity is enough for what a viewer does with the catalogue; an
account's sessions need its access token; a token that does not verify is refused with its code, whatever else the
request carries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask_jwt_extended import create_access_token

from app.models import Role
from tests.api.accounts_helpers import bearer, block, make_account, sign_in
from tests.conftest import signed_identity

CALLS = {
    "time": ("post", "/contents/2/episodes/3/time-progress", {"time": 5}, 204),
    "mark": ("post", "/contents/2/episodes/3/completed", None, 204),
    "unmark": ("delete", "/contents/2/episodes/3/completed", None, 204),
    "last": ("get", "/contents/2/episodes/watched/last", None, 200),  # the caller's own save just above
    "marks": ("get", "/contents/2/episodes/progress", None, 200),
    "view": ("post", "/contents/2/history", {}, 204),
    "history": ("post", "/contents/history", {}, 200),
    "search": ("post", "/contents/history/search", {"query": "гавань"}, 200),
    "sessions": ("get", "/user/sessions", None, 200),
    "end-others": ("post", "/user/sessions/end-others", None, 200),
    "end-one": ("delete", "/user/sessions/0f4b9e2c6d1a4f3e8b7c5a9d2e1f0c3b", None, 404),  # not the caller's: none
    "sign-out": ("post", "/authentication/sign-out", {}, 204),
}
ACCOUNT_ONLY = {"sessions", "end-others", "end-one", "sign-out"}
CALLERS = ("nobody", "device", "viewer", "viewer+device", "editor", "admin", "blocked", "expired", "forged")


def expected(caller: str, call: str) -> tuple[int, str | None]:
    """(status, error code) the caller must get."""
    if caller == "blocked":
        return 401, "token_revoked"
    if caller == "expired":
        return 401, "token_expired"
    if caller == "forged":
        return 401, "invalid_token"
    if caller == "nobody":
        return 401, "unauthorized" if call in ACCOUNT_ONLY else "viewer_unknown"
    if caller == "device" and call in ACCOUNT_ONLY:
        return 401, "unauthorized"
    return CALLS[call][3], None


@pytest.fixture
def callers(app, demo_catalogue) -> dict[str, dict[str, str]]:
    device = {"X-Session-Context": signed_identity(app, "ann0device000000000001")}
    headers: dict[str, dict[str, str]] = {"nobody": {}, "device": device}
    for role in (Role.VIEWER, Role.EDITOR, Role.ADMIN):
        make_account(app, f"{role.value}@example.com", role)
        headers[role.value] = bearer(sign_in(app.test_client(), f"{role.value}@example.com"))
    headers["viewer+device"] = headers["viewer"] | device
    blocked_id = make_account(app, "blocked@example.com")
    headers["blocked"] = bearer(sign_in(app.test_client(), "blocked@example.com")) | device
    block(app, blocked_id)
    with app.app_context():
        expired = create_access_token("1", additional_claims={"role": "viewer", "sid": "x" * 32},
                                      expires_delta=timedelta(seconds=-5))
    headers["expired"] = bearer(expired) | device
    headers["forged"] = {"Authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"} | device
    return headers


@pytest.mark.parametrize("caller", CALLERS)
def test_every_library_call_for_every_caller(app, client, callers, caller):
    wrong = []
    for name, (method, path, body, _) in CALLS.items():
        if name == "sign-out":
            continue  # last: it ends the caller's session
        response = getattr(client, method)(path, json=body, headers=callers[caller]) if body is not None else \
            getattr(client, method)(path, headers=callers[caller])
        status, code = expected(caller, name)
        got = (response.status_code, (response.get_json() or {}).get("error", {}).get("code") if code else None)
        if got != (status, code):
            wrong.append(f"{name}: {got} instead of {(status, code)}")
    method, path, body, _ = CALLS["sign-out"]
    response = client.post(path, json=body, headers=callers[caller])
    status, code = expected(caller, "sign-out")
    if response.status_code != status:
        wrong.append(f"sign-out: {response.status_code} instead of {status}")
    assert wrong == []


@pytest.mark.parametrize("path", ["/contents/2/history", "/contents/history", "/contents/2/episodes/3/time-progress"])
def test_a_preflight_is_never_asked_for_a_viewer(client, demo_catalogue, path):
    """A browser's CORS preflight carries none of the request's headers (no X-Session-Context, no token)."""
    response = client.options(path, headers={"Origin": "https://site.example", "Access-Control-Request-Method": "POST"})
    assert response.status_code == 200 and "POST" in response.headers["Allow"]
