"""The embedding page's origin (app/http/origins.py): the allow-listed origin parameter, else the Referer's."""

import pytest

from app.config import Settings
from app.http.origins import origin_of, parent_origin, parse_origin_list

PUBLISHER = "https://publisher.example"


@pytest.mark.parametrize(("url", "origin"), [
    ("https://publisher.example/films/12?utm=x#top", PUBLISHER),
    ("HTTPS://Publisher.Example", PUBLISHER),
    ("https://publisher.example:443/", PUBLISHER),  # the default port is not part of the serialised origin
    ("http://publisher.example:80/page", "http://publisher.example"),
    ("https://publisher.example:8443/page", "https://publisher.example:8443"),
    ("http://127.0.0.1:5000/", "http://127.0.0.1:5000"),
    ("http://[::1]:8080/x", "http://[::1]:8080"),
    ("https://user:secret@publisher.example/", PUBLISHER),
    ("  https://publisher.example/  ", PUBLISHER),
])
def test_origin_of_serialises_as_browsers_do(url, origin):
    assert origin_of(url) == origin


@pytest.mark.parametrize("url", [
    None, "", "null", "publisher.example", "//publisher.example/x", "ftp://publisher.example/", "data:text/html,x",
    "javascript:alert(1)", "file:///etc/passwd", "https://", "https://publisher.example:99999/",
    "https://publisher.example:port/", "https://пример.рф/", "http://[::1/",
])
def test_origin_of_refuses_what_is_not_an_http_origin(url):
    assert origin_of(url) is None


def test_the_allow_list_is_normalised_and_deduplicated():
    raw = " https://A.example , https://a.example:443,http://b.example:8080/,, "
    assert parse_origin_list(raw) == ("https://a.example", "http://b.example:8080")
    assert parse_origin_list("") == ()


@pytest.mark.parametrize("entry", ["*", "https://*.example", "publisher.example", "https://a.example/films",
                                   "https://a.example/?x=1", "https://a.example/#x", "ftp://a.example"])
def test_a_bad_allow_list_entry_is_refused_at_start(entry):
    with pytest.raises(ValueError, match="PUBLISHER_ORIGINS"):
        Settings(PUBLISHER_ORIGINS=f"https://ok.example,{entry}").check()


def test_the_ad_header_allow_list_is_checked_the_same_way_and_named_in_its_error():
    assert parse_origin_list("https://ads.example, https://b.example:8443/", "AD_HEADER_ORIGINS") == (
        "https://ads.example", "https://b.example:8443")
    with pytest.raises(ValueError, match=r"AD_HEADER_ORIGINS: 'https://\*\.example'"):
        Settings(AD_HEADER_ORIGINS="https://ads.example,https://*.example").check()


def test_the_origin_parameter_counts_only_when_allow_listed():
    allowed = ("https://a.example", PUBLISHER)
    assert parent_origin("https://a.example", allowed) == "https://a.example"
    assert parent_origin("HTTPS://A.EXAMPLE/", allowed) == "https://a.example"
    # a claim the list does not hold is ignored: the browser decides (static_src/embed/bridge.ts)
    assert parent_origin("https://evil.example", allowed) is None
    assert parent_origin("https://a.example", ()) is None
    assert parent_origin("", allowed) is None
    assert parent_origin("not a url", (PUBLISHER,)) is None
