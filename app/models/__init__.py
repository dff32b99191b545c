"""Models, one module per domain. Importing this package registers every table on ``db.metadata``."""

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
    "AdCreative",
    "AdMediaFile",
    "AdPlacement",
    "AdPosition",
    "AdTrackingHit",
    "AvailabilityRule",
    "Content",
    "ContentType",
    "Country",
    "Episode",
    "Language",
    "RuleKind",
    "Season",
    "WatchProgress",
]
