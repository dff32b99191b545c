"""Domain errors (app/services/errors.py) know no HTTP; errors.py answers each kind with its status, in the one JSON
error shape, and the player's pages with the error screen."""

from __future__ import annotations

import pytest

from app.services.errors import Conflict, DomainError, Forbidden, Invalid, NotFound


@pytest.mark.parametrize(("error", "status"), [
    (NotFound("thing_not_found", "Нет такого", {"id": 7}), 404),
    (Forbidden("not_yours", "Нельзя"), 403),
    (Conflict("slug_taken", "Занято", {"slug": "x"}), 409),
    (Invalid("bad_order", "Порядок занят"), 422),
    (DomainError("refused", "Отказано"), 400),  # a kind errors.py does not know yet: a client error, not a 500
])
def test_each_kind_of_domain_error_is_its_status_with_its_code_message_and_details(fresh_app, error, status):
    def fail() -> None:
        raise error

    fresh_app.add_url_rule("/fails", "fails", fail)
    response = fresh_app.test_client().get("/fails")
    assert response.status_code == status
    expected = {"status": status, "code": error.code, "message": error.message,
                "requestId": response.headers["X-Request-Id"]}
    if error.details:
        expected["details"] = error.details
    assert response.get_json() == {"error": expected}


def test_a_domain_error_on_the_player_page_is_its_error_screen(app, client, monkeypatch):
    def not_found(*_args, **_kwargs):
        raise NotFound("content_not_found", "Контент не доступен")

    monkeypatch.setattr("app.player.views.resolve_player_context", not_found)
    response = client.get("/?movie_id=1")
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert "Контент не доступен" in response.get_data(as_text=True)


def test_a_rule_names_its_fields_in_the_one_shape(fresh_app):
    """``fields=`` gives each named field the refusal's message, beside the error's other details."""
    def fail() -> None:
        raise Invalid("unknown_plan", "Такого тарифа нет", {"plans": ["month"]}, fields=["plan"])

    fresh_app.add_url_rule("/fails", "fails", fail)
    error = fresh_app.test_client().get("/fails").get_json()["error"]
    assert error["details"] == {"plans": ["month"], "fields": {"plan": ["Такого тарифа нет"]}}
    assert Invalid("x", "Нет").fields == {} and Invalid("x", "Нет").details is None
