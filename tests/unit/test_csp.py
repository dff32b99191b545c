"""The embed page's Content-Security-Policy and the framing refusal (app/http/csp.py)."""

import pytest

from app.http.csp import embed_policy

NONCE = "n0nce-Abc_123"


def directives(policy: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for part in policy.split(";"):
        name, *values = part.split()
        assert name not in parsed, f"{name} twice"
        parsed[name] = values
    return parsed


def test_the_default_policy_runs_only_our_scripts_and_nothing_unsafe():
    policy = directives(embed_policy(nonce=NONCE))
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"] == ["'self'", f"'nonce-{NONCE}'"]
    assert policy["style-src"] == ["'self'", f"'nonce-{NONCE}'"]
    assert policy["object-src" if "object-src" in policy else "default-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'none'"]
    joined = " ".join(value for values in policy.values() for value in values)
    assert "unsafe-eval" not in joined and "unsafe-inline" not in joined and "*" not in joined.split()


def test_media_and_ads_may_come_from_any_https_host_and_mse_from_blobs():
    policy = directives(embed_policy(nonce=NONCE))
    assert policy["media-src"] == ["'self'", "blob:", "https:"]
    assert policy["connect-src"] == ["'self'", "https:"]  # master JSON, HLS, the API, ad list, VAST, pixels
    assert policy["img-src"] == ["'self'", "data:", "blob:", "https:"]
    assert policy["worker-src"] == ["'self'"]  # hls.js's worker is a file of ours


def test_plain_http_hosts_only_when_allowed():
    policy = directives(embed_policy(nonce=NONCE, allow_http=True))
    for name in ("media-src", "connect-src", "img-src"):
        assert "http:" in policy[name], name
    assert "http:" not in policy["script-src"] and "http:" not in policy["worker-src"]


def test_framing_by_any_http_site_without_an_allow_list_and_only_by_the_list_with_one():
    assert directives(embed_policy(nonce=NONCE))["frame-ancestors"] == ["'self'", "http:", "https:"]
    listed = embed_policy(nonce=NONCE, publisher_origins=("https://a.example", "http://b.example:8080"))
    assert directives(listed)["frame-ancestors"] == ["'self'", "https://a.example", "http://b.example:8080"]


def test_a_cdn_for_our_code_and_extra_connect_hosts_are_named_by_origin():
    policy = directives(embed_policy(
        nonce=NONCE,
        own_urls=("https://cdn.example/player/assets/", "/relative/api", ""),
        extra_connect=("https://key@o1.ingest.sentry.io/42", "/ad-list.json", "http://ads.example:81/list"),
    ))
    assert policy["script-src"] == ["'self'", f"'nonce-{NONCE}'", "https://cdn.example"]
    assert policy["worker-src"] == ["'self'", "https://cdn.example"]
    assert policy["connect-src"] == ["'self'", "https://cdn.example", "https:", "https://o1.ingest.sentry.io",
                                     "http://ads.example:81"]


@pytest.mark.parametrize("nonce", ["", "a b", "a;b", "a'b"])
def test_a_nonce_that_could_break_the_header_is_refused(nonce):
    with pytest.raises(ValueError):
        embed_policy(nonce=nonce)
