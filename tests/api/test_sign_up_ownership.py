"""Issue 30 (4): a pending sign-up could be taken over. The owner signed up with P1, a stranger signed up for the same
email with P2, the owner completed with the newest code the mailbox got, and the account had the stranger's P2.

The property held here: no sequence of calls by someone who cannot read the mailbox ends with an account whose
password they know. The password now comes with the code (POST /signup/complete), so it is always one the mailbox's
owner typed; the stranger plays both ways round, and can neither lock the owner out nor sign in."""

from __future__ import annotations

import pytest

from app.http.mail import drain
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.test_catalogue_api import assert_error

EMAIL = "anna@example.com"
OWNER_PASSWORD = "the owner's own passphrase"
STRANGER_PASSWORD = "a stranger's passphrase"


@pytest.fixture(autouse=True)
def room_to_play(app):
    """Both people's calls name one email: its per-account limit is not what is tested here (test_auth_limits)."""
    app.config.update(RATE_LIMIT_AUTH_ACCOUNT="1000 per minute", RATE_LIMIT_AUTH_IP="1000 per minute")


def stranger_signs_up(app):
    """Everything a stranger can send to /signup for someone else's email, from another address: a sign-up with a
    password of theirs (as the probe did) and one without; the service takes one shape or the other."""
    stranger = app.test_client()
    other = {"REMOTE_ADDR": "198.51.100.66"}
    statuses = []
    for body in ({"email": EMAIL, "name": "Чужой"}, {"email": EMAIL, "password": STRANGER_PASSWORD, "name": "Чужой"}):
        statuses.append(stranger.post("/signup", json=body, environ_base=other).status_code)
        drain()  # each mail in before the next call: the mailbox's order is the calls'
    assert sorted(statuses) == [202, 422]  # anyone may start a sign-up
    # and without the code, the completion is a guess
    guess = stranger.post("/signup/complete", json={"email": EMAIL, "code": "000000", "password": STRANGER_PASSWORD},
                          environ_base=other)
    assert guess.status_code == 422 and "accessToken" not in guess.get_data(as_text=True)


def password_at(client) -> str:
    """Where the OpenAPI document asks for the new account's password: "signup" or "complete". The owner's client
    follows it, so the scenarios below hold the service to the property, not to one shape of its calls."""
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    return "signup" if "password" in schemas["SignUp"]["properties"] else "complete"


def owner_signs_up(client):
    body = {"email": EMAIL, "name": "Анна"}
    if password_at(client) == "signup":
        body["password"] = OWNER_PASSWORD
    assert client.post("/signup", json=body).status_code == 202
    drain()


def owner_completes_with_the_newest_code(client, mailbox):
    """The owner reads the newest mail (whoever's sign-up sent it) and types their own password with its code."""
    drain()
    code = mailbox.code_for(EMAIL, len(mailbox.wait_for(EMAIL)))
    body = {"email": EMAIL, "code": code}
    if password_at(client) == "complete":
        body.update(password=OWNER_PASSWORD, name="Анна")
    response = client.post("/signup/complete", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def only_the_owner_signs_in(client):
    tokens = sign_in(client, EMAIL, OWNER_PASSWORD)
    assert client.get("/user/details", headers=bearer(tokens)).get_json()["name"] == "Анна"
    assert_error(client.post("/authentication", json={"email": EMAIL, "password": STRANGER_PASSWORD}),
                 401, "invalid_credentials")


@pytest.mark.parametrize("order", ["stranger first", "owner first"])
def test_the_password_is_the_one_the_mailbox_owner_typed_whoever_signed_up_last(app, client, mailbox, order):
    if order == "stranger first":
        stranger_signs_up(app)
        owner_signs_up(client)
    else:
        owner_signs_up(client)
        stranger_signs_up(app)  # its mail replaces the owner's code: the newest code is the stranger's sign-up's
    owner_completes_with_the_newest_code(client, mailbox)
    only_the_owner_signs_in(client)
    before = len(mailbox.to(EMAIL))
    stranger_signs_up(app)  # after the confirmation: nothing changes, the owner is told
    told = {mail["Subject"] for mail in mailbox.to(EMAIL)[before:]}
    assert told == {"Попытка регистрации"}
    only_the_owner_signs_in(client)


def test_a_strangers_sign_up_neither_signs_the_stranger_in_nor_locks_the_owner_out(app, client, mailbox):
    stranger_signs_up(app)
    # pending: the stranger's password opens nothing, and says nothing the unknown email would not
    unknown = client.post("/authentication", json={"email": "nobody@example.com", "password": STRANGER_PASSWORD})
    pending = client.post("/authentication", json={"email": EMAIL, "password": STRANGER_PASSWORD})
    assert_error(pending, 401, "invalid_credentials")
    assert pending.get_json()["error"]["message"] == unknown.get_json()["error"]["message"]
    # the stranger spends every try of the live code: the owner signs up again and gets in all the same
    stranger = app.test_client()
    for guess in range(app.config["ACCOUNT_CODE_ATTEMPTS"] + 1):
        stranger.post("/signup/complete", json={"email": EMAIL, "code": f"{guess:06d}", "password": STRANGER_PASSWORD})
    owner_signs_up(client)
    owner_completes_with_the_newest_code(client, mailbox)
    only_the_owner_signs_in(client)


def test_the_owner_can_complete_with_the_code_of_a_strangers_sign_up(app, client, mailbox):
    """The mail a stranger's sign-up sent is in the owner's mailbox: its code confirms with the owner's password."""
    stranger_signs_up(app)
    owner_completes_with_the_newest_code(client, mailbox)
    only_the_owner_signs_in(client)


def test_a_confirmed_owner_is_never_touched_by_a_strangers_sign_up(app, client, mailbox):
    make_account(app, EMAIL, password=OWNER_PASSWORD)
    stranger_signs_up(app)
    sign_in(client, EMAIL, OWNER_PASSWORD)
    assert_error(client.post("/authentication", json={"email": EMAIL, "password": STRANGER_PASSWORD}),
                 401, "invalid_credentials")
    assert {mail["Subject"] for mail in mailbox.to(EMAIL)} == {"Попытка регистрации"}


def test_the_password_is_checked_at_completion_and_a_weak_one_costs_no_try(app, client, mailbox):
    app.config["ACCOUNT_CODE_ATTEMPTS"] = 1
    owner_signs_up(client)
    code = mailbox.code_for(EMAIL)
    weak = client.post("/signup/complete", json={"email": EMAIL, "code": code, "password": "password123"})
    assert assert_error(weak, 422, "weak_password")["message"] == "Этот пароль слишком распространён, выберите другой"
    missing = client.post("/signup/complete", json={"email": EMAIL, "code": code})
    assert "password" in assert_error(missing, 422, "validation_error")["details"]["fields"]
    owner_completes_with_the_newest_code(client, mailbox)  # the same code, its one try unspent
    only_the_owner_signs_in(client)


def test_the_openapi_document_says_where_the_password_goes(client):
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    assert "password" not in schemas["SignUp"]["properties"]
    assert {"email", "code", "password"} <= set(schemas["SignUpComplete"]["required"])
