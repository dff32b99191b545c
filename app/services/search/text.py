"""Search text as both databases see it: the same words, the same stems, the same stop words.

Text is normalised (lower case, ё as е) and split into words of letters and digits; the index stores them joined by
spaces, so that PostgreSQL's parser and SQLite's tokenizer meet the same words. Stems are what PostgreSQL's
``russian`` configuration makes of a word: Snowball's russian stemmer for Cyrillic words and its english one for
Latin words, stop words dropped (the lists PostgreSQL ships, app/data/stopwords); the embedded database gets them
from the same Snowball algorithms (snowballstemmer)."""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from pathlib import Path

import snowballstemmer

from app.models.slugs import transliterate

STOPWORDS = Path(__file__).resolve().parents[2] / "data" / "stopwords"
_WORD = re.compile(r"[0-9a-zа-я]+")
_CYRILLIC = re.compile(r"[а-я]")
_local = threading.local()  # snowballstemmer's stemmers keep state between calls: one per thread


def normalise(text: str) -> str:
    return text.lower().replace("ё", "е")


def words(text: str) -> list[str]:
    return _WORD.findall(normalise(text))


def plain(text: str) -> str:
    """What the index stores of a field: its words, space-separated."""
    return " ".join(words(text))


def stems(text: str) -> list[str]:
    """The lexemes PostgreSQL's russian configuration makes of ``text``, in order (stop words gone)."""
    return [lexeme for word in words(text) if (lexeme := stem(word))]


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A word's lexeme, or "" for a stop word (digits stay as they are)."""
    cyrillic = bool(_CYRILLIC.search(word))
    if word in (_stopwords("russian") if cyrillic else _stopwords("english")):
        return ""
    if word.isdigit():
        return word
    return str(_stemmer("russian" if cyrillic else "english").stemWord(word))


def latin(word: str) -> str:
    """A word in Latin letters (its transliteration): what typo correction compares."""
    return transliterate(word)


def _stemmer(language: str) -> snowballstemmer.stemmer:
    stemmers = getattr(_local, "stemmers", None)
    if stemmers is None:
        stemmers = _local.stemmers = {}
    if language not in stemmers:
        stemmers[language] = snowballstemmer.stemmer(language)
    return stemmers[language]


@lru_cache(maxsize=2)
def _stopwords(language: str) -> frozenset[str]:
    return frozenset(line.strip() for line in (STOPWORDS / f"{language}.txt").read_text().splitlines() if line.strip())
