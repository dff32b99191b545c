"""The title key of the alphabetical order (app/models/sort_keys.py): its order is Russian alphabetical order."""

from __future__ import annotations

import importlib.util
import random

import pytest

from app.config import PROJECT_ROOT
from app.models.sort_keys import title_key

RUSSIAN = "абвгдежзийклмнопрстуфхцчшщъыьэюя"  # ё is е's


def test_the_russian_alphabet_in_its_order_and_yo_as_ye():
    letters = list(RUSSIAN)
    random.Random(1).shuffle(letters)
    assert "".join(sorted(letters, key=title_key)) == RUSSIAN
    assert title_key("Ё") == title_key("ё") == title_key("е") == title_key("Е") == "е"
    assert title_key("Й") == "й" != title_key("И")


@pytest.mark.parametrize("titles", [
    ["Ёлки", "Ель", "Яблоко"],  # ё with е, before я
    ["Лёд", "Лёд 2", "Лёд 10", "Леди", "Ледник", "Лето"],  # word by word, numbers as numbers
    ["Иван", "Йога", "Канал"],  # й its own letter, after и
    ["1+1", "007", "9 рота", "300 спартанцев", "Август"],  # numbers first, as numbers
    ["«Август»", "Брат", "...Вий"],  # quotes and leading marks do not count
    ["Я", "Éclair", "Elf", "Oceans", "Ocean's Eleven"],  # Cyrillic before Latin, accents and apostrophes ignored
    ["брат", "Брат 2", "БРАТ 3"],  # letter case does not count
])
def test_titles_in_russian_alphabetical_order(titles):
    shuffled = titles[:]
    random.Random(2).shuffle(shuffled)
    assert sorted(shuffled, key=title_key) == titles


def test_equal_keys_for_what_a_reader_takes_for_the_same_title():
    assert title_key("Лёд") == title_key("ЛЕД") == title_key("  «Лёд»!")
    assert title_key("Человек-паук") == title_key("Человек — паук") == title_key("человек паук")
    assert title_key("Ocean's") == title_key("Oceans")


def test_the_key_fits_its_column():
    assert len(title_key("Ω" * 300)) == 255 and len(title_key("я" * 300)) == 255


def test_the_migration_fills_the_keys_as_the_model_makes_them():
    path = PROJECT_ROOT / "migrations" / "versions" / "748324f3daf4_contents_title_sort_key.py"
    spec = importlib.util.spec_from_file_location("title_sort_migration", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    titles = ["Лёд 2", "Ocean's Eleven", "007: Координаты «Скайфолл»", "Éclair", "  ", "Брат 10", "Ёлки-палки"]
    assert [migration._title_key(title) for title in titles] == [title_key(title) for title in titles]
