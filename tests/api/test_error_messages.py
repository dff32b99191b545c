"""Errors a site can show (issue 33): every kind of API error answers its stable English code with a Russian
message, and a refusal about fields names them in one shape, ``details.fields`` = {name: [messages]}, whether
flask-smorest found them (in the query or the body, nested or not) or a rule did (app/errors.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask, abort

from app import registry
from app.errors import _CODES
from app.extensions import db
from app.models import Role
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.error_rules import assert_error_rules, russian
from tests.api.test_catalogue_api import assert_error


def fields_of(error: dict) -> dict[str, list[str]]:
    return error["details"]["fields"]


# --- what the libraries raise, status by status


@pytest.mark.parametrize("status", sorted({*_CODES, 406, 408, 410, 411, 414, 416, 417, 418, 501, 502, 504}))
def test_an_http_error_a_library_raises_speaks_russian_with_its_stable_code(fresh_app: Flask, status: int):
    """werkzeug's own descriptions are English ("The requested URL was not found on the server…"): each status says
    its Russian instead, under the code of _CODES (http_<status> for the rest)."""
    fresh_app.add_url_rule("/fails", "fails", lambda: abort(status))
    response = fresh_app.test_client().get("/fails")
    assert response.status_code == status
    error = response.get_json()["error"]
    assert error["code"] == _CODES.get(status, f"http_{status}")
    assert russian(error["message"]), error


def test_an_http_error_raised_with_a_russian_description_says_it(fresh_app: Flask):
    fresh_app.add_url_rule("/fails", "fails", lambda: abort(409, description="Уже сделано"))
    assert fresh_app.test_client().get("/fails").get_json()["error"]["message"] == "Уже сделано"


# --- validation: one shape, wherever the field came from


def test_a_bad_query_value_is_named_in_fields_with_its_bound(client, demo_catalogue):
    error = assert_error(client.get("/contents?pageSize=0"), 422, "validation_error")
    assert error["message"] == "Неверные данные в полях: pageSize"
    assert error["details"] == {"fields": {"pageSize": ["Должно быть от 1 до 100"]}}


def test_a_body_field_is_named_as_a_query_field_is_without_its_location(client, demo_catalogue):
    error = assert_error(client.post("/contents", json={"page": 0, "pageSize": "20"}), 422, "validation_error")
    assert error["message"] == "Неверные данные в полях: page, pageSize"
    assert fields_of(error) == {"page": ["Должно быть от 1 до 10000"], "pageSize": ["Ожидается целое число"]}


def test_a_nested_field_is_named_by_its_path_with_dots(client, demo_catalogue):
    error = assert_error(client.post("/contents", json={"countries": ["ru", None, 7]}), 422, "validation_error")
    assert fields_of(error) == {"countries.1": ["Поле не может быть пустым (null)"],
                                "countries.2": ["Ожидается строка"]}
    assert error["message"] == "Неверные данные в полях: countries.1, countries.2"


def test_missing_and_unknown_body_fields(client):
    error = assert_error(client.post("/signup", json={"nickname": "Анна"}), 422, "validation_error")
    assert fields_of(error) == {"email": ["Обязательное поле"], "name": ["Обязательное поле"],
                                "nickname": ["Неизвестное поле"]}


def test_a_body_that_is_no_object_names_no_field(client):
    error = assert_error(client.post("/signup", json=["anna@example.com"]), 422, "validation_error")
    assert error["message"] == "Ожидается объект JSON" and "details" not in error


def test_our_own_validators_keep_their_words(client):
    error = assert_error(client.post("/signup", json={"email": "anna@example.com", "name": "   "}), 422,
                         "validation_error")
    assert fields_of(error) == {"name": ["Укажите имя"]}


def test_a_bad_ad_query_is_a_400_in_the_same_shape(client):
    error = assert_error(client.get("/vast.xml?creative=abc"), 400, "bad_request")
    assert error["message"] == "Неверные данные в полях: creative"
    assert fields_of(error) == {"creative": ["Ожидается целое число"]}


# --- a rule's refusal about a field: the same shape


def test_a_taken_email_is_a_409_on_its_field(app, client):
    make_account(app, "root@example.com", Role.ADMIN)
    admin = bearer(sign_in(client, "root@example.com"))
    body = {"email": "root@example.com", "name": "Второй", "password": "an editor's passphrase", "role": "editor"}
    error = assert_error(client.post("/administration/new-user", json=body, headers=admin), 409, "email_taken")
    assert error["details"] == {"fields": {"email": ["Этот адрес почты уже занят"]}}


def test_a_weak_password_is_a_422_on_its_field(app, client):
    make_account(app, "root@example.com", Role.ADMIN)
    admin = bearer(sign_in(client, "root@example.com"))
    body = {"email": "new@example.com", "name": "Новый", "password": "qwerty", "role": "editor"}
    error = assert_error(client.post("/administration/new-user", json=body, headers=admin), 422, "weak_password")
    assert fields_of(error) == {"password": [error["message"]]}


# --- the other kinds


def test_an_unknown_address_and_a_wrong_method(client):
    assert assert_error(client.get("/no-such-call"), 404, "not_found")["message"] == "Такого адреса нет"
    response = client.delete("/contents")
    error = assert_error(response, 405, "method_not_allowed")
    assert error["message"] == "Метод DELETE по этому адресу не принимается"
    assert {"GET", "POST"} <= set(response.headers["Allow"].split(", "))


def test_too_many_requests_says_when_to_try_again_as_retry_after_does(app, client, demo_catalogue):
    app.config["RATE_LIMIT_CATALOGUE_READS"] = "1 per minute"
    assert client.get("/contents?page=1").status_code == 200
    response = client.get("/contents?page=2")
    error = assert_error(response, 429, "too_many_requests")
    seconds = int(response.headers["Retry-After"])
    assert 1 <= seconds <= 60
    assert error["message"] == f"Слишком много запросов: попробуйте через {seconds} с"


@pytest.mark.parametrize("kind", ["none", "garbage", "expired", "revoked", "no csrf header"])
def test_every_kind_of_token_refusal_speaks_russian(app, client, clock, kind):
    app.config["JWT_ACCESS_TOKEN_EXPIRES"] = timedelta(minutes=5)
    make_account(app, "anna@example.com")
    tokens = sign_in(client, "anna@example.com")  # the client keeps the cookies too
    caller = app.test_client()
    if kind == "none":
        response, code = caller.get("/user/details"), "unauthorized"
    elif kind == "garbage":
        response, code = caller.get("/user/details", headers={"Authorization": "Bearer x.y.z"}), "invalid_token"
    elif kind == "expired":
        clock.shift(5 * 60)
        response, code = caller.get("/user/details", headers=bearer(tokens)), "token_expired"
    elif kind == "revoked":
        client.post("/authentication/sign-out", json={"refreshToken": tokens["refreshToken"]})
        response, code = caller.get("/user/details", headers=bearer(tokens)), "token_revoked"
    else:
        response, code = client.patch("/user/rename?name=Аня"), "csrf_failed"
    assert_error(response, 401, code)


def test_the_viewer_calls_speak_russian(client, demo_catalogue, viewer_headers):
    assert_error(client.get("/contents/1/episodes/watched/last"), 401, "viewer_unknown")
    error = assert_error(client.get("/contents/1/episodes/watched/last", headers=viewer_headers()), 404,
                         "nothing_watched")
    assert error["details"] == {"contentId": 1}


def test_a_role_refusal_and_a_missing_content(app, client):
    make_account(app, "anna@example.com")
    assert_error(client.get("/caches", headers=bearer(sign_in(client, "anna@example.com"))), 403, "forbidden")
    assert_error(client.get("/contents/424242"), 404, "content_not_found")


def test_a_body_too_large_says_how_large_a_body_may_be(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 1000
    response = client.post("/signup", data="{" + " " * 2000 + "}", content_type="application/json")
    assert assert_error(response, 413, "payload_too_large")["message"] == "Тело запроса больше 1000 байт"


def test_a_control_character_in_the_query_is_refused_in_russian(client):
    assert "«event»" in assert_error(client.get("/ad-tracking?event=a%00b"), 400, "bad_request")["message"]


def test_an_unexpected_failure_is_a_500_in_russian_with_its_id(fresh_app: Flask):
    def broken() -> None:
        raise RuntimeError("the internals stay inside")

    fresh_app.add_url_rule("/broken", "broken", broken)
    response = fresh_app.test_client().get("/broken")
    error = assert_error(response, 500, "internal_error")
    assert error["message"] == "Внутренняя ошибка сервера. Мы уже знаем о ней." and error["details"]["errorId"]
    assert "internals" not in response.get_data(as_text=True)


def test_the_database_away_is_a_503_saying_when_to_try_again(app, client):
    breaker = registry.database_breaker(app)
    with app.app_context():
        breaker.trip()  # as a deadline missed would (app/database.py)
        db.engine.dispose()  # the next statement needs a connection, which the open breaker refuses
    try:
        response = client.get("/contents/2")
    finally:
        breaker.close()  # for the fixture's own clean-up
    error = assert_error(response, 503, "service_unavailable")
    seconds = app.config["DB_RETRY_AFTER"]
    assert response.headers["Retry-After"] == str(seconds)
    assert error["message"] == f"Сервис ненадолго недоступен: попробуйте через {seconds} с"


def test_the_rules_of_error_rules_catch_the_old_shapes():
    """The check every assert_error runs (tests/api/error_rules.py) can fail."""
    for bad in ({"message": "Missing data for required field."},
                {"message": "Неверные данные в полях: a", "details": {"json": {"a": ["Обязательное поле"]}}},
                {"message": "Этот адрес почты уже занят", "details": {"field": "email"}},
                {"message": "Неверные данные в полях: a", "details": {"fields": {"a": ["Not a valid integer."]}}},
                {"message": "Неизвестный фильтр", "details": {"fields": ["a"]}}):
        with pytest.raises(AssertionError):
            assert_error_rules(bad)
