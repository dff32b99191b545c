"""The search evaluation's queries (issue 34), made from its titles: ``python -m tests.bench.search_queries`` rewrites
tests/data/search_eval/queries.jsonl from titles.jsonl and the hand-written manual.jsonl, deterministically (seeded).

Each kind a viewer types is made by a rule here: the title as written, one distinctive word, a typo or two, ё typed
as е, punctuation dropped or added, the wrong keyboard layout (ЙЦУКЕН↔QWERTY, both ways), the title with its year or
with «фильм»/«сериал», the last word half typed, the title transliterated by another scheme (GOST 7.79 B, ISO 9,
the scientific one, informal spellings), the English or international title, a short title that is a common word.
Inflected forms are hand-written (manual.jsonl). A query's ``expected`` lists every evaluation title it may rightly
mean (a title made twice answers «солярис» with either; «солярис 2002» only with the 2002 one)."""

from __future__ import annotations

import json
import random
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data" / "search_eval"
SEED = 34
COUNTS = {"exact": 40, "word": 30, "typo": 40, "yo": 25, "punctuation": 30, "layout": 40, "year": 30, "type": 15,
          "prefix": 40, "translit": 40, "english": 35, "short": 25}
FIRST_LETTERS = 10  # more "prefix" queries: whole words, then a word's first one or two letters («долгая д»)
LATIN_TYPED = 10  # more "prefix" queries: an international title cut at any letter a search reads («qui», «quiet h»)
KINDS = ("exact", "word", "inflected", "typo", "yo", "punctuation", "layout", "year", "type", "prefix", "translit",
         "english", "short")

Title = dict[str, Any]
Query = dict[str, Any]

# ЙЦУКЕН and QWERTY, key by key (the letter keys and the punctuation keys that carry Russian letters).
RUSSIAN_KEYS = "йцукенгшщзхъфывапролджэячсмитьбюё"
LATIN_KEYS = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`"
TO_QWERTY = dict(zip(RUSSIAN_KEYS, LATIN_KEYS, strict=True))
TO_JCUKEN = dict(zip(LATIN_KEYS, RUSSIAN_KEYS, strict=True))

_COMMON = dict(zip("абвгдезиклмнопрстуф", "abvgdeziklmnoprstuf", strict=True))
SCHEMES: dict[str, dict[str, str]] = {
    # GOST 7.79-2000 system B as typed (its apostrophes for ъ, ь, ы, э left out, as a viewer leaves them)
    "gost": {**_COMMON, "ё": "yo", "ж": "zh", "й": "j", "х": "x", "ц": "c", "ч": "ch", "ш": "sh", "щ": "shh",
             "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya"},
    # ISO 9:1995 (GOST 7.79 system A), with its diacritics; ъ and ь (ʺ ʹ) left out
    "iso9": {**_COMMON, "ё": "ë", "ж": "ž", "й": "j", "х": "h", "ц": "c", "ч": "č", "ш": "š", "щ": "ŝ", "ъ": "",
             "ы": "y", "ь": "", "э": "è", "ю": "û", "я": "â"},
    # the scientific transliteration (linguists'), ь and ъ left out
    "scientific": {**_COMMON, "ё": "ë", "ж": "ž", "й": "j", "х": "x", "ц": "c", "ч": "č", "ш": "š", "щ": "šč",
                   "ъ": "", "ы": "y", "ь": "", "э": "è", "ю": "ju", "я": "ja"},
}
# Informal spellings: each letter's variants, one picked per query (ts/c, ya/ja/ia, y/i, kh/h, zh/j, …).
INFORMAL = {"ё": ("e", "yo", "io", "o"), "ж": ("zh", "j", "zh"), "й": ("y", "i", "j"), "х": ("kh", "h", "h"),
            "ц": ("ts", "c", "tz"), "ч": ("ch",), "ш": ("sh",), "щ": ("sch", "shch", "sh"), "ъ": ("",),
            "ы": ("y", "i"), "ь": ("", "'"), "э": ("e",), "ю": ("yu", "ju", "iu"), "я": ("ya", "ja", "ia")}
TYPE_WORDS = {"film": "фильм", "series": "сериал"}
_WORD = re.compile(r"[0-9a-zа-яё]+")
_RUSSIAN = re.compile(r"[а-яё]")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def key(text: str) -> str:
    """What makes two titles the same title: their words, lower case, ё as е, accents and punctuation dropped."""
    text = "".join(char if _RUSSIAN.match(char) else unicodedata.normalize("NFKD", char)[0]
                   for char in text.lower().replace("ё", "е"))
    return " ".join(words(text))


def to_qwerty(text: str) -> str:
    """Russian typed with the QWERTY layout on: «тихая гавань» → «nb[fz ufdfym»."""
    return "".join(TO_QWERTY.get(char, char) for char in text.lower())


def to_jcuken(text: str) -> str:
    """Latin typed with the ЙЦУКЕН layout on: «the matrix» → «еру ьфекшч»."""
    return "".join(TO_JCUKEN.get(char, char) for char in text.lower())


def transliterate(text: str, scheme: str | dict[str, str]) -> str:
    table = SCHEMES[scheme] if isinstance(scheme, str) else scheme
    return "".join(table.get(char, char) for char in text.lower())


def informal(text: str, rng: random.Random) -> str:
    """``text`` in an informal transliteration whose variants are drawn once for the whole text."""
    table = {**_COMMON, **{letter: rng.choice(variants) for letter, variants in INFORMAL.items()}}
    return transliterate(text, table)


def typo(text: str, rng: random.Random, count: int = 1) -> str:
    """``text`` lower-cased with ``count`` slips in its words of four letters or more: a letter replaced by a key
    beside it, dropped, doubled, or swapped with the next."""
    tokens = re.split(r"(\s+)", text.lower())
    for _ in range(count):
        long = [i for i, token in enumerate(tokens) if sum(c.isalpha() for c in token) >= 4]
        if not long:
            break
        i = rng.choice(long)
        tokens[i] = _slip(tokens[i], rng)
    return "".join(tokens)


def _slip(word: str, rng: random.Random) -> str:
    letters = [i for i, char in enumerate(word) if char.isalpha()]
    position = rng.choice(letters[1:])  # a first letter is seldom wrong
    char, operation = word[position], rng.choice(("replace", "drop", "double", "swap"))
    if operation == "replace":
        row = next((row for row in _ROWS if char in row), None)
        if row is None:
            operation = "drop"
        else:
            at = row.index(char)
            near = [row[j] for j in (at - 1, at + 1) if 0 <= j < len(row)]
            return word[:position] + rng.choice(near) + word[position + 1:]
    if operation == "drop":
        return word[:position] + word[position + 1:]
    if operation == "double":
        return word[:position] + char + word[position:]
    if position + 1 < len(word) and word[position + 1] != char:
        return word[:position] + word[position + 1] + char + word[position + 2:]
    return word[:position] + word[position + 1:]


_ROWS = ("йцукенгшщзхъ", "фывапролджэ", "ячсмитьбю", "qwertyuiop", "asdfghjkl", "zxcvbnm")


def prefix(text: str, rng: random.Random) -> str | None:
    """The title as a viewer is typing it: its first words, the last of them cut short («москва слеза», «закры»)."""
    typed = words(text)
    ends = [k for k, word in enumerate(typed) if len(word) >= (6 if k == 0 else 5) and word.isalpha()]
    if not ends:
        return None
    k = rng.choice(ends)
    return " ".join([*typed[:k], typed[k][:rng.randint(4 if k == 0 else 3, len(typed[k]) - 2)]])


def first_letters(text: str, rng: random.Random) -> str | None:
    """The title as a viewer is typing it, a new word just begun: its first words whole, then one or two letters of
    the next («долгая д», «москва сл»)."""
    typed = words(text)
    ends = [k for k, word in enumerate(typed) if k > 0 and word.isalpha() and len(word) >= 3
            and any(len(before) >= 3 for before in typed[:k])]
    if not ends:
        return None
    k = rng.choice(ends)
    return " ".join([*typed[:k], typed[k][:rng.randint(1, 2)]])


def latin_typed(text: str, rng: random.Random) -> str | None:
    """A title in Latin letters as a viewer is typing it, cut at any letter from where a search reads a word being
    typed: a first word from its third letter, a later one (after a word of three letters or more) from its first
    («qui», «quiet h», «the lon»)."""
    typed = words(text)
    cuts = [(k, end) for k, word in enumerate(typed) if word.isalpha() and word.isascii()
            for end in range(1 if any(len(before) >= 3 for before in typed[:k]) else 3, len(word))]
    if not cuts:
        return None
    k, end = rng.choice(cuts)
    return " ".join([*typed[:k], typed[k][:end]])


def keystrokes(titles: list[Title]) -> list[Query]:
    """Every international name of ``titles`` (an original title in Latin letters, an ``also`` name) at every letter
    from where a search reads a word being typed (``latin_typed``'s cuts, and each word whole), as "prefix" queries
    that expect every title with a name starting so: ``bin/bench-search --keystrokes``."""
    found: dict[str, list[str]] = {}
    names = [name for t in titles for name in [t.get("original") or "", *t.get("also", ())] if name.isascii() and name]
    for name in names:
        typed = _joined(name).split()
        for k, word in enumerate(typed):
            if not (word.isalpha() and word.isascii()):
                continue
            for end in range(1 if any(len(before) >= 3 for before in typed[:k]) else 3, len(word) + 1):
                query = " ".join([*typed[:k], word[:end]])
                if query not in found:
                    found[query] = [t["id"] for t in titles if any(
                        _joined(other).startswith(query) for other in (t.get("original", ""), *t.get("also", ()))
                        if other)]
    return [{"kind": "prefix", "query": query, "expected": expected, "note": "keystroke"}
            for query, expected in found.items()]


def _joined(name: str) -> str:
    """A name's words as search reads them: «Ivan's Childhood» is «ivans childhood» (app/services/search/text.py)."""
    return key(re.sub(r"(?<=\w)['’](?=\w)", "", name))


def punctuation(text: str, rng: random.Random) -> str:
    """Punctuation dropped («кин дза дза», «т34», «спортлото 82») or, in a title without any, added («"сталкер"»,
    «москва слезам не верит!»)."""
    lower = text.lower()
    if re.search(r"[^\w\s]", lower):
        if re.search(r"\w-\w", lower) and rng.random() < 0.5:
            joined = re.sub(r"(?<=\w)-(?=\d)|(?<=\d)-(?=\w)", "", lower)
            lower = joined if joined != lower else lower.replace("-", " ")
        return " ".join(re.sub(r"[^\w\s]", " ", lower).split())
    return rng.choice(('"{}"', "«{}»", "{}!", "{}.", "{}?")).format(lower)


def _pick(rng: random.Random, pool: list[Any], count: int) -> list[Any]:
    return rng.sample(pool, min(count, len(pool)))


def generate(titles: list[Title], manual: Iterable[Query], common: Iterable[str] = (), seed: int = SEED) -> list[Query]:
    """Every query, kind by kind in KINDS' order. A "word" query is the longest word of a title that no other has,
    of six letters or more, that shares its first four letters with no word of ``common`` (the words the catalogue
    around it is made of, and stop words): «шиндлера», not «новый»."""
    rng = random.Random(seed)  # an evaluation's sample
    by_key: dict[str, list[Title]] = {}
    for title in titles:
        by_key.setdefault(key(title["title"]), []).append(title)

    def same(title: Title, *fields: str) -> list[str]:
        """The titles spelt as ``title`` is, with the same values of ``fields``."""
        return [other["id"] for other in by_key[key(title["title"])]
                if all(other.get(field) == title.get(field) for field in fields)]

    russian = [t for t in titles if _RUSSIAN.search(t["title"])]
    out: dict[str, list[Query]] = {kind: [] for kind in KINDS}

    def add(kind: str, query: str, expected: list[str], note: str | None = None) -> None:
        entry: Query = {"kind": kind, "query": query, "expected": expected}
        if note:
            entry["note"] = note
        out[kind].append(entry)

    for title in _pick(rng, titles, COUNTS["exact"]):
        add("exact", title["title"], same(title))
    counts: dict[str, int] = {}
    for title in titles:
        for word in set(key(title["title"]).split()):
            counts[word] = counts.get(word, 0) + 1
    stems = {key(word)[:4] for word in common}
    distinctive = []
    for title in (t for t in russian if len(words(t["title"])) > 1):
        fit = [w for w in key(title["title"]).split()
               if len(w) >= 6 and w.isalpha() and counts[w] == 1 and w[:4] not in stems]
        if fit:
            distinctive.append((title, max(fit, key=len)))  # the longest: the one remembered
    for title, word in _pick(rng, distinctive, COUNTS["word"]):
        add("word", word, [title["id"]])
    for query in manual:
        add(query["kind"], query["query"], query["expected"], query.get("note"))
    for title in _pick(rng, [t for t in titles if len(words(t["title"])) > 1 or len(t["title"]) >= 6], COUNTS["typo"]):
        slips = 2 if sum(len(w) for w in words(title["title"])) >= 10 and rng.random() < 0.4 else 1
        add("typo", typo(title["title"], rng, slips), same(title), f"{slips} slip(s)")
    for title in _pick(rng, [t for t in titles if "ё" in t["title"].lower()], COUNTS["yo"]):
        add("yo", title["title"].lower().replace("ё", "е"), same(title))
    punctuated = [t for t in titles if re.search(r"[^\w\s]", t["title"])]
    plain = [t for t in russian if not re.search(r"[^\w\s]", t["title"])]
    for title in _pick(rng, punctuated, COUNTS["punctuation"] * 2 // 3) + _pick(rng, plain, COUNTS["punctuation"] // 3):
        add("punctuation", punctuation(title["title"], rng), same(title))
    half = COUNTS["layout"] // 2
    for title in _pick(rng, russian, half):
        add("layout", to_qwerty(" ".join(words(title["title"]))), same(title), "typed on QWERTY")
    english = [t for t in titles if t.get("original", "").isascii() and t.get("original")]
    for title in _pick(rng, english, half):
        add("layout", to_jcuken(title["original"]), _by_original(titles, title["original"]), "typed on ЙЦУКЕН")
    twice = [t for t in titles if len(by_key[key(t["title"])]) > 1 and t.get("year")]
    dated = [t for t in titles if t.get("year") and t not in twice]
    for title in twice[:COUNTS["year"]] + _pick(rng, dated, COUNTS["year"] - len(twice)):
        add("year", f"{title['title'].lower()} {title['year']}",
            same(title, "year"))
    typed_twice = [t for t in twice if len({o["type"] for o in by_key[key(t["title"])]}) > 1]
    rest = [t for t in russian if t not in typed_twice]
    for title in typed_twice + _pick(rng, rest, COUNTS["type"] - len(typed_twice)):
        add("type", f"{title['title'].lower()} {TYPE_WORDS[title['type']]}",
            same(title, "type"))
    for title in _pick(rng, russian, COUNTS["prefix"] * 2):
        if len(out["prefix"]) == COUNTS["prefix"] or (typed := prefix(title["title"], rng)) is None:
            continue
        add("prefix", typed, [t["id"] for t in titles if key(t["title"]).startswith(key(typed))])
    varying = [t for t in russian if set(t["title"].lower()) & set(INFORMAL)]  # spelt differently by each scheme
    for i, title in enumerate(_pick(rng, varying, COUNTS["translit"])):
        scheme = ("gost", "iso9", "scientific", "informal", "informal")[i % 5]
        text = " ".join(words(title["title"]))
        spelt = informal(text, rng) if scheme == "informal" else transliterate(text, scheme)
        add("translit", spelt, same(title), scheme)
    international = [(t, t["original"]) for t in english] + [(t, also) for t in titles for also in t.get("also", ())]
    for _title, name in _pick(rng, international, COUNTS["english"]):
        add("english", name, _by_original(titles, name))
    short = [t for t in russian if len(words(t["title"])) == 1 and len(t["title"]) <= 5]
    for title in _pick(rng, short, COUNTS["short"]):
        add("short", title["title"].lower(), same(title))
    letters = random.Random(f"{seed}-letters")  # added later: the kinds above keep their draws
    for title in _pick(letters, russian, FIRST_LETTERS * 4):
        if len(out["prefix"]) == COUNTS["prefix"] + FIRST_LETTERS or (typed := first_letters(title["title"],
                                                                                             letters)) is None:
            continue
        add("prefix", typed, [t["id"] for t in titles if key(t["title"]).startswith(key(typed))])
    latin = random.Random(f"{seed}-latin")  # added later still: the draws above are kept
    wanted = COUNTS["prefix"] + FIRST_LETTERS + LATIN_TYPED
    for _title, name in _pick(latin, international, LATIN_TYPED * 4):
        if len(out["prefix"]) == wanted or (typed := latin_typed(name, latin)) is None:
            continue
        add("prefix", typed, [t["id"] for t in titles if any(
            key(other).startswith(key(typed)) for other in (t.get("original", ""), *t.get("also", ())) if other)],
            "typed in Latin")
    return [query for kind in KINDS for query in out[kind]]


def _by_original(titles: list[Title], name: str) -> list[str]:
    return [t["id"] for t in titles if key(name) in {key(t.get("original", "")), *map(key, t.get("also", ()))}]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main() -> None:
    titles = read_jsonl(DATA / "titles.jsonl")
    known = {title["id"] for title in titles}
    manual = read_jsonl(DATA / "manual.jsonl")
    for query in manual:
        unknown = set(query["expected"]) - known
        assert not unknown, f"manual.jsonl: {query['query']!r} expects unknown titles {unknown}"
    synthetic = Path(__file__).resolve().parents[2] / "app" / "demo"  # the synthetic titles' words and names
    common = {word for name in ("words.py", "names.py") for word in words((synthetic / name).read_text())}
    common |= set(words((synthetic.parent / "data" / "stopwords" / "russian.txt").read_text())) | {"который", "других"}
    queries = generate(titles, manual, common)
    for query in queries:
        assert query["expected"], f"{query['kind']} {query['query']!r} expects nothing"
    with (DATA / "queries.jsonl").open("w") as out:
        for query in queries:
            out.write(json.dumps(query, ensure_ascii=False) + "\n")
    kinds = {kind: sum(q["kind"] == kind for q in queries) for kind in KINDS}
    print(f"{len(queries)} queries: " + ", ".join(f"{kind} {n}" for kind, n in kinds.items()))


if __name__ == "__main__":
    main()
