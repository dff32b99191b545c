"""Search text (app/services/search/text.py, issue 34): one spelling for every transliteration scheme, words as both
databases split them."""

from __future__ import annotations

import pytest

from app.services.search.text import fold, normalise, words

# «Тихая гавань», «Целлюлозная плёнка»… as GOST 7.79 (x, cz, y'), ISO 9 (č, â, ë), the scientific scheme (ja, c),
# the passport's (ia, ts, kh) and informal ones (ya, h, tz): every spelling of a word folds to one.
SPELLINGS = {
    "тихая": ["tikhaya", "tihaja", "tihaia", "tixaya", "tihaâ"],
    "цельнометаллическая": ["tselnometallicheskaya", "celnometalličeskaâ", "czelnometallicheskaya",
                            "tzelnometallicheskaja"],
    "щука": ["shchuka", "schuka", "shhuka", "ŝuka", "shuka"],
    "ёлки": ["yolki", "jolki", "elki", "ëlki"],
    "любовь": ["lyubov", "ljubov'", "liubov", "lûbovʹ"],
    "пух": ["pukh", "puh", "pux"],
    "джентльмены": ["dzhentlmeny", "dzhentl'meny", "dzentlmeni", "džentlʹmeny"],
    "жизнь": ["zhizn", "žiznʹ", "zhizn'"],
    "майор": ["mayor", "major", "maior", "majjor"],
}


@pytest.mark.parametrize("word", SPELLINGS)
def test_every_scheme_of_a_word_folds_to_the_same_letters(word: str):
    folded = {fold(spelling) for spelling in [word, *(normalise(other) for other in SPELLINGS[word])]}
    assert len(folded) == 1, folded


def test_different_words_stay_different():
    assert len({fold(word) for word in ("тихая", "тихий", "гавань", "город", "царь", "сарай", "чай", "шаг")}) == 8


def test_words_split_letters_from_digits_and_keep_latin_apostrophes_inside():
    assert words("Т-34") == words("т34") == ["т", "34"]
    assert words("Брат2") == ["брат", "2"]
    assert words("dzhentl'meny, Schindler’s List") == ["dzhentlmeny", "schindlers", "list"]
    assert words("Д'Артаньян") == ["д", "артаньян"]  # a Cyrillic name keeps its two words
    assert words("Ёлки-палки") == ["елки", "палки"]
    assert words("Über ilʹâ") == ["uber", "ila"]  # diacritics and a soft sign of ISO 9
