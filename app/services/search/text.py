"""Search text as both databases see it: the same words, the same stems, the same stop words.

Text is normalised (lower case, ё as е) and split into words of letters and digits; the index stores them joined by
spaces, so that PostgreSQL's parser and SQLite's tokenizer meet the same words. Stems are what PostgreSQL's
``russian`` configuration makes of a word: Snowball's russian stemmer for Cyrillic words and its english one for
Latin words, stop words dropped (the lists PostgreSQL ships, app/data/stopwords); the embedded database gets them
from the same Snowball algorithms (snowballstemmer)."""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path

import snowballstemmer

from app.models.slugs import transliterate

STOPWORDS = Path(__file__).resolve().parents[2] / "data" / "stopwords"
_WORD = re.compile(r"[a-zа-я]+|[0-9]+")  # letters and digits apart: «Т-34» and «т34» are the same two words
CYRILLIC = re.compile(r"[а-я]")  # a word of the Cyrillic alphabet (query.py, suggest.py)
PREFIX_LETTERS = 3  # a word being typed alone is read as the start of a word from this many letters (query.py)
_local = threading.local()  # snowballstemmer's stemmers keep state between calls: one per thread


# A soft or hard sign in a transliteration («dzhentl'meny») is not a break; «Д'Артаньян» keeps its two words.
_LATIN_APOSTROPHE = re.compile(r"(?<=[a-z\u00c0-\u024f])['’ʹʺ`´]|['’ʹʺ`´](?=[a-z\u00c0-\u024f])")


def normalise(text: str) -> str:
    """Lower case, ё as е, a Latin letter's diacritics dropped (ISO 9's «č», «â»: «c», «a»; Cyrillic letters stay as
    they are: «й» is not «и»), an apostrophe beside a Latin letter gone («dzhentl'meny» is one word)."""
    lowered = _LATIN_APOSTROPHE.sub("", text.lower().replace("ё", "е"))
    if lowered.isascii():
        return lowered
    return "".join(_plain_latin(char) if "\u00c0" <= char < "\u0400" else char for char in lowered)


@lru_cache(maxsize=1024)
def _plain_latin(char: str) -> str:
    """A Latin letter with a diacritic as its base letter («ë» → «e», «ŝ» → «s»); any other such character as it is."""
    return unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode() or char


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
    cyrillic = bool(CYRILLIC.search(word))
    if word in (_stopwords("russian") if cyrillic else _stopwords("english")):
        return ""
    if word.isdigit():
        return word
    return str(_stemmer("russian" if cyrillic else "english").stemWord(word))


def latin(word: str) -> str:
    """A word in Latin letters (its transliteration): what typo correction compares."""
    return transliterate(word)


# Transliteration schemes differ in how they spell a few letters: х kh/h/x, ц ts/c/tz/cz, ч ch/č, ш sh/š, щ shch/sch/
# shh/ŝ, ж zh/ž/z, я ya/ja/ia/â, ю yu/ju/iu/û, й y/j/i, ы y/i/y', ё yo/jo/e/ë, е e/ye/je, ь '/ʹ/nothing. ``fold``
# writes every one of them the same way (diacritics and apostrophes are gone already: ``normalise``), applied alike to
# what is indexed and to what is asked; a doubled letter is one. (x is х, as GOST 7.79 and informal spelling have it.)
_FOLDS = ((re.compile(r"shch|sch|shh"), "s"), (re.compile(r"sh"), "s"), (re.compile(r"ch"), "c"),
          (re.compile(r"zh"), "z"), (re.compile(r"kh|x"), "h"), (re.compile(r"t[sz]|cz"), "c"),
          (re.compile(r"[jy]"), "i"), (re.compile(r"w"), "v"), (re.compile(r"([a-z])\1+"), r"\1"),
          (re.compile(r"io"), "e"), (re.compile(r"i([aeu])"), r"\1"),
          (re.compile(r"([a-z])\1+"), r"\1"))


@lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """A Latin word (or a Cyrillic one, transliterated first) as every common transliteration scheme of Russian
    spells it alike («tikhaya», «tihaja» and «tihaia»: «tihaia»): what the original-title field matches."""
    folded = unicodedata.normalize("NFKD", transliterate(word)).encode("ascii", "ignore").decode()
    for pattern, replacement in _FOLDS:
        folded = pattern.sub(replacement, folded)
    return folded


def spellings_begun(word: str) -> list[str]:
    """What a word being typed may be the start of in the original-title field, which holds each word folded and, where
    folding changes it, as spelled (app/services/search/index.py ``spellings``): its fold, or its spelling («tikhay»
    starts «tikhaya», not its fold «tiha»); none for a word that is nothing in Latin letters (a lone «ь»)."""
    return [spelling for spelling in dict.fromkeys((fold(word), latin(word))) if spelling]


def alone(kept: list[str], started: list[str]) -> bool:
    """Whether a word being typed shorter than PREFIX_LETTERS has no word of the query before it in a field (``kept``:
    the whole words as that field keeps them, a stop word as nothing): that field does not match, as the word alone
    would not be read as a start (in a Russian field «the m» would be every content with a word starting with «m»;
    in the original title's, where «the» is a word, it is «the» and a word starting so). query.py and suggest.py
    both ask it, so that memory and the databases agree."""
    return any(len(start) < PREFIX_LETTERS for start in started) and not any(kept)


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
