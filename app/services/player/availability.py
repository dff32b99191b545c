"""Whether a content may play for this viewer's country on this embedding domain.

Rules per content (``AvailabilityRule``): a blocked country or domain never plays; when any allowed country
(or domain) is listed, only those play. An unknown embedding domain passes a block list but not an allow list:
a licence that names its sites is not honoured by a page that hides its address. Nothing skips the country rules;
the domain rules may be skipped for a trusted publisher (app/player/views.py).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from app.models.catalogue import RuleKind


class Verdict(enum.Enum):
    AVAILABLE = "available"
    BLOCKED_COUNTRY = "blocked_country"
    BLOCKED_DOMAIN = "blocked_domain"

    @property
    def available(self) -> bool:
        return self is Verdict.AVAILABLE


def _domain_matches(host: str, rule: str) -> bool:
    return host == rule or host.endswith("." + rule)


def allowed_domains(rules: Iterable[tuple[RuleKind | str, str]]) -> list[str]:
    """The domains a content is licensed to be embedded on; empty when any site may embed it."""
    return sorted({value.strip().lower() for kind, value in rules if RuleKind(kind) is RuleKind.ALLOW_DOMAIN})


def depends_on_domain(rules: Iterable[tuple[RuleKind | str, str]]) -> bool:
    """Whether the embedding page's domain changes the verdict (any domain rule): then no answer is the same for
    everyone."""
    return any(RuleKind(kind) in (RuleKind.ALLOW_DOMAIN, RuleKind.BLOCK_DOMAIN) for kind, _ in rules)


def check_availability(
    rules: Iterable[tuple[RuleKind | str, str]], *, country: str | None, domain: str | None, check_domain: bool = True
) -> Verdict:
    """The country rules always apply; the domain rules unless ``check_domain`` is off (a trusted publisher asked)."""
    allowed_countries: set[str] = set()
    blocked_countries: set[str] = set()
    allowed_domains: set[str] = set()
    blocked_domains: set[str] = set()
    buckets = {
        RuleKind.ALLOW_COUNTRY: allowed_countries,
        RuleKind.BLOCK_COUNTRY: blocked_countries,
        RuleKind.ALLOW_DOMAIN: allowed_domains,
        RuleKind.BLOCK_DOMAIN: blocked_domains,
    }
    for kind, value in rules:
        buckets[RuleKind(kind)].add(value.strip().lower())

    if country in blocked_countries or (allowed_countries and country not in allowed_countries):
        return Verdict.BLOCKED_COUNTRY
    if not check_domain:
        return Verdict.AVAILABLE
    if domain is None:
        return Verdict.BLOCKED_DOMAIN if allowed_domains else Verdict.AVAILABLE
    if any(_domain_matches(domain, rule) for rule in blocked_domains):
        return Verdict.BLOCKED_DOMAIN
    if allowed_domains and not any(_domain_matches(domain, rule) for rule in allowed_domains):
        return Verdict.BLOCKED_DOMAIN
    return Verdict.AVAILABLE
