"""Administration calls (spec §7, §6): administrators only, checked on the server for every route, and what they do:
search accounts, create one, block one (its sessions end on their very next request)."""

from __future__ import annotations

import pytest

from app.models import Role
from tests.api.accounts_helpers import PASSWORD, bearer, block, make_account, sign_in
from tests.api.test_catalogue_api import assert_error

CALLERS = ("anonymous", "viewer", "editor", "blocked admin", "admin")


def routes(target_id: int) -> list[tuple[str, str, dict]]:
    return [
        ("POST", "/administration/users", {"json": {}}),
        ("POST", "/administration/new-user", {"json": {"email": "new@example.com", "name": "New",
                                                       "password": "a new long passphrase", "role": "editor"}}),
        ("POST", f"/administration/block-user/{target_id}", {}),
        ("POST", f"/administration/unblock-user/{target_id}", {}),
    ]


@pytest.fixture
def callers(app):
    """Each kind of caller's headers (the blocked admin signed in before the block)."""
    headers = {"anonymous": {}}
    for name, role in (("viewer", Role.VIEWER), ("editor", Role.EDITOR), ("admin", Role.ADMIN),
                       ("blocked admin", Role.ADMIN)):
        email = f"{name.replace(' ', '-')}@example.com"
        make_account(app, email, role)
        headers[name] = bearer(sign_in(app.test_client(), email))
    with app.app_context():
        from app.services.accounts.accounts import find_account
        blocked_id = find_account("blocked-admin@example.com").id
    block(app, blocked_id)
    return headers


@pytest.mark.parametrize("caller", CALLERS)
def test_every_administration_route_refuses_all_but_an_administrator(app, callers, caller):
    target = make_account(app, f"target-{caller.replace(' ', '-')}@example.com")
    expected = {"anonymous": 401, "viewer": 403, "editor": 403, "blocked admin": 401}
    for method, path, kwargs in routes(target):
        response = app.test_client().open(path, method=method, headers=callers[caller], **kwargs)
        if caller == "admin":
            assert response.status_code in (200, 201), (path, response.get_json())
        else:
            error = assert_error(response, expected[caller], response.get_json()["error"]["code"])
            assert error["code"] in {"unauthorized", "forbidden", "token_revoked"}, (path, error)


def test_the_matrix_is_every_administration_route(app):
    documented = {path for path in app.test_client().get("/openapi.json").get_json()["paths"]
                  if path.startswith("/administration/")}
    assert documented == {"/administration/users", "/administration/new-user",
                          "/administration/block-user/{account_id}", "/administration/unblock-user/{account_id}"}


def test_a_blocked_account_is_refused_on_its_very_next_request(app, client):
    admin = bearer(sign_in(client, "root@example.com")) if make_account(app, "root@example.com", Role.ADMIN) else None
    victim_id = make_account(app, "anna@example.com")
    victim = sign_in(app.test_client(), "anna@example.com")
    assert client.get("/user/details", headers=bearer(victim)).status_code == 200
    response = client.post(f"/administration/block-user/{victim_id}", headers=admin)
    assert response.status_code == 200 and response.get_json()["blocked"] is True
    assert_error(client.get("/user/details", headers=bearer(victim)), 401, "token_revoked")
    assert_error(client.post("/authentication/refresh", json={"refreshToken": victim["refreshToken"]}),
                 401, "token_revoked")
    assert_error(client.post("/authentication", json={"email": "anna@example.com", "password": PASSWORD}),
                 403, "account_blocked")
    assert_error(client.post("/authentication", json={"email": "anna@example.com", "password": "wrong password"}),
                 401, "invalid_credentials")  # blocked is said only to the right password


def test_an_unblocked_account_signs_in_again_and_its_old_sessions_stay_ended(app, client):
    make_account(app, "root@example.com", Role.ADMIN)
    admin = bearer(sign_in(client, "root@example.com"))
    victim_id = make_account(app, "anna@example.com")
    old = sign_in(app.test_client(), "anna@example.com")
    assert client.post(f"/administration/block-user/{victim_id}", headers=admin).get_json()["blocked"] is True
    response = client.post(f"/administration/unblock-user/{victim_id}", headers=admin)
    assert response.status_code == 200 and response.get_json()["blocked"] is False
    assert_error(client.get("/user/details", headers=bearer(old)), 401, "token_revoked")
    fresh = sign_in(app.test_client(), "anna@example.com")
    assert client.get("/user/details", headers=bearer(fresh)).status_code == 200
    again = client.post(f"/administration/unblock-user/{victim_id}", headers=admin)  # not blocked: as it is
    assert again.status_code == 200 and again.get_json()["blocked"] is False
    for missing in (999_999, 2**31):
        assert_error(client.post(f"/administration/unblock-user/{missing}", headers=admin), 404, "account_not_found")


def test_an_administrator_cannot_block_themselves_and_unknown_ids_are_404(app, client):
    admin_id = make_account(app, "root@example.com", Role.ADMIN)
    admin = bearer(sign_in(client, "root@example.com"))
    assert_error(client.post(f"/administration/block-user/{admin_id}", headers=admin), 409, "cannot_block_self")
    for missing in (999_999, 2**31, 2**63):
        assert_error(client.post(f"/administration/block-user/{missing}", headers=admin), 404, "account_not_found")


def test_search_pages_and_filters_accounts(app, client):
    make_account(app, "root@example.com", Role.ADMIN)
    admin = bearer(sign_in(client, "root@example.com"))
    for n in range(5):
        make_account(app, f"viewer{n}@example.com")
    make_account(app, "editor@example.com", Role.EDITOR)
    page = client.post("/administration/users", json={"query": "VIEWER", "pageSize": 2, "page": 2},
                       headers=admin).get_json()
    assert page["total"] == 5 and page["page"] == 2 and page["pageSize"] == 2
    assert [u["email"] for u in page["items"]] == ["viewer2@example.com", "viewer1@example.com"]
    editors = client.post("/administration/users", json={"role": "editor"}, headers=admin).get_json()
    assert [u["email"] for u in editors["items"]] == ["editor@example.com"]
    literal = client.post("/administration/users", json={"query": "%"}, headers=admin).get_json()
    assert literal["total"] == 0  # a wildcard is a character here
    assert_error(client.post("/administration/users", json={"pageSize": 101}, headers=admin), 422,
                 "validation_error")


def test_new_user_is_confirmed_with_its_role_and_a_taken_email_is_409(app, client):
    make_account(app, "root@example.com", Role.ADMIN)
    admin = bearer(sign_in(client, "root@example.com"))
    body = {"email": "Ed@Example.com", "name": "Эд", "password": "an editor's passphrase", "role": "editor"}
    created = client.post("/administration/new-user", json=body, headers=admin)
    assert created.status_code == 201
    assert created.get_json() | {"id": 0, "createdAt": ""} == {
        "id": 0, "email": "ed@example.com", "name": "Эд", "role": "editor", "subscription": None,
        "confirmed": True, "blocked": False, "createdAt": ""}
    claims = sign_in(client, "ed@example.com", "an editor's passphrase")
    assert claims["accessToken"]
    assert_error(client.post("/administration/new-user", json=body, headers=admin), 409, "email_taken")
    assert_error(client.post("/administration/new-user", json=body | {"email": "x@example.com", "password": "qwerty"},
                             headers=admin), 422, "weak_password")
