"""What a viewer's query means beyond its words (issue 34): a query typed on the other keyboard layout, a year and a
kind of title named among the words. Plain functions; app/services/search/query.py decides when to use them.

* **Layout**: «nb[fz ufdfym» is «тихая гавань» typed with the Latin layout on (ЙЦУКЕН over QWERTY, keys as on a
  Russian keyboard), and «ешефтшс» is «titanic». A query written wholly in one of the two is switched to the other.
* **Year**: a word 1900–2099 beside other words («солярис 2002») is the year of the title, not a word of it.
* **Kind**: «фильм», «кино», «сериал» beside other words ask for a film or a series, not for the word.
* **A word still being typed**: «горь», «закры» are no Russian word; Snowball's stem of them is a guess («горь» as
  «гор», which «Гора» has), so the rank does not read one as a stem (app/services/search/query.py ``_named``).
* **Dictionary form**: «отца» is a form of «отец», «льва» of «лев», «людей» of «человек» (pymorphy3 over the OpenCorpora
  dictionary): forms whose stem Snowball does not bring back to the title's (a vowel that drops out, another root).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import pymorphy3

_LATIN = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`" + 'QWERTYUIOP{}ASDFGHJKL:"ZXCVBNM<>~'
_CYRILLIC = "йцукенгшщзхъфывапролджэячсмитьбюё" + "ЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮЁ"
TO_CYRILLIC = str.maketrans(_LATIN, _CYRILLIC)
TO_LATIN = str.maketrans(_CYRILLIC, _LATIN)
_LATIN_KEYS = frozenset(_LATIN)
_CYRILLIC_KEYS = frozenset(_CYRILLIC)

FILMS = frozenset({"фильм", "фильма", "фильмы", "кино"})
SERIES = frozenset({"сериал", "сериала", "сериалы"})
FIRST_YEAR, LAST_YEAR = 1900, 2099


def switched_layout(query: str) -> str | None:
    """``query`` as typed on the other layout, when its letters are of one alphabet and every key it has is a key of
    that layout (spaces, digits and punctuation of both aside); None when it mixes both or has no letter. Latin
    letters switch with the keys beside them («nb[fz» is «тихая»); Cyrillic ones switch alone, punctuation kept
    («фмутпукы: утвпфьу» is «avengers: endgame»)."""
    letters = {char for char in query if char.isalpha()}
    if letters and letters <= _LATIN_KEYS:
        keys = {char for char in query if not (char.isspace() or char.isdigit() or char == "-")}
        return query.translate(TO_CYRILLIC) if keys <= _LATIN_KEYS else None
    if letters and letters <= _CYRILLIC_KEYS:
        return "".join(char.translate(TO_LATIN) if char.isalpha() else char for char in query)
    return None


@dataclass(frozen=True)
class Understood:
    """A query's words, and the year and the kind of title among them (None: not asked)."""

    asked: list[str]
    year: int | None = None
    series: bool | None = None  # True: a series, False: a film
    kind: str | None = None  # the word that said which

    def matched(self, year: bool, kind: bool) -> list[str]:
        """The words to match when the year (``year``) and the kind (``kind``) filter instead."""
        dropped = {str(self.year) if year else None, self.kind if kind else None}
        return [word for word in self.asked if word not in dropped]


def understood(asked: list[str]) -> Understood:
    """The year and the kind of title in ``asked`` (normalised words), when other words remain to match."""
    year = next((int(word) for word in asked if word.isdigit() and len(word) == 4
                 and FIRST_YEAR <= int(word) <= LAST_YEAR), None)
    kind = next((word for word in asked if word in FILMS or word in SERIES), None)
    if not [word for word in asked if word not in (str(year), kind)]:
        return Understood(asked)
    return Understood(asked, year, None if kind is None else kind in SERIES, kind)


@cache
def _analyser() -> pymorphy3.MorphAnalyzer:
    """The Russian dictionary (about 0.5 s and 27 MB, once per process, at the first query that needs it)."""
    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=4096)
def dictionary_form(word: str) -> str:
    """A Cyrillic ``word``'s dictionary form, by its likeliest reading that the dictionary knows («отца» «отец»,
    «короля» «король», «крёстного» «крёстный»); the word itself when the dictionary does not know it (a name, a
    half-typed word) or it is not Cyrillic."""
    if not word or not all("а" <= char <= "я" or char == "ё" for char in word):
        return word
    known = [parse for parse in _analyser().parse(word) if parse.is_known]
    return known[0].normal_form if known else word


@lru_cache(maxsize=4096)
def half_typed(word: str) -> bool:
    """Whether ``word`` is Cyrillic and no form the dictionary knows: the start of a word still being typed («горь»
    of «Горько», «закры»), not a form of a word («брата», «гавани»). A Latin word or a number: False."""
    if not word or not all("а" <= char <= "я" or char == "ё" for char in word):
        return False
    return not any(parse.is_known for parse in _analyser().parse(word))
