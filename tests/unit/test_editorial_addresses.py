"""The one rule for the addresses editors type (app/services/editorial/addresses.py), and the master file's use of it
for another server's address."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.services.editorial.addresses import address_problem
from app.services.editorial.media_files import master_problem

WEB_ONLY = "нужен адрес http:// или https://"
EITHER = "нужен адрес http:// или https:// или путь сайта, начинающийся с /"


@pytest.mark.parametrize("value", ["https://example.com", "http://example.com/a?b=c#d", "HTTPS://EXAMPLE.COM/x",
                                   "https://[::1]:8443/x", "https://пример.рф/путь"])
def test_web_addresses_are_taken(value: str):
    assert address_problem(value) is None
    assert address_problem(value, site_path=True) is None


@pytest.mark.parametrize("value", ["/", "/films/x", "/films?page=2", "/a/b#c"])
def test_site_paths_are_taken_where_the_field_is_one(value: str):
    assert address_problem(value, site_path=True) is None
    assert address_problem(value, web=False, site_path=True) is None
    assert address_problem(value) == WEB_ONLY


@pytest.mark.parametrize("value", [
    "javascript:alert(1)", "JAVASCRIPT:alert(1)", "jAvAsCrIpT:alert(1)", "data:text/html,x", "vbscript:x",
    "file:///etc/passwd", "ftp://example.com/x", "//evil.example", "///evil.example", "https:evil.example",
    "https:///x", "http://", "films/x", "mailto:a@example.com", "blob:https://example.com/x", "x", "",
])
def test_what_is_neither_is_refused(value: str):
    assert address_problem(value, site_path=True) == EITHER


@pytest.mark.parametrize("value", ["/\\evil.example", "https://evil.example\\@good.example", " https://a.example",
                                   "https://a.example/a b", "java\tscript:alert(1)", "/x\x00", "https://a\u200b.example",
                                   "/films\n/x"])
def test_spaces_backslashes_and_control_characters_are_refused(value: str):
    assert address_problem(value, site_path=True).startswith("в адресе не должно быть")  # type: ignore[union-attr]


def test_credentials_and_bad_ports_are_refused():
    assert address_problem("https://user:pass@example.com/") == "адрес с именем и паролем не подходит"
    assert address_problem("https://example.com:99999/") == f"адрес не читается: {WEB_ONLY}"


def test_a_master_file_on_another_server_must_be_a_web_address(tmp_path: Path):
    assert master_problem("https://cdn.example/x/master.json", "/media", tmp_path, content_id=None) is None
    assert master_problem("https:///x/master.json", "/media", tmp_path, content_id=None) == WEB_ONLY
    assert master_problem("javascript:alert(1)", "/media", tmp_path, content_id=None) == \
        "путь должен начинаться с /media/ или быть адресом http(s)://"
