"""A title's key for the «По алфавиту» order (sort=title): a text whose plain code-point order is Russian alphabetical
order, so that SQLite (BINARY) and PostgreSQL (the column's "C" collation) order it alike without an ICU collation,
which not every PostgreSQL server has, and never by the database's own locale (en_US would skip spaces; C puts ё
after я). Stored in ``contents.title_sort`` (app/models/catalogue.py keeps it with the title) and indexed.

The key, character by character of the title (NFKC, case folded):

- ё is е (and Ё, as every capital, its small letter): «Лёд» sorts among «Лед…», not after «Я…»;
- words compare word by word: a run of anything that is no letter or digit (spaces, «», quotes, dashes, colons) is
  one space, which is lower than every letter, so «Лёд» < «Лёд 2» < «Ледник»; apostrophes are dropped («Ocean's» as
  «Oceans»); leading and trailing ones go;
- numbers compare as numbers: a run of digits is its length (one character, '1' for one digit) then its digits,
  leading zeros dropped, so «Брат 2» < «Брат 10»; numbers come before letters («1+1» before «Август»);
- Cyrillic letters compare by their code points (а … я, й its own letter after и), and come before every other
  letter: those are stripped of their accents (é as e) and each carries the private-use prefix U+E000, so Latin
  titles follow the Russian ones (А–Я, then A–Z), as in ICU's Russian collation.

Titles equal by the key are ordered by the id, as every list's ties are (app/services/catalogue/paging.py)."""

from __future__ import annotations

import unicodedata

MAX_KEY = 255  # the column's length: a longer key is cut (its order past 255 characters left to the id)
OTHER_LETTER = "\ue000"  # before every letter that is not Cyrillic: they sort after the Cyrillic ones
APOSTROPHES = frozenset("'’ʼ`")
MAX_DIGITS = 40  # a longer run of digits is cut (its length character stays an ASCII one below the letters)


def title_key(title: str) -> str:
    """``title``'s sort key (the module's rules): «Лёд 2» → «лед 12», «Брат 10» → «брат 210»."""
    parts: list[str] = []
    digits = ""
    apart = False  # a separator since the last letter or number
    for char in unicodedata.normalize("NFKC", title).casefold():
        if "0" <= char <= "9" or char.isalpha():
            if digits and not ("0" <= char <= "9"):
                parts.append(_number(digits))
                digits = ""
            if apart and parts:
                parts.append(" ")
            apart = False
            if "0" <= char <= "9":
                digits += char
            else:
                parts.append(_letter(char))
        elif char not in APOSTROPHES:
            if digits:
                parts.append(_number(digits))
                digits = ""
            apart = True
    if digits:
        parts.append(_number(digits))
    return "".join(parts)[:MAX_KEY]


def _number(digits: str) -> str:
    digits = (digits.lstrip("0") or "0")[:MAX_DIGITS]
    return chr(ord("0") + len(digits)) + digits


def _letter(char: str) -> str:
    if "\u0400" <= char <= "\u04ff":
        return "е" if char == "ё" else char
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)) or char
    return "".join(OTHER_LETTER + c for c in base)
