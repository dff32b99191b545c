"""Editors' previews: the player page of any title (a draft, one scheduled or withdrawn included) at an address
signed for that title that lasts ``PREVIEW_SECONDS``, handed out only by the admin to a signed-in editor
(app/admin/publishing.py), and the master JSON that page plays, at its signed media address with a preview mark.

The page's mark is an HMAC of the title and the expiry under a key derived from SECRET_KEY; the master JSON's is an
HMAC of the title and its media address's expiry (the media signature itself stays nginx's, so segments play as
they always do: only the application judges whether a title is public, at its master JSON, app/player/static.py).
A preview is never kept (``Cache-Control: no-store``) nor indexed (``X-Robots-Tag``)."""

from __future__ import annotations

import hashlib
import hmac

from flask import current_app

from app import clock

PREVIEW_SECONDS = 900  # an editor's preview address lasts a quarter of an hour; the admin hands out a new one
PREVIEW_HEADERS = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow, noarchive",
                   "Referrer-Policy": "no-referrer"}
MARK_PARAM = "preview"  # the master JSON's query parameter


def _mark(purpose: str, content: int, expires: int) -> str:
    key = hmac.new(current_app.config["SECRET_KEY"].encode(), b"editors' previews", hashlib.sha256).digest()
    return hmac.new(key, f"{purpose}:{content}:{expires}".encode(), hashlib.sha256).hexdigest()


def preview_expiry() -> int:
    return int(clock.now().timestamp()) + PREVIEW_SECONDS


def page_mark(content: int, expires: int) -> str:
    return _mark("page", content, expires)


def valid_page_mark(content: int, expires: str | None, given: str | None) -> bool:
    if not expires or not expires.isdigit() or len(expires) > 12 or not given:
        return False
    if int(expires) < clock.now().timestamp() or int(expires) > clock.now().timestamp() + PREVIEW_SECONDS:
        return False
    return hmac.compare_digest(given, page_mark(content, int(expires)))


def master_mark(content: int, expires: int) -> str:
    return _mark("master", content, expires)


def valid_master_mark(content: int, expires: int, given: str | None) -> bool:
    """Whether ``given`` marks the master JSON of ``content`` at a media address expiring at ``expires`` (which the
    media signature checks to be in the future) as an editor's preview."""
    return bool(given) and hmac.compare_digest(str(given), master_mark(content, expires))
