"""Input that costs us (app/http/limits.py): bodies past the limit, JSON nested or numbered to hurt the parser,
control characters that PostgreSQL cannot store. Each is refused before any view, in the error shape; none is a 500."""

from __future__ import annotations

import io
import json

import pytest

from tests.api.test_catalogue_api import assert_error
from tests.api.test_player_page import page_context

TIME = "/contents/2/episodes/3/time-progress"  # the API's JSON write


class CountingStream(io.RawIOBase):
    """A body of ``size`` bytes that is never held in memory; ``read_bytes`` says how much the server took."""

    def __init__(self, size: int) -> None:
        self.size = self.left = size
        self.position = 0
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:  # the test client measures the body this way
        self.position = self.size if whence == 2 else offset
        return self.position

    def tell(self) -> int:
        return self.position

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        n = min(len(buffer), self.left)
        buffer[:n] = b" " * n
        self.left -= n
        self.read_bytes += n
        return n


def test_a_100_mb_body_is_refused_unread(client):
    body = CountingStream(100 * 2**20)
    response = client.post(TIME, input_stream=body, content_type="application/json")
    assert_error(response, 413, "payload_too_large")
    assert body.read_bytes == 0  # refused from its declared length, nothing read


@pytest.mark.parametrize(("body", "message"), [
    ("[" * 20_000 + "]" * 20_000, "вложено глубже 32 уровней"),  # 40 kB: was a RecursionError, a 500
    ('{"time": ' + "[" * 33 + "]" * 33 + "}", "вложено глубже 32 уровней"),
    ('{"time": ' + "9" * 5000 + "}", "длиннее 19 цифр"),  # was a ValueError past 4,300 digits: a 500
    ('{"time": -' + "9" * 20 + "}", "длиннее 19 цифр"),
    ('{"time": 1e999}', "вне допустимого диапазона"),
    ('{"time": NaN}', "NaN — не JSON"),
    ('{"time": 1, "note": "a\\u0000b"}', "управляющий символ"),  # PostgreSQL cannot store NUL: was a 500
    ('{"time": 1, "a\\u0007": 1}', "управляющий символ"),
    ('{"time": 1', "Тело запроса — не JSON"),
    (b'{"time": "\xff"}', "Тело запроса — не JSON"),
])
def test_json_that_would_hurt_the_parser_or_the_database_is_a_400(client, body, message):
    error = assert_error(client.post(TIME, data=body, content_type="application/json"), 400, "bad_request")
    assert message in error["message"]


def test_text_with_tabs_and_newlines_is_fine_json(client):
    # passes the guard (the view then asks who is watching)
    response = client.post(TIME, data='{"time": 1, "note": "a\\tb\\nc"}', content_type="application/json")
    assert response.status_code == 401


@pytest.mark.parametrize("query", ["event=start&source=a%00b", "event=start%0A", "ev%01ent=start", "event=start&x=%7F"])
def test_a_control_character_in_the_query_is_a_400(client, query):
    error = assert_error(client.get(f"/ad-tracking?{query}"), 400, "bad_request")
    assert "управляющий символ" in error["message"]


def test_the_player_page_ignores_a_value_with_one_as_the_spec_ignores_invalid_values(client, demo_catalogue):
    response = client.get("/?movie_id=1&user_id=a%00b&voice_author=x%0Ay")
    assert response.status_code == 200
    assert page_context(response)["userId"] is None and page_context(response)["voiceAuthor"] is None


LONE = "\ud800"  # half of a UTF-16 pair: JSON can write it ("\ud800"), UTF-8 cannot encode it
SURROGATE_CALLS = {  # a body each call would take, and the field of it that a person types
    "/authentication": ({"email": "anna@example.com", "password": "a long enough passphrase"}, "password"),
    "/signup": ({"email": "anna@example.com", "name": "Анна"}, "name"),
    "/administration/new-user": ({"email": "new@example.com", "name": "Новый", "password": "a long enough passphrase",
                                  "role": "editor"}, "name"),
}


def with_surrogate(body: dict, field: str, position: str) -> dict:
    body = dict(body)
    if position == "value":
        body[field] = LONE + body[field]
    elif position == "key":
        body[LONE] = "x"
    elif position == "nested value":
        body["extra"] = {"deeper": [1, {"deepest": f"a{LONE}b"}]}
    elif position == "nested key":
        body["extra"] = [{f"{LONE}key": 1}]
    return body


@pytest.mark.parametrize("position", ["value", "key", "nested value", "nested key"])
@pytest.mark.parametrize("path", sorted(SURROGATE_CALLS))
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "administrator"])
def test_a_lone_surrogate_anywhere_in_a_json_body_is_a_400(app, client, path, position, signed_in):
    """Issue 30 (8): a password, a name or a key holding "\\ud800" was a 500 (the hasher, SQLite and PostgreSQL
    cannot encode it; an unknown key came back in the 422 and broke the answer). Refused before any view or token
    check, so alike for every caller."""
    from app.models import Role
    from tests.api.accounts_helpers import bearer, make_account, sign_in

    headers = {}
    if signed_in:
        make_account(app, "admin@example.com", Role.ADMIN)
        headers = bearer(sign_in(client, "admin@example.com"))
    body, field = SURROGATE_CALLS[path]
    sent = json.dumps(with_surrogate(body, field, position))  # ASCII, the surrogate written as \ud800
    assert "\\ud800" in sent
    response = client.post(path, data=sent, content_type="application/json", headers=headers)
    assert "одиночный суррогат" in assert_error(response, 400, "bad_request")["message"]


def test_a_surrogate_pair_is_text_like_any_other(client, mailbox):
    sent = json.dumps({"email": "anna@example.com", "name": "Анна \U0001f600"})
    assert "\\ud83d\\ude00" in sent  # the pair, as JSON writes a character beyond the BMP
    assert client.post("/signup", data=sent, content_type="application/json").status_code == 202
