"""Models, one module per domain. Importing this package registers every table on ``db.metadata``."""

from app.models.abuse import AbuseReason, AbuseReport, AbuseStatus, AbuseTarget
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
from app.models.activity import ViewHistory, WatchProgress
from app.models.ads import AdCreative, AdMediaFile, AdPlacement, AdPosition, AdTrackingHit
from app.models.audit import AuditAction, AuditEntry
from app.models.catalogue import (
    AvailabilityRule,
    Content,
    ContentType,
    Country,
    Episode,
    Language,
    Reach,
    RuleKind,
    Season,
)
from app.models.counters import CacheCounter
from app.models.derived import TypeFacets
from app.models.jobs import Job, JobState
from app.models.persons import ContentPerson, Person, PersonType
from app.models.playlists import Playlist, PlaylistItem, Visibility
from app.models.reviews import Review, ReviewVote
from app.models.search import SearchDocument, SearchWord
from app.models.site import MenuItem, PromoSlide, Redirect
from app.models.sitemaps import SitemapFile, SitemapState
from app.models.taxonomy import Category, ContentCategory, Genre, Tag, VoiceAuthor
from app.models.titles import AlternativeTitle, TitleKind

__all__ = [
    "AbuseReason",
    "AbuseReport",
    "AbuseStatus",
    "AbuseTarget",
    "Account",
    "AccountCode",
    "AdCreative",
    "AdMediaFile",
    "AdPlacement",
    "AdPosition",
    "AdTrackingHit",
    "AlternativeTitle",
    "AuditAction",
    "AuditEntry",
    "AuthSession",
    "AvailabilityRule",
    "CacheCounter",
    "Category",
    "CodePurpose",
    "Content",
    "ContentCategory",
    "ContentPerson",
    "ContentType",
    "Country",
    "Episode",
    "Genre",
    "Job",
    "JobState",
    "Language",
    "MenuItem",
    "PaymentEvent",
    "Person",
    "PersonType",
    "Playlist",
    "PlaylistItem",
    "PromoSlide",
    "Reach",
    "Redirect",
    "RefreshToken",
    "Review",
    "ReviewVote",
    "Role",
    "RuleKind",
    "SearchDocument",
    "SearchWord",
    "Season",
    "SitemapFile",
    "SitemapState",
    "Subscription",
    "SubscriptionStatus",
    "Tag",
    "TitleKind",
    "TypeFacets",
    "ViewHistory",
    "Visibility",
    "VoiceAuthor",
    "WatchProgress",
]
