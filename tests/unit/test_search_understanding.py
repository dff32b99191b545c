"""What a query means beyond its words (app/services/search/understanding.py, issue 34)."""

from __future__ import annotations

from app.services.search.understanding import Understood, dictionary_form, switched_layout, understood


def test_a_query_wholly_on_one_layout_is_switched_to_the_other():
    assert switched_layout("nb[fz ufdfym") == "тихая гавань"
    assert switched_layout("Ntrcn") == "Текст"
    assert switched_layout("r9 hjnf") == "к9 рота"  # digits stay
    assert switched_layout("ешефтшс") == "titanic"
    assert switched_layout("`;br d nevfyt") == "ёжик в тумане"
    assert switched_layout("тихая gavan") is None  # both layouts: not a layout slip
    assert switched_layout("фмутпукы: утвпфьу") == "avengers: endgame"  # Cyrillic letters switch, punctuation stays
    assert switched_layout("ьщтщтщлу-ршьу") == "mononoke-hime"
    assert switched_layout("2002") is None and switched_layout("") is None


def test_a_year_and_a_kind_beside_other_words_are_understood():
    assert understood(["солярис", "2002"]) == Understood(["солярис", "2002"], 2002, None, None)
    assert understood(["бригада", "сериал"]) == Understood(["бригада", "сериал"], None, True, "сериал")
    assert understood(["кино", "брат", "1997"]).matched(year=True, kind=True) == ["брат"]
    assert understood(["кино", "брат", "1997"]).matched(year=True, kind=False) == ["кино", "брат"]
    assert understood(["1917"]) == Understood(["1917"])  # alone: a title
    assert understood(["сериал"]) == Understood(["сериал"])
    assert understood(["москва", "1850"]).year is None  # not a year of a film
    assert understood(["9", "рота"]).year is None


def test_a_word_is_read_in_its_dictionary_form_when_the_dictionary_knows_it():
    # A vowel that drops out, and another root: forms whose stem Snowball does not bring back to the title's.
    assert [dictionary_form(word) for word in ("отца", "льва", "телёнка", "пса", "людей")] == [
        "отец", "лев", "телёнок", "пёс", "человек"]
    assert dictionary_form("короля") == "король"
    # Words the dictionary does not know, and what is not a Russian word, stay as typed.
    assert [dictionary_form(word) for word in ("леген", "челов", "godfather", "т34", "")] == [
        "леген", "челов", "godfather", "т34", ""]
