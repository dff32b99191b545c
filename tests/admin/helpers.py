"""The admin as an editor's browser uses it, through the test client: the sign-in form with its CSRF token, and forms
posted with the token their page carries."""

from __future__ import annotations

from typing import Any

import lxml.html
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.api.accounts_helpers import PASSWORD


def page(response: TestResponse) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(response.get_data(as_text=True))


def csrf_of(client: FlaskClient, url: str) -> str:
    """The CSRF token of the (first) form of the page at ``url``."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    tokens = page(response).xpath("//input[@name='csrf_token']/@value")
    assert tokens, f"no CSRF token on {url}"
    return str(tokens[0])


def sign_in(client: FlaskClient, email: str, password: str = PASSWORD) -> TestResponse:
    token = csrf_of(client, "/admin/session/")
    return client.post("/admin/session/", data={"email": email, "password": password, "csrf_token": token})


def post_form(client: FlaskClient, url: str, data: dict[str, Any], form_url: str | None = None) -> TestResponse:
    """Posts ``data`` to ``url`` with the CSRF token of the form at ``form_url`` (``url`` itself by default)."""
    return client.post(url, data={**data, "csrf_token": csrf_of(client, form_url or url)})


def flashes(response: TestResponse) -> list[str]:
    return [" ".join(text.split()) for text in page(response).xpath("//div[contains(@class, 'alert')]//text()")
            if text.strip() and text.strip() != "×"]


def field_errors(response: TestResponse, name: str) -> list[str]:
    """The errors the form shows under its field ``name``."""
    found = page(response).xpath(f"//*[self::input or self::textarea or self::select][@name='{name}']"
                                 "/following-sibling::div[contains(@class, 'invalid-feedback')]//text()")
    return [" ".join(text.split()) for text in found if text.strip()]
