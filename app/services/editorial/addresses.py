"""The one rule for an address an editor gives (a menu item's, a redirect's, a poster's, a slide's, a photo's, a
frame's, an ad creative's click-through and files, a placement's outside VAST, a master file on another server): an
http(s) address of a server, or, where the field takes one, a path of this site (``/films/x``). Never anything a
browser would run or read otherwise: ``javascript:``, ``data:``, ``vbscript:``, another scheme, a protocol-relative
``//host``, a backslash (browsers read ``/\\host`` as ``//host``), a space or a control character."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

WEB_SCHEMES = ("http", "https")


def address_problem(value: str, *, web: bool = True, site_path: bool = False) -> str | None:
    """What is wrong with ``value`` as an address (None: nothing): ``web`` takes an http(s) address of a server,
    ``site_path`` a path of this site; the answer says what the field takes, in the editor's words."""
    wanted = " или ".join(part for part, taken in (("адрес http:// или https://", web),
                                                    ("путь сайта, начинающийся с /", site_path)) if taken)
    if not value:
        return f"нужен {wanted}"
    if "\\" in value or any(character.isspace() or unicodedata.category(character) in ("Cc", "Cf")
                            for character in value):
        return f"в адресе не должно быть пробелов, обратной косой черты и служебных символов: нужен {wanted}"
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  # a port that is not a number raises here
    except ValueError:
        return f"адрес не читается: нужен {wanted}"
    if site_path and value.startswith("/") and not value.startswith("//") and not parts.scheme and not parts.netloc:
        return None
    if web and parts.scheme.lower() in WEB_SCHEMES and parts.hostname:
        if parts.username is not None or parts.password is not None:
            return "адрес с именем и паролем не подходит"
        return None
    return f"нужен {wanted}"
