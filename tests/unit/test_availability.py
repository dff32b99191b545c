"""Regional and embedding-domain availability."""

import pytest

from app.http.origins import domain_of
from app.http.viewer import normalise_country
from app.models.catalogue import RuleKind
from app.services.player.availability import Verdict, check_availability

BLOCK_RU = [(RuleKind.BLOCK_COUNTRY, "ru")]
ONLY_KZ_BY = [(RuleKind.ALLOW_COUNTRY, "kz"), (RuleKind.ALLOW_COUNTRY, "BY")]
ONLY_PARTNER = [(RuleKind.ALLOW_DOMAIN, "partner.example")]
NOT_PIRATE = [(RuleKind.BLOCK_DOMAIN, "pirate.example")]


def test_no_rules_plays_everywhere():
    assert check_availability([], country=None, domain=None) is Verdict.AVAILABLE


@pytest.mark.parametrize(("country", "verdict"), [("ru", Verdict.BLOCKED_COUNTRY), ("de", Verdict.AVAILABLE)])
def test_blocked_country(country, verdict):
    assert check_availability(BLOCK_RU, country=country, domain="site.example") is verdict


@pytest.mark.parametrize(("country", "verdict"), [("kz", Verdict.AVAILABLE), ("by", Verdict.AVAILABLE),
                                                  ("ru", Verdict.BLOCKED_COUNTRY), (None, Verdict.BLOCKED_COUNTRY)])
def test_allowed_countries_only(country, verdict):
    assert check_availability(ONLY_KZ_BY, country=country, domain=None) is verdict


@pytest.mark.parametrize(("domain", "verdict"), [
    ("partner.example", Verdict.AVAILABLE),
    ("www.partner.example", Verdict.AVAILABLE),
    ("notpartner.example", Verdict.BLOCKED_DOMAIN),
    ("partner.example.evil", Verdict.BLOCKED_DOMAIN),
    (None, Verdict.BLOCKED_DOMAIN),
])
def test_allowed_domains_only(domain, verdict):
    assert check_availability(ONLY_PARTNER, country="ru", domain=domain) is verdict


@pytest.mark.parametrize(("domain", "verdict"), [("pirate.example", Verdict.BLOCKED_DOMAIN),
                                                 ("cdn.pirate.example", Verdict.BLOCKED_DOMAIN),
                                                 ("fair.example", Verdict.AVAILABLE),
                                                 (None, Verdict.AVAILABLE)])
def test_blocked_domains(domain, verdict):
    assert check_availability(NOT_PIRATE, country="ru", domain=domain) is verdict


def test_country_is_checked_before_domain():
    assert check_availability(BLOCK_RU + ONLY_PARTNER, country="ru", domain="other.example") is Verdict.BLOCKED_COUNTRY


@pytest.mark.parametrize(("address", "host"), [
    ("https://Site.Example/film?id=1", "site.example"),
    ("site.example", "site.example"),
    ("http://site.example:8080/", "site.example"),
    ("site.example.", "site.example"),
    ("", None),
    (None, None),
    ("http://[::1", None),
])
def test_domain_of(address, host):
    assert domain_of(address) == host


@pytest.mark.parametrize(("raw", "code"), [("RU", "ru"), (" de ", "de"), ("XYZ", None), ("1a", None), ("", None),
                                           ("рф", None), (None, None)])
def test_normalise_country(raw, code):
    assert normalise_country(raw) == code
