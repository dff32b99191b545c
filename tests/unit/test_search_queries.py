"""The search evaluation's query generators (tests/bench/search_queries.py, issue 34): the keyboard layouts, the
transliteration schemes, the slips, the half-typed words, and the checked-in queries being what they generate."""

from __future__ import annotations

import random

from rapidfuzz.distance import Levenshtein

from tests.bench import search_queries as sq


def test_wrong_layout_both_ways() -> None:
    assert sq.to_qwerty("Тихая гавань") == "nb[fz ufdfym"
    assert sq.to_jcuken("The Matrix") == "еру ьфекшч"
    assert sq.to_jcuken("Schindler's List") == "ысрштвдукэы дшые"
    assert sq.to_jcuken(sq.to_qwerty("ёжик в тумане, щука")) == "ёжик в тумане, щука".replace(",", "б")


def test_transliteration_schemes() -> None:
    assert sq.transliterate("тихая гавань", "gost") == "tixaya gavan"
    assert sq.transliterate("тихая гавань", "iso9") == "tihaâ gavan"
    assert sq.transliterate("тихая гавань", "scientific") == "tixaja gavan"
    assert sq.transliterate("щука цветёт", "gost") == "shhuka cvetyot"
    assert sq.transliterate("щука цветёт", "iso9") == "ŝuka cvetët"
    assert sq.transliterate("щука цветёт", "scientific") == "ščuka cvetët"


def test_informal_transliteration_is_seeded_and_latin() -> None:
    spelt = {sq.informal("жёлтая цапля", random.Random(seed)) for seed in range(40)}
    assert all(text.isascii() and " " in text for text in spelt)
    assert {"zholtaya tsaplya", "jeltaia caplia", "zheltaja tzaplja"} <= spelt  # ж, ё, я, ц: each its variants
    assert len(spelt) > 5
    assert sq.informal("жёлтая цапля", random.Random(3)) == sq.informal("жёлтая цапля", random.Random(3))


def test_a_slip_is_one_or_two_edits_in_a_long_word() -> None:
    rng = random.Random(1)
    for _ in range(200):
        slipped = sq.typo("Москва слезам не верит", rng)
        assert slipped != "москва слезам не верит"
        assert Levenshtein.distance(slipped, "москва слезам не верит") <= 2
        assert slipped.split()[2] == "не"  # words under four letters are left alone


def test_half_typed_title() -> None:
    rng = random.Random(2)
    for _ in range(100):
        typed = sq.prefix("Москва слезам не верит", rng)
        assert typed is not None and "москва слезам не верит".startswith(typed)
        assert len(typed.split()[-1]) >= 3 and typed != "москва слезам не верит"
    assert sq.prefix("Вор", rng) is None


def test_a_new_word_just_begun_is_one_or_two_letters_after_whole_words() -> None:
    rng = random.Random(3)
    seen = set()
    for _ in range(100):
        typed = sq.first_letters("Москва слезам не верит", rng)
        assert typed is not None and "москва слезам не верит".startswith(typed)
        *whole, begun = typed.split()
        assert 1 <= len(begun) <= 2 and whole and any(len(word) >= 3 for word in whole)
        seen.add(typed)
    assert seen == {"москва с", "москва сл", "москва слезам не в", "москва слезам не ве"}  # «не» is too short to cut
    assert sq.first_letters("Брат", rng) is None and sq.first_letters("Я и ты", rng) is None


def test_the_checked_in_queries_are_the_generators() -> None:
    titles = sq.read_jsonl(sq.DATA / "titles.jsonl")
    queries = sq.read_jsonl(sq.DATA / "queries.jsonl")
    ids = {title["id"] for title in titles}
    assert len(ids) == len(titles)
    assert all(query["expected"] and set(query["expected"]) <= ids for query in queries)
    solaris = {query["query"]: query["expected"] for query in queries if query["query"].startswith("солярис ")}
    assert solaris == {"солярис 1972": ["solyaris-1972"], "солярис 2002": ["solyaris-2002"]}
    manual = sq.read_jsonl(sq.DATA / "manual.jsonl")
    synthetic = sq.DATA.parents[2] / "app" / "demo"
    common = {word for name in ("words.py", "names.py") for word in sq.words((synthetic / name).read_text())}
    common |= set(sq.words((synthetic.parent / "data" / "stopwords" / "russian.txt").read_text())) | {"который",
                                                                                                       "других"}
    assert sq.generate(titles, manual, common) == queries  # rewrite with python -m tests.bench.search_queries
