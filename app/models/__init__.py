"""Models, one module per domain. Importing this package registers every table on ``db.metadata``."""

from app.models.accounts import (
    Account,
    AccountCode,
    AuthSession,
    CodePurpose,
    PaymentEvent,
    RefreshToken,
    Role,
    Subscription,
    SubscriptionStatus,
)
from app.models.activity import WatchProgress
from app.models.ads import AdCreative, AdMediaFile, AdPlacement, AdPosition, AdTrackingHit
from app.models.catalogue import (
    AvailabilityRule,
    Content,
    ContentType,
    Country,
    Episode,
    Language,
    RuleKind,
    Season,
)

__all__ = [
    "Account",
    "AccountCode",
    "AdCreative",
    "AdMediaFile",
    "AdPlacement",
    "AdPosition",
    "AdTrackingHit",
    "AuthSession",
    "AvailabilityRule",
    "CodePurpose",
    "Content",
    "ContentType",
    "Country",
    "Episode",
    "Language",
    "PaymentEvent",
    "RefreshToken",
    "Role",
    "RuleKind",
    "Season",
    "Subscription",
    "SubscriptionStatus",
    "WatchProgress",
]
