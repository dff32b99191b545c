"""Writing the search index (app/models/search.py): each published content's document, and the word list that typo
correction draws on. Called by whatever changes contents: the demo seeder, the synthetic catalogue, ``flask search
reindex``, and the admin (issue 20) for the contents it saved."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from sqlalchemy import delete, insert, select, text, update

from app.extensions import db
from app.models import AlternativeTitle, Content, ContentPerson, Person, SearchDocument, SearchWord
from app.models.search import SEARCH_FIELDS
from app.services.search.text import fold, latin, plain, stem, stems, words
from app.services.search.understanding import half_typed

BATCH = 5000
STEMS = "~"  # the title's stems among its names: «~тих гаван»
MAX_WORD = 64


def reindex(content_ids: Iterable[int] | None = None) -> int:
    """Rewrites the documents of ``content_ids`` (every content when None; unpublished ones leave the index), then
    the word list. Returns how many documents it wrote. After a rebuild of the whole index, and its commit, call
    ``tidy()``."""
    ids = None if content_ids is None else sorted(set(content_ids))
    before = _words_of(ids) if ids is not None else None
    _drop(ids)
    written = 0
    for batch in _batches(_documents(ids), BATCH):
        db.session.execute(insert(SearchDocument), batch)
        if db.engine.dialect.name == "sqlite":
            db.session.execute(text("INSERT INTO search_fts(rowid, title, original, people, description) "
                                    "VALUES (:content_id, :title_stems, :latin, :people_stems, "
                                    ":description_stems)"), [_stemmed(row) for row in batch])
        written += len(batch)
    if before is None:
        _rewrite_words()
    else:  # a few contents (an admin's save): their words' counts move, not the whole list's (seconds at 100,000)
        _count_words(_words_of(ids), before)
    return written


def tidy() -> None:
    """After a rebuild is committed: it leaves GIN's pending lists long and the planner's statistics old (a few
    documents, an admin's save, do neither). Its own transaction: ANALYZE sees what is committed."""
    if db.engine.dialect.name != "postgresql":
        return
    for field in SEARCH_FIELDS:
        db.session.execute(text(f"SELECT gin_clean_pending_list('ix_search_documents_{field}_tsv')"))
    db.session.execute(text("ANALYZE search_documents"))
    db.session.execute(text("ANALYZE search_words"))


def _drop(ids: list[int] | None) -> None:
    sqlite = db.engine.dialect.name == "sqlite"
    if ids is None:
        db.session.execute(delete(SearchDocument))
        if sqlite:
            db.session.execute(text("DELETE FROM search_fts"))
        return
    for chunk in _batches(iter(ids), 500):
        db.session.execute(delete(SearchDocument).where(SearchDocument.content_id.in_(chunk)))
        if sqlite:
            db.session.execute(text("DELETE FROM search_fts WHERE rowid IN (SELECT value FROM json_each(:ids))"),
                               {"ids": f"[{','.join(map(str, chunk))}]"})


def _documents(ids: list[int] | None) -> Iterator[dict[str, Any]]:
    """The documents of the published contents among ``ids``, a chunk of contents at a time."""
    query = select(Content.id, Content.title, Content.original_title, Content.description,
                   Content.kinopoisk_rating).where(Content.published)
    chunks = [None] if ids is None else [ids[i:i + 500] for i in range(0, len(ids), 500)]
    for chunk in chunks:
        rows = db.session.execute(query if chunk is None else query.where(Content.id.in_(chunk))).all()
        people = _people(None if chunk is None else chunk)
        others = _alternative_titles(chunk)
        for content_id, title, original, description, rating in rows:
            also = others.get(content_id, [])
            latin_names = [name for name in (original, latin(title)) if name]
            yield {"content_id": content_id, "title": plain(title),
                   "original": plain(f"{' '.join(latin_names)} {_also(also)}"),
                   "latin": spellings(" ".join([*latin_names, *also])),
                   "names": names([plain(title), STEMS + " ".join(stem(word) or word for word in words(title)),
                                   *(plain(name) for name in also)], [*latin_names, *also]),
                   "people": plain(" ".join(people.get(content_id, ()))), "description": plain(description or ""),
                   "rating": rating}


def folded(text: str) -> str:
    """``text``'s words as every transliteration scheme spells them alike (app/services/search/text.py ``fold``)."""
    return " ".join(fold(word) for word in words(text))


def spellings(text: str) -> str:
    """The original-title field: ``text``'s words folded (what a whole word is matched as), then those whose Latin
    spelling folding changes as spelled (``latin``): a word being typed is the start of its spelling, not always of its
    fold («qui» of «quiet», folded «quet»; «tikhay» of «tikhaya», folded «tiha»)."""
    found = words(text)
    return " ".join(dict.fromkeys([*(fold(word) for word in found), *(latin(word) for word in found)]))


def names(titles: list[str], latin_names: list[str]) -> str:
    """Each name of a content whole, between bars (its title as it is and as its stems, these marked by ``STEMS``, its
    Latin names folded): the ranking's "the title is the query" and "the title starts with the query"
    (app/services/search/query.py ``_named``)."""
    every = [*titles, *(folded(name) for name in latin_names)]
    return "|" + "|".join(dict.fromkeys(name for name in every if name)) + "|"


def stemmed_name(searched: list[str], prefix: bool) -> str:
    """The query as ``names`` keeps a title's stems, for the rank (query.py ``_named``, suggest.py ``_levels``): a
    last word still being typed (``prefix`` and no word the dictionary knows: «горь») as typed, so that «горь» ranks
    «Горько», which starts with it, over «Гора», which a guessed stem «гор» would call equal."""
    kept = [stem(word) or word for word in searched]
    last = searched[-1] if searched else ""
    # Only where Snowball changed the word is there a guess to doubt (the dictionary: 0.2 ms a new word, then kept).
    if prefix and kept and kept[-1] != last and half_typed(last):
        kept[-1] = last
    return STEMS + " ".join(kept)


def _people(ids: list[int] | None) -> dict[int, list[str]]:
    query = select(ContentPerson.content_id, Person.name, Person.original_name).join(Person)
    if ids is not None:
        query = query.where(ContentPerson.content_id.in_(ids))
    found: dict[int, list[str]] = {}
    for content_id, name, original in db.session.execute(query):
        found.setdefault(content_id, []).extend(filter(None, (name, original)))
    return found


def _alternative_titles(ids: list[int] | None) -> dict[int, list[str]]:
    """Each content's alternative titles, misspellings included: searched as its original title is."""
    query = select(AlternativeTitle.content_id, AlternativeTitle.title)
    if ids is not None:
        query = query.where(AlternativeTitle.content_id.in_(ids))
    found: dict[int, list[str]] = {}
    for content_id, title in db.session.execute(query.order_by(AlternativeTitle.position, AlternativeTitle.id)):
        found.setdefault(content_id, []).append(title)
    return found


def _also(titles: Iterable[str]) -> str:
    """The alternative titles' words as the original title field holds them: as written (the typo list takes them
    from there, a Cyrillic one's too) and transliterated, as the field is matched (query.py spells a query's words so
    for it), each word once."""
    return " ".join(dict.fromkeys(words(" ".join(f"{title} {latin(title)}" for title in titles))))


def _stemmed(row: dict[str, Any]) -> dict[str, Any]:
    """SQLite's FTS5 row: the Russian fields as their lexemes (PostgreSQL's russian configuration makes the same at
    query time), the original title as its words (its simple configuration)."""
    return {**row, "title_stems": " ".join(stems(row["title"])), "people_stems": " ".join(stems(row["people"])),
            "description_stems": " ".join(stems(row["description"]))}


def _rewrite_words() -> None:
    """The word list: every word of the indexed titles, original titles and names, with how many documents have it."""
    counts = _words_of(None)
    db.session.execute(delete(SearchWord))
    for batch in _batches((_word_row(word, count) for word, count in counts.items()), BATCH):
        db.session.execute(insert(SearchWord), batch)


def _words_of(ids: list[int] | None) -> Counter[str]:
    """How many of the documents (of ``ids``, or all) have each word of their titles, original titles and names."""
    counts: Counter[str] = Counter()
    fields = select(SearchDocument.title, SearchDocument.original, SearchDocument.people)
    for chunk in [None] if ids is None else _batches(iter(ids), 500):
        query = fields if chunk is None else fields.where(SearchDocument.content_id.in_(chunk))
        for title, original, people in db.session.execute(query):
            counts.update({word for word in words(f"{title} {original} {people}") if 3 <= len(word) <= MAX_WORD})
    return counts


def _count_words(after: Counter[str], before: Counter[str]) -> None:
    """The word list moved from ``before`` to ``after`` (the documents rewritten): counts changed by the difference,
    new words added, words no document has any more removed."""
    changed = {word: after[word] - before[word] for word in after.keys() | before.keys()
               if after[word] != before[word]}
    if not changed:
        return
    known = {row.word: row.contents for row in db.session.execute(
        select(SearchWord.word, SearchWord.contents).where(SearchWord.word.in_(list(changed))))}
    for word, change in changed.items():
        total = known.get(word, 0) + change
        if word not in known and total > 0:
            db.session.execute(insert(SearchWord), [_word_row(word, total)])
        elif total > 0:
            db.session.execute(update(SearchWord).where(SearchWord.word == word).values(contents=total))
        elif word in known:
            db.session.execute(delete(SearchWord).where(SearchWord.word == word))


def _word_row(word: str, count: int) -> dict[str, Any]:
    return {"word": word, "stem": stem(word) or word, "latin": fold(word)[:128], "contents": count}


def _batches(items: Iterator[Any], size: int) -> Iterator[list[Any]]:
    while batch := list(islice(items, size)):
        yield batch
