"""Slugs and transliteration: Russian titles in Latin letters, as Yandex and most Russian sites spell them in
addresses (ISO 9-like, without diacritics: ж → zh, х → kh, ц → ts, щ → shch, ъ and ь dropped), so that «Тихая
гавань» lives at ``tikhaya-gavan``. Pure functions: the models, the seeder, the admin and search share them."""

from __future__ import annotations

import re
import secrets
import unicodedata
from typing import Any

LATIN = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i", "й": "y",
    "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f",
    "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu",
    "я": "ya",
}
MAX_SLUG = 128
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def transliterate(text: str) -> str:
    """``text`` lower-cased, its Cyrillic letters in Latin ones, other letters stripped of their accents."""
    latin = "".join(LATIN.get(char, char) for char in text.lower())
    return unicodedata.normalize("NFKD", latin).encode("ascii", "ignore").decode()


def slugify(text: str, max_length: int = MAX_SLUG) -> str:
    """``Тихая гавань: 2-й сезон`` → ``tikhaya-gavan-2-y-sezon``; empty when nothing of it is a letter or digit."""
    return _NOT_SLUG.sub("-", transliterate(text)).strip("-")[:max_length].rstrip("-")


def default_slug(context: Any) -> str:
    """A column default: the row's title as a slug, with a random tail, since titles repeat (the seeder and the admin
    give slugs of their own). Asked with no row (the admin's empty form shows the default): empty, the title decides
    at the insert."""
    if context is None:
        return ""
    title = context.get_current_parameters().get("title") or ""
    return f"{slugify(title, MAX_SLUG - 7) or 'item'}-{secrets.token_hex(3)}"


def is_slug(text: str, max_length: int = MAX_SLUG) -> bool:
    """Whether ``text`` can be a slug: what cannot names nothing, and is not worth a query (a NUL, which PostgreSQL
    refuses, included)."""
    return len(text) <= max_length and SLUG.fullmatch(text) is not None
