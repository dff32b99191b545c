"""Subscriptions: an account asks for a plan (pending; asking again answers the same one), the payment provider says
it was paid (active for the plan's days, from now or from the end of the current period) or cancelled. The provider's
notifications are authenticated by an HMAC-SHA256 signature over the raw body and handled once per event id, whatever
the number of deliveries."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select

from app.clock import now
from app.database import dialect_insert
from app.extensions import db
from app.models import PaymentEvent, Subscription, SubscriptionStatus
from app.services.errors import Invalid, NotFound, Unauthenticated

SIGNATURE_PREFIX = "sha256="
PAID = "payment.succeeded"
CANCELLED = "subscription.cancelled"


@dataclass(frozen=True)
class Handled:
    event_id: str
    duplicate: bool
    subscription: Subscription


@dataclass(frozen=True)
class Requested:
    subscription: Subscription
    created: bool  # False: the account's pending subscription to this plan, asked for earlier


def request_subscription(account_id: int, plan: str, plans: dict[str, int]) -> Requested:
    """A pending subscription to ``plan``: a new one, or the one the account already has pending for it (at most one
    per account and plan: a repeat adds no row). One statement decides it, so two requests at once make one row. A
    pending subscription to another plan stays as it is: the provider may be taking its payment right now."""
    if plan not in plans:
        raise Invalid("unknown_plan", "Такого тарифа нет", {"plans": sorted(plans)}, fields=["plan"])
    made = db.session.scalar(
        dialect_insert(db.session, Subscription)
        .values(account_id=account_id, plan=plan, status=SubscriptionStatus.PENDING, created_at=now())
        .on_conflict_do_nothing()  # the partial unique index of the pending ones (app/models/accounts.py)
        .returning(Subscription.id)
    )
    pending = db.session.scalars(select(Subscription).where(
        Subscription.account_id == account_id, Subscription.plan == plan,
        Subscription.status == SubscriptionStatus.PENDING)).one()
    return Requested(pending, made is not None)


def signature(secret: str, body: bytes) -> str:
    return SIGNATURE_PREFIX + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def check_signature(secret: str, body: bytes, given: str | None) -> None:
    if not given or not hmac.compare_digest(signature(secret, body), given.strip()):
        raise Unauthenticated("invalid_signature", "Подпись уведомления не сходится с его телом")


def handle_event(event_id: str, subscription_id: int, kind: str, plans: dict[str, int]) -> Handled:
    """Applies the provider's event once: a repeat of ``event_id`` changes nothing and says so."""
    seen = db.session.scalar(select(PaymentEvent).where(PaymentEvent.event_id == event_id))
    if seen is not None:
        return Handled(event_id, True, _subscription(seen.subscription_id))
    subscription = _subscription(subscription_id)
    moment = now()
    recorded = db.session.scalar(  # one statement: of two deliveries of the event at once, one applies it
        dialect_insert(db.session, PaymentEvent)
        .values(event_id=event_id, subscription_id=subscription.id, kind=kind, received_at=moment)
        .on_conflict_do_nothing()
        .returning(PaymentEvent.id)
    )
    if recorded is None:  # the other delivery applied it
        db.session.refresh(subscription)
        return Handled(event_id, True, subscription)
    if kind == PAID:
        current = subscription.active_until
        start = max(moment, current) if current else moment
        subscription.active_until = start + timedelta(days=plans.get(subscription.plan, 30))
        subscription.status = SubscriptionStatus.ACTIVE
        subscription.cancelled_at = None
    elif kind == CANCELLED:
        subscription.status = SubscriptionStatus.CANCELLED
        subscription.cancelled_at = moment
    return Handled(event_id, False, subscription)


def _subscription(subscription_id: int) -> Subscription:
    subscription = db.session.get(Subscription, subscription_id)
    if subscription is None:
        raise NotFound("subscription_not_found", "Подписка не найдена", {"subscriptionId": subscription_id})
    return subscription
