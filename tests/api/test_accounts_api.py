"""The authenticator (spec §7): sign-up confirmed by a mailed code (through a real SMTP server), sign-in with spec §3's
cookies, token refresh with rotation and reuse detection, restoring and changing a password, the account's details."""

from __future__ import annotations

import time
from datetime import timedelta
from http.cookies import SimpleCookie

import jwt
import pytest

from app.http.mail import drain
from tests.api.accounts_helpers import PASSWORD, bearer, make_account, sign_in
from tests.api.test_catalogue_api import assert_error

NEW_PASSWORD = "another long passphrase"


def cookies_of(response) -> dict[str, dict[str, str]]:
    found = {}
    for header in response.headers.getlist("Set-Cookie"):
        jar = SimpleCookie()
        jar.load(header)
        for name, morsel in jar.items():
            found[name] = {"value": morsel.value, **{k: v for k, v in morsel.items() if v},
                           "httponly": "HttpOnly" in header, "secure": "Secure" in header}
    return found


def sign_up(client, mailbox, email="anna@example.com", name="Анна"):
    response = client.post("/signup", json={"email": email, "name": name})
    assert response.status_code == 202
    return mailbox.code_for(email)


def complete(client, code, email="anna@example.com", password=PASSWORD, **more):
    return client.post("/signup/complete", json={"email": email, "code": code, "password": password, **more})


def test_sign_up_mails_a_code_that_confirms_the_account_and_signs_in(client, mailbox):
    code = sign_up(client, mailbox, email="Anna@Example.com")
    mail = mailbox.to("anna@example.com")[0]
    assert mail["Subject"] == "Код подтверждения"
    assert_error(client.post("/authentication", json={"email": "anna@example.com", "password": PASSWORD}),
                 401, "invalid_credentials")  # unconfirmed: no password yet, no sign-in
    response = complete(client, code, email="ANNA@example.com")
    assert response.status_code == 200
    tokens = response.get_json()
    assert set(tokens) == {"accessToken", "refreshToken", "expiresAt"}
    details = client.get("/user/details", headers=bearer(tokens)).get_json()
    assert details == {"id": details["id"], "email": "anna@example.com", "name": "Анна", "role": "viewer",
                       "subscription": None}
    assert_error(complete(client, code, password=NEW_PASSWORD), 422, "invalid_code")  # single use
    assert sign_in(client, "anna@example.com")["accessToken"]


def test_a_sign_up_code_takes_a_few_wrong_tries_then_none(app, client, mailbox):
    code = sign_up(client, mailbox)
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    for _ in range(app.config["ACCOUNT_CODE_ATTEMPTS"]):
        assert_error(complete(client, wrong), 422, "invalid_code")
    assert_error(complete(client, code), 422, "invalid_code")  # the right code, too late


def test_an_expired_code_is_refused(app, client, mailbox):
    app.config["ACCOUNT_CODE_MINUTES"] = 0
    code = sign_up(client, mailbox)
    assert_error(complete(client, code), 422, "invalid_code")


def test_a_new_sign_up_code_replaces_the_old_one(client, mailbox):
    first = sign_up(client, mailbox)
    client.post("/signup", json={"email": "anna@example.com", "name": "Анна Каренина"})
    second = mailbox.code_for("anna@example.com", 2)
    if first != second:
        assert_error(complete(client, first), 422, "invalid_code")
    assert complete(client, second, password=NEW_PASSWORD).status_code == 200
    tokens = sign_in(client, "anna@example.com", NEW_PASSWORD)  # the password that came with the code used
    assert client.get("/user/details", headers=bearer(tokens)).get_json()["name"] == "Анна Каренина"


def test_a_taken_email_gets_the_same_answer_and_its_owner_a_warning(app, client, mailbox):
    make_account(app, "taken@example.com")
    taken = client.post("/signup", json={"email": "taken@example.com", "name": "X"})
    free = client.post("/signup", json={"email": "free@example.com", "name": "X"})
    assert (taken.status_code, taken.get_json()) == (free.status_code, free.get_json()) == (202, free.get_json())
    assert mailbox.wait_for("taken@example.com")[0]["Subject"] == "Попытка регистрации"
    sign_in(client, "taken@example.com", PASSWORD)  # nothing changed


@pytest.mark.parametrize(("password", "message"), [
    ("short", "Пароль должен быть не короче 10 символов"),
    ("password123", "Этот пароль слишком распространён, выберите другой"),
    ("x" * 129, "Пароль должен быть не длиннее 128 символов"),
])
def test_a_weak_password_is_refused_with_its_reason(client, mailbox, password, message):
    code = sign_up(client, mailbox)
    assert assert_error(complete(client, code, password=password), 422, "weak_password")["message"] == message
    assert complete(client, code).status_code == 200  # the code is still good for a strong one


def test_the_password_is_not_taken_at_sign_up(client, mailbox):
    """It comes with the code (tests/api/test_sign_up_ownership.py says why): a client still sending one is told."""
    response = client.post("/signup", json={"email": "anna@example.com", "password": PASSWORD, "name": "Анна"})
    assert "password" in assert_error(response, 422, "validation_error")["details"]["fields"]
    assert mailbox.to("anna@example.com") == []


def test_sign_in_sets_spec_cookies_and_unknown_email_equals_wrong_password(app, client):
    make_account(app, "anna@example.com")
    response = client.post("/authentication", json={"email": "anna@example.com", "password": PASSWORD})
    tokens = response.get_json()
    cookies = cookies_of(response)
    auth, refresh = cookies["authToken"], cookies["refreshToken"]
    assert auth["value"] == tokens["accessToken"] and refresh["value"] == tokens["refreshToken"]
    assert auth["path"] == refresh["path"] == "/"
    assert not auth["httponly"] and refresh["httponly"]  # the player reads authToken (spec §4)
    assert auth["samesite"] == "Lax" and not auth["secure"]  # plain http: development
    claims = jwt.decode(tokens["accessToken"], options={"verify_signature": False})
    assert claims["role"] == "viewer" and claims["sid"]
    expires = time.mktime(time.strptime(auth["expires"], "%a, %d %b %Y %H:%M:%S GMT")) - time.timezone
    assert abs(expires - claims["exp"]) <= 1  # the cookie expires with the token (spec §3)
    assert response.headers["Authorization"] == f"Bearer {tokens['accessToken']}"

    wrong = client.post("/authentication", json={"email": "anna@example.com", "password": "not the password"})
    unknown = client.post("/authentication", json={"email": "nobody@example.com", "password": "not the password"})
    for answer in (wrong, unknown):
        assert_error(answer, 401, "invalid_credentials")
    strip = lambda body: {k: v for k, v in body["error"].items() if k != "requestId"}  # noqa: E731
    assert strip(wrong.get_json()) == strip(unknown.get_json())


def test_cookies_are_secure_and_same_site_none_over_https(app, client):
    make_account(app, "anna@example.com")
    app.config["PUBLIC_URL"] = "https://player.example"
    response = client.post("/authentication", json={"email": "anna@example.com", "password": PASSWORD})
    for cookie in cookies_of(response).values():
        assert cookie["secure"] and cookie["samesite"] == "None"


def test_a_cookie_write_needs_the_csrf_header_and_a_bearer_call_does_not(app, client):
    make_account(app, "anna@example.com")
    tokens = sign_in(client, "anna@example.com")  # the client keeps the cookies
    assert client.get("/user/details").status_code == 200  # a read by cookie
    assert_error(client.patch("/user/rename?name=Аня"), 401, "csrf_failed")
    assert_error(client.patch("/user/rename?name=Аня", headers={"X-CSRF-TOKEN": "forged"}), 401, "csrf_failed")
    csrf = client.get_cookie("csrf_access_token").value
    assert client.patch("/user/rename?name=Аня", headers={"X-CSRF-TOKEN": csrf}).get_json()["name"] == "Аня"
    other = app.test_client()
    assert other.patch("/user/rename?name=Ася", headers=bearer(tokens)).get_json()["name"] == "Ася"


def test_refresh_puts_the_new_token_in_authorization_and_rotates(app, client):
    make_account(app, "anna@example.com")
    tokens = sign_in(client, "anna@example.com")
    response = client.post("/authentication/refresh", json={"refreshToken": tokens["refreshToken"],
                                                           "accessToken": tokens["accessToken"]})
    assert response.status_code == 200
    renewed = response.get_json()
    assert response.headers["Authorization"] == f"Bearer {renewed['accessToken']}"
    assert renewed["refreshToken"] != tokens["refreshToken"]
    assert cookies_of(response)["refreshToken"]["value"] == renewed["refreshToken"]
    assert client.get("/user/details", headers=bearer(renewed)).status_code == 200


def test_two_tabs_refreshing_at_once_both_get_the_same_new_pair(app, client):
    make_account(app, "anna@example.com")
    tokens = sign_in(client, "anna@example.com")
    first = client.post("/authentication/refresh", json={"refreshToken": tokens["refreshToken"]}).get_json()
    second = client.post("/authentication/refresh", json={"refreshToken": tokens["refreshToken"]}).get_json()
    assert second["refreshToken"] == first["refreshToken"]
    assert client.post("/authentication/refresh", json={"refreshToken": first["refreshToken"]}).status_code == 200


def test_a_replayed_refresh_token_revokes_its_whole_session(app, client, clock):
    app.config["REFRESH_GRACE_SECONDS"] = 0
    make_account(app, "anna@example.com")
    stolen = sign_in(client, "anna@example.com")
    other_session = sign_in(app.test_client(), "anna@example.com")
    honest = client.post("/authentication/refresh", json={"refreshToken": stolen["refreshToken"]}).get_json()
    clock.shift(1)  # past the grace window
    assert_error(client.post("/authentication/refresh", json={"refreshToken": stolen["refreshToken"]}),
                 401, "refresh_token_reused")
    assert_error(client.get("/user/details", headers=bearer(honest)), 401, "token_revoked")
    assert_error(client.post("/authentication/refresh", json={"refreshToken": honest["refreshToken"]}),
                 401, "token_revoked")
    assert client.get("/user/details", headers=bearer(other_session)).status_code == 200  # only that session


def test_refresh_by_cookie_needs_its_csrf_header(app, client):
    make_account(app, "anna@example.com")
    sign_in(client, "anna@example.com")
    assert_error(client.post("/authentication/refresh", json={}), 401, "csrf_failed")
    csrf = client.get_cookie("csrf_refresh_token").value
    response = client.post("/authentication/refresh", json={}, headers={"X-CSRF-TOKEN": csrf})
    assert response.status_code == 200 and response.headers["Authorization"].startswith("Bearer ")


def test_refresh_refuses_an_access_token_of_another_session_and_forged_tokens(app, client):
    make_account(app, "anna@example.com")
    one, two = sign_in(client, "anna@example.com"), sign_in(client, "anna@example.com")
    assert_error(client.post("/authentication/refresh", json={"refreshToken": one["refreshToken"],
                                                              "accessToken": two["accessToken"]}),
                 401, "token_mismatch")
    forged = jwt.encode({"sub": "1", "type": "refresh", "jti": "x", "sid": "y", "exp": 2**31 - 1},
                        "not the key, though long enough for HS256", algorithm="HS256")
    for token in (forged, "garbage", one["accessToken"]):  # an access token is no refresh token
        response = client.post("/authentication/refresh", json={"refreshToken": token})
        assert_error(response, 401, response.get_json()["error"]["code"])
    assert_error(app.test_client().get("/user/details", headers=bearer(forged)), 401, "invalid_token")
    assert_error(app.test_client().get("/user/details", headers={"Authorization": "Bearer"}), 401, "invalid_token")


def test_an_expired_access_token_is_refused_in_the_error_shape(app, client, clock):
    app.config["JWT_ACCESS_TOKEN_EXPIRES"] = timedelta(seconds=1)
    make_account(app, "anna@example.com")
    tokens = sign_in(client, "anna@example.com")
    assert client.get("/user/details", headers=bearer(tokens)).status_code == 200
    clock.shift(1)  # its second is over
    assert_error(app.test_client().get("/user/details", headers=bearer(tokens)), 401, "token_expired")


def test_restore_answers_alike_for_every_email_and_ends_every_session(app, client, mailbox):
    make_account(app, "anna@example.com")
    session = sign_in(app.test_client(), "anna@example.com")
    known = client.post("/user/password/restore/init", json={"email": "anna@example.com"})
    unknown = client.post("/user/password/restore/init", json={"email": "nobody@example.com"})
    assert (known.status_code, known.get_json()) == (unknown.status_code, unknown.get_json()) == (202, known.get_json())
    code = mailbox.code_for("anna@example.com")
    assert mailbox.to("anna@example.com")[0]["Subject"] == "Восстановление пароля"
    assert_error(client.post("/user/password/restore", json={"email": "nobody@example.com", "code": code,
                                                             "password": NEW_PASSWORD}), 422, "invalid_code")
    response = client.post("/user/password/restore", json={"email": "anna@example.com", "code": code,
                                                           "password": NEW_PASSWORD})
    assert response.status_code == 200
    assert_error(client.get("/user/details", headers=bearer(session)), 401, "token_revoked")
    assert_error(client.post("/authentication/refresh", json={"refreshToken": session["refreshToken"]}),
                 401, "token_revoked")
    sign_in(client, "anna@example.com", NEW_PASSWORD)
    assert_error(client.post("/user/password/restore", json={"email": "anna@example.com", "code": code,
                                                             "password": PASSWORD}), 422, "invalid_code")
    drain()  # what ran after the answers (the lookups, the one mail)
    assert mailbox.to("nobody@example.com") == []


def test_change_password_keeps_this_session_and_ends_the_others(app, client):
    make_account(app, "anna@example.com")
    mine, elsewhere = sign_in(client, "anna@example.com"), sign_in(app.test_client(), "anna@example.com")
    assert_error(client.post("/user/password/change", headers=bearer(mine),
                             json={"oldPassword": "wrong password!", "newPassword": NEW_PASSWORD}),
                 403, "wrong_password")
    assert_error(client.post("/user/password/change", headers=bearer(mine),
                             json={"oldPassword": PASSWORD, "newPassword": "123456789"}), 422, "weak_password")
    response = client.post("/user/password/change", headers=bearer(mine),
                           json={"oldPassword": PASSWORD, "newPassword": NEW_PASSWORD})
    assert response.status_code == 204
    assert client.get("/user/details", headers=bearer(mine)).status_code == 200
    assert_error(client.get("/user/details", headers=bearer(elsewhere)), 401, "token_revoked")
    sign_in(client, "anna@example.com", NEW_PASSWORD)


def test_rename_and_details(app, client):
    make_account(app, "anna@example.com")
    tokens = sign_in(client, "anna@example.com")
    response = client.patch("/user/rename", query_string={"name": "  Анна К.  "}, headers=bearer(tokens))
    assert response.get_json()["name"] == "Анна К."
    assert client.get("/user/details", headers=bearer(tokens)).get_json()["name"] == "Анна К."
    for name in ("", "   ", "x" * 101):
        assert_error(client.patch("/user/rename", query_string={"name": name}, headers=bearer(tokens)),
                     422, "validation_error")
    assert_error(app.test_client().get("/user/details"), 401, "unauthorized")


@pytest.mark.parametrize("body", [
    b"{", b"[]", b'{"email": 5, "password": "x"}', b'{"email": "not-an-email", "password": "x"}',
    b'{"email": "a@example.com"}', b'{"email": "a@example.com", "password": "x", "extra": 1}',
])
def test_bad_input_gets_a_clear_error(client, body):
    response = client.post("/authentication", data=body, content_type="application/json")
    assert response.status_code in (400, 422)
    assert_error(response, response.status_code, response.get_json()["error"]["code"])


def test_a_password_is_never_in_an_answer_or_the_log(app, client, caplog):
    make_account(app, "anna@example.com")
    caplog.set_level("DEBUG")
    bodies = [client.post("/authentication", json={"email": "anna@example.com", "password": PASSWORD}).get_data(True),
              client.post("/signup/complete", json={"email": "b@example.com", "code": "123456",
                                                    "password": PASSWORD}).get_data(True)]
    assert all(PASSWORD not in body for body in bodies)
    assert PASSWORD not in caplog.text
