"""Pictures in the admin's lists and forms: a poster's thumbnail in a row (and, with the media library, the library's
own small copy when there is one)."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from app.admin.media import library_thumb


def poster_thumbnail(_view: Any, _context: Any, model: Any, name: str) -> Markup | str:
    """The picture at the row's address, small and loaded when scrolled to (the library's thumbnail of a library
    picture, not the whole poster); the address escaped like any value."""
    url = getattr(model, name, None)
    if not url:
        return ""
    return Markup('<img class="editorial-thumb" src="{}" alt="" loading="lazy" width="40" height="60">').format(
        library_thumb(url) or url)
