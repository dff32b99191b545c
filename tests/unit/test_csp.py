"""The embed page's Content-Security-Policy and the framing refusal (app/http/csp.py)."""


from app.http.csp import embed_policy

SCRIPT, STYLE = "window.x = 1;", ".a{color:red}"
INLINE = {"inline_scripts": [SCRIPT], "inline_styles": [STYLE]}
# printf '%s' 'window.x = 1;' | openssl dgst -sha256 -binary | base64, and the same for the style
SCRIPT_HASH = "'sha256-U1BU0BfAhaBREBgsEDDctSYokOF3U7hQUIj6mrtukfw='"
STYLE_HASH = "'sha256-AYkV/wUaXEz1i9pndN1veIXFHZVFTj4Ojce2rMK7bSc='"


def directives(policy: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for part in policy.split(";"):
        name, *values = part.split()
        assert name not in parsed, f"{name} twice"
        parsed[name] = values
    return parsed


def test_the_default_policy_runs_only_our_scripts_and_nothing_unsafe():
    policy = directives(embed_policy(**INLINE))
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"] == ["'self'", SCRIPT_HASH]  # the page's own inline script, by its hash
    assert policy["style-src"] == ["'self'", STYLE_HASH]
    assert policy["object-src" if "object-src" in policy else "default-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'none'"]
    joined = " ".join(value for values in policy.values() for value in values)
    assert "unsafe-eval" not in joined and "unsafe-inline" not in joined and "*" not in joined.split()


def test_media_and_ads_may_come_from_any_https_host_and_mse_from_blobs():
    policy = directives(embed_policy(**INLINE))
    assert policy["media-src"] == ["'self'", "blob:", "https:"]
    assert policy["connect-src"] == ["'self'", "https:"]  # master JSON, HLS, the API, ad list, VAST, pixels
    assert policy["img-src"] == ["'self'", "data:", "blob:", "https:"]
    assert policy["worker-src"] == ["'self'"]  # hls.js's worker is a file of ours


def test_plain_http_hosts_only_when_allowed():
    policy = directives(embed_policy(**INLINE, allow_http=True))
    for name in ("media-src", "connect-src", "img-src"):
        assert "http:" in policy[name], name
    assert "http:" not in policy["script-src"] and "http:" not in policy["worker-src"]


def test_framing_by_any_http_site_without_an_allow_list_and_only_by_the_list_with_one():
    assert directives(embed_policy(**INLINE))["frame-ancestors"] == ["'self'", "http:", "https:"]
    listed = embed_policy(**INLINE, publisher_origins=("https://a.example", "http://b.example:8080"))
    assert directives(listed)["frame-ancestors"] == ["'self'", "https://a.example", "http://b.example:8080"]


def test_a_cdn_for_our_code_and_extra_connect_hosts_are_named_by_origin():
    policy = directives(embed_policy(
        **INLINE,
        own_urls=("https://cdn.example/player/assets/", "/relative/api", ""),
        extra_connect=("https://key@o1.ingest.sentry.io/42", "/ad-list.json", "http://ads.example:81/list"),
    ))
    assert policy["script-src"] == ["'self'", SCRIPT_HASH, "https://cdn.example"]
    assert policy["worker-src"] == ["'self'", "https://cdn.example"]
    assert policy["connect-src"] == ["'self'", "https://cdn.example", "https:", "https://o1.ingest.sentry.io",
                                     "http://ads.example:81"]
