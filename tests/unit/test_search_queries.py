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


def test_a_latin_title_is_cut_where_a_search_reads_a_word_being_typed() -> None:
    rng = random.Random(5)
    # a first word from its third letter and never whole («the» is neither), a later one from its first letter
    assert {sq.latin_typed("The Martian", rng) for _ in range(200)} == {f"the {'martian'[:n]}" for n in range(1, 7)}
    assert {sq.latin_typed("Heat", rng) for _ in range(50)} == {"hea"}
    assert sq.latin_typed("Брат", rng) is None and sq.latin_typed("Up", rng) is None


def test_every_keystroke_of_a_latin_name_from_where_a_search_reads_it() -> None:
    titles = [{"id": "a", "title": "Иваново детство", "also": ["Ivan's Childhood"]},
              {"id": "b", "title": "Брат", "original": "Brother"}, {"id": "c", "title": "Амели", "also": ["Amélie"]}]
    queries = {query["query"]: query["expected"] for query in sq.keystrokes(titles)}
    # «Ivan's» is one word, as search reads it: from its third letter; «childhood» from its first; each word whole
    assert [query for query in queries if query.startswith("iv")] == [
        "iva", "ivan", "ivans", *(f"ivans {'childhood'[:n]}" for n in range(1, 10))]
    assert queries["bro"] == queries["brother"] == ["b"] and queries["ivans c"] == ["a"]
    assert not any(query.startswith("am") for query in queries)  # a name not in Latin letters alone is left out
    assert all(query["kind"] == "prefix" for query in sq.keystrokes(titles))


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
