"""Subscriptions (spec §7): a pending one on request; the payment provider's signed notification activates or cancels
it, once per event id."""

from __future__ import annotations

import json

import pytest

from app.services.accounts.subscriptions import signature
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.test_catalogue_api import assert_error

SECRET = "the payment provider's shared secret, 32+ bytes"


@pytest.fixture
def viewer(app, client):
    app.config["PAYMENT_WEBHOOK_SECRET"] = SECRET
    make_account(app, "anna@example.com")
    return bearer(sign_in(client, "anna@example.com"))


def notify(client, event: dict, secret: str = SECRET, sign: bool = True):
    body = json.dumps(event).encode()
    headers = {"X-Signature": signature(secret, body)} if sign else {}
    return client.post("/subscription/notify", data=body, content_type="application/json", headers=headers)


def test_a_paid_subscription_becomes_active_once_per_event(client, viewer):
    created = client.post("/subscription?plan=month", headers=viewer)
    assert created.status_code == 201
    subscription = created.get_json()
    assert subscription["status"] == "pending" and subscription["activeUntil"] is None
    assert client.get("/user/details", headers=viewer).get_json()["subscription"]["status"] == "pending"

    event = {"eventId": "evt_1", "subscriptionId": subscription["id"], "type": "payment.succeeded"}
    first = notify(client, event)
    assert first.status_code == 200 and first.get_json()["duplicate"] is False
    active = first.get_json()["subscription"]
    assert active["status"] == "active" and active["activeUntil"]
    again = notify(client, event)
    assert again.get_json()["duplicate"] is True
    assert again.get_json()["subscription"]["activeUntil"] == active["activeUntil"]  # not extended twice
    details = client.get("/user/details", headers=viewer).get_json()["subscription"]
    assert details["status"] == "active"

    cancelled = notify(client, {"eventId": "evt_2", "subscriptionId": subscription["id"],
                                "type": "subscription.cancelled"})
    assert cancelled.get_json()["subscription"]["status"] == "cancelled"


def test_a_notification_without_the_right_signature_changes_nothing(client, viewer):
    subscription = client.post("/subscription?plan=year", headers=viewer).get_json()
    event = {"eventId": "evt_1", "subscriptionId": subscription["id"], "type": "payment.succeeded"}
    assert_error(notify(client, event, sign=False), 401, "invalid_signature")
    assert_error(notify(client, event, secret="another secret of the same kind, 32+ bytes"), 401, "invalid_signature")
    body = json.dumps(event).encode()
    tampered = client.post("/subscription/notify", data=body.replace(b"evt_1", b"evt_9"),
                           content_type="application/json", headers={"X-Signature": signature(SECRET, body)})
    assert_error(tampered, 401, "invalid_signature")
    assert client.get("/user/details", headers=viewer).get_json()["subscription"]["status"] == "pending"


def test_notifications_are_refused_when_no_secret_is_configured(app, client, viewer):
    app.config["PAYMENT_WEBHOOK_SECRET"] = ""
    assert_error(notify(client, {"eventId": "e", "subscriptionId": 1, "type": "payment.succeeded"}), 503,
                 "payments_not_configured")


def test_an_unknown_plan_or_subscription_and_an_anonymous_caller(app, client, viewer):
    assert_error(client.post("/subscription?plan=forever", headers=viewer), 422, "unknown_plan")
    assert_error(app.test_client().post("/subscription?plan=month"), 401, "unauthorized")
    assert_error(notify(client, {"eventId": "e", "subscriptionId": 999, "type": "payment.succeeded"}), 404,
                 "subscription_not_found")


def subscription_rows(app) -> list[tuple[str, str]]:
    from app.extensions import db
    from app.models import Subscription

    with app.app_context():
        return [(row.plan, row.status.value) for row in
                db.session.scalars(db.select(Subscription).order_by(Subscription.id))]


def test_asking_again_answers_the_pending_subscription_instead_of_a_row_per_call(app, client, viewer):
    """Issue 30 (13): 40 requests in a row with one token kept 40 rows, forever."""
    first = client.post("/subscription?plan=month", headers=viewer)
    assert first.status_code == 201
    for _ in range(39):
        again = client.post("/subscription?plan=month", headers=viewer)
        assert (again.status_code, again.get_json()) == (200, first.get_json())
    assert subscription_rows(app) == [("month", "pending")]


def test_another_plan_has_its_own_pending_one_and_a_paid_one_is_asked_for_anew(app, client, viewer):
    month = client.post("/subscription?plan=month", headers=viewer).get_json()
    year = client.post("/subscription?plan=year", headers=viewer)
    assert year.status_code == 201 and year.get_json()["id"] != month["id"]  # the month's is not replaced
    assert client.post("/subscription?plan=month", headers=viewer).get_json()["id"] == month["id"]
    assert notify(client, {"eventId": "evt_1", "subscriptionId": month["id"],
                           "type": "payment.succeeded"}).status_code == 200
    renewal = client.post("/subscription?plan=month", headers=viewer)  # the next period's: a new pending one
    assert renewal.status_code == 201 and renewal.get_json()["id"] not in (month["id"], year.get_json()["id"])
    assert subscription_rows(app) == [("month", "active"), ("year", "pending"), ("month", "pending")]


def test_each_account_has_its_own_pending_one(app, client, viewer):
    make_account(app, "boris@example.com")
    other = bearer(sign_in(client, "boris@example.com"))
    mine = client.post("/subscription?plan=month", headers=viewer).get_json()
    theirs = client.post("/subscription?plan=month", headers=other)
    assert theirs.status_code == 201 and theirs.get_json()["id"] != mine["id"]


def test_the_database_holds_one_pending_subscription_per_account_and_plan(app, client, viewer):
    """Two requests at once cannot both add one: the partial unique index refuses the second row."""
    import sqlalchemy as sa

    from app.clock import now
    from app.extensions import db
    from app.models import Subscription, SubscriptionStatus

    pending = client.post("/subscription?plan=month", headers=viewer).get_json()
    with app.app_context():
        account_id = db.session.get(Subscription, pending["id"]).account_id
        db.session.add(Subscription(account_id=account_id, plan="month", status=SubscriptionStatus.PENDING,
                                    created_at=now()))
        with pytest.raises(sa.exc.IntegrityError):
            db.session.flush()
        db.session.rollback()


def test_the_document_names_both_answers(client):
    operation = client.get("/openapi.json").get_json()["paths"]["/subscription"]["post"]
    assert {"200", "201"} <= set(operation["responses"])
