"""Subscriptions (spec §7): an account asks for a plan, the payment provider reports the payment or the cancellation.
The provider's callback carries no bearer token: its HMAC-SHA256 signature over the raw body (``X-Signature:
sha256=<hex>``, PAYMENT_WEBHOOK_SECRET) says who sent it, and is checked before the body is read."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import current_app, request

from app.api.arguments import Blueprint
from app.api.decorators import require_role
from app.api.docs import answers
from app.errors import ApiError
from app.http.tokens import current_account_id
from app.models import Role
from app.schemas.accounts import PaymentAckSchema, PaymentEventSchema, SubscriptionQuerySchema, SubscriptionSchema
from app.services.accounts.subscriptions import check_signature, handle_event, request_subscription

blp = Blueprint("subscriptions", __name__, description="Subscriptions and the payment provider's notifications")
SIGNATURE_HEADER = "X-Signature"


@blp.route("/subscription", methods=["POST"])
@require_role(blp, Role.VIEWER)
@blp.arguments(SubscriptionQuerySchema, location="query")
@blp.response(201, SubscriptionSchema, description="a new pending subscription to the plan")
@blp.alt_response(200, schema=SubscriptionSchema, success=True,
                  description="the account's pending subscription to this plan, asked for earlier: the same one")
@answers(blp, 401, 422)
def subscribe(query: dict[str, Any]) -> Any:
    """A pending subscription to the plan; the payment provider's notification activates it. At most one is pending
    per account and plan: asking again answers that one (200) instead of adding another. A pending subscription to
    another plan is left as it is (docs/accounts.md)."""
    requested = request_subscription(current_account_id(), query["plan"], current_app.config["SUBSCRIPTION_PLANS"])
    return requested.subscription, 201 if requested.created else 200


def signed_by_provider(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        secret = current_app.config["PAYMENT_WEBHOOK_SECRET"]
        if not secret:
            raise ApiError(503, "payments_not_configured", "Приём уведомлений об оплате не настроен")
        check_signature(secret, request.get_data(cache=True), request.headers.get(SIGNATURE_HEADER))
        return view(*args, **kwargs)

    return checked


@blp.route("/subscription/notify", methods=["POST"])
@signed_by_provider
@blp.arguments(PaymentEventSchema)
@blp.response(200, PaymentAckSchema)
@blp.doc(parameters=[{"in": "header", "name": SIGNATURE_HEADER, "required": True, "schema": {
    "type": "string", "pattern": "^sha256=[0-9a-f]{64}$"},
    "description": "HMAC-SHA256 of the raw body with the shared secret, as sha256=<hex>",
    "example": "sha256=" + "3f" * 32}])
@answers(blp, 401, 404, 422, body=True)
def notify(body: dict[str, Any]) -> Any:
    """The payment provider's callback: activates (payment.succeeded) or cancels (subscription.cancelled) a
    subscription, once per eventId: a repeated delivery changes nothing and answers duplicate=true."""
    handled = handle_event(body["eventId"], body["subscriptionId"], body["type"],
                           current_app.config["SUBSCRIPTION_PLANS"])
    return {"eventId": handled.event_id, "duplicate": handled.duplicate, "subscription": handled.subscription}
