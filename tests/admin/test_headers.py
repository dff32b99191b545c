"""The admin's headers (issue 30, hole 11): every admin page (its errors and redirects too) runs under the admin's
Content-Security-Policy, with no inline script or handler in it, and is never kept (``Cache-Control: no-store``),
while its static files may be; every response of an https deployment carries Strict-Transport-Security."""

from __future__ import annotations

import re
from collections.abc import Callable

import lxml.html
import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.http.csp import ADMIN_POLICY
from app.models import Role
from tests.admin.test_access import admin_addresses

INLINE_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)


@pytest.fixture
def admin(app: Flask, demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.ADMIN)


def pages(app: Flask) -> list[str]:
    return [url for method, url in admin_addresses(app) if method == "GET"]


def directives(policy: str) -> dict[str, list[str]]:
    return {name: rest for name, *rest in (part.split() for part in policy.split(";") if part.strip())}


def test_the_admins_policy_runs_no_inline_script():
    policy = directives(ADMIN_POLICY)
    assert policy["script-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'self'"]
    assert "'unsafe-eval'" not in ADMIN_POLICY and "'strict-dynamic'" not in ADMIN_POLICY


def test_every_admin_page_has_the_admins_policy_and_is_never_kept(app: Flask, admin: FlaskClient):
    anonymous = app.test_client()
    seen = 0
    for client in (admin, anonymous):  # anonymous: the redirects to the sign-in, and the sign-in itself
        for url in [*pages(app), "/admin/session/", "/admin/no-such-page/", "/admin"]:
            response = client.get(url)
            assert response.headers.get("Content-Security-Policy") == ADMIN_POLICY, (url, response.status_code)
            assert response.headers.get("Cache-Control") == "no-store", url
            assert response.headers.get("X-Frame-Options") == "DENY", url
            seen += 1
    assert seen > 100


def test_no_admin_page_has_an_inline_script_or_handler(app: Flask, admin: FlaskClient):
    for url in [*pages(app), "/admin/content/new/", "/admin/ad_creative/new/", "/admin/account/edit/?id=1"]:
        response = admin.get(url)
        if response.status_code != 200 or response.mimetype != "text/html":
            continue
        html = response.get_data(as_text=True)
        document = lxml.html.fromstring(html)
        assert [script.get("src") for script in document.iter("script") if not script.get("src")] == [], url
        assert INLINE_HANDLER.search(html) is None, (url, INLINE_HANDLER.search(html))
        # the inline forms' templates, escaped in the page, become elements once added: none of them either
        for template in document.xpath("//*[contains(@class, 'inline-field-template')]"):
            assert INLINE_HANDLER.search(template.text_content()) is None, url
            assert "<script" not in template.text_content(), url
    anonymous = app.test_client().get("/admin/session/").get_data(as_text=True)
    assert INLINE_HANDLER.search(anonymous) is None and "<script>" not in anonymous


def test_the_admins_static_files_may_be_kept(app: Flask):
    client = app.test_client()
    for url in ("/admin/static/admin/js/helpers.js", "/admin/files/editorial.js", "/admin/files/editorial.css"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" not in response.headers.get("Cache-Control", ""), url


def test_an_https_deployment_says_so_on_every_response(app: Flask, admin: FlaskClient):
    urls = ("/admin/", "/admin/session/", "/admin/files/editorial.js", "/contents/2", "/?movie_id=2", "/robots.txt",
            "/no-such-address")
    for url in urls:
        assert "Strict-Transport-Security" not in admin.get(url).headers, url  # plain http: none
    app.config["PUBLIC_URL"] = "https://player.example"
    for url in urls:
        assert admin.get(url).headers.get("Strict-Transport-Security") == "max-age=31536000", url
