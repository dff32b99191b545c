"""Catalogue search (spec §7 ``POST /v2/contents/search``): Russian morphology, typo tolerance, transliteration and
the Latin original title, ё as е; the same answers from PostgreSQL (full-text search with the russian configuration,
pg_trgm for typos) and from the embedded SQLite (FTS5 over the same stems, computed in Python).

1. The query's words (app/services/search/text.py). A word of 4 letters or more whose stem no indexed word has is a
   typo: it becomes the nearest indexed word (Levenshtein distance over the transliterations, at most 1, or 2 from 7
   letters; ties go to the word more titles have, then the alphabet). PostgreSQL proposes candidates from its
   trigram index, SQLite from the word list in memory; the choice is made here, alike.
2. A content matches when one of its fields has every word: its title, its original title or transliteration, the
   names of its people, its description. A query that finds nothing is asked again with its last word as the start of
   a word (a viewer still typing), then as typed on the other keyboard layout (app/services/search/understanding.py).
3. Rank: which fields matched (title 8, original or transliteration 4, people 2, description 1, summed), then the
   Kinopoisk rating, then the id. Integers and columns: both databases order alike. The documents alone are read
   (they carry the rating); the filters of the lists are asked of each match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import extract
from sqlalchemy import (
    ColumnElement,
    Integer,
    Select,
    and_,
    case,
    column,
    exists,
    func,
    literal,
    or_,
    select,
    text,
    union,
)

from app.extensions import db
from app.models import Content, SearchDocument, SearchWord
from app.services.catalogue.cards import cards_by_id
from app.services.catalogue.filters import ListRequest, Query, filtered
from app.services.catalogue.paging import Page
from app.services.catalogue.publishing import off_schedule, public
from app.services.search.text import latin, stem, words
from app.services.search.understanding import switched_layout, understood

WEIGHTS = {"title": 8, "original": 4, "people": 2, "description": 1}
CONFIGS = {"title": "russian", "original": "simple", "people": "russian", "description": "russian"}  # as migrated
MAX_WORDS = 8
PREFIX_LETTERS = 3  # a last word read as the start of a word: from this many letters
TRIGRAM_CANDIDATES = 40
CYRILLIC = re.compile(r"[а-я]")


@dataclass(frozen=True)
class SearchResult:
    page: Page
    corrected: str | None  # the query as searched, when a typo was corrected


def search(query: str, request: ListRequest, generation: int = 0, within: Select[Any] | None = None) -> SearchResult:
    """Published contents matching ``query`` and ``request``'s filters, best first, its page of them (cards
    loaded); ``within``: among the contents this query of ids gives only (a viewer's history). A query that finds
    nothing is tried again as typed on the other keyboard layout (app/services/search/understanding.py)."""
    result = _found(words(query)[:MAX_WORDS], request, generation, within)
    switched = switched_layout(query) if result.page.total == 0 else None
    if switched is not None:
        asked = words(switched)[:MAX_WORDS]
        other = _found(asked, request, generation, within)
        if other.page.total:
            return SearchResult(other.page, other.corrected or " ".join(asked))
    return result


def _found(asked: list[str], request: ListRequest, generation: int, within: Select[Any] | None) -> SearchResult:
    """The words as typed; when they find nothing, the last one as the start of a word (a viewer still typing:
    «тихая гав», «закры»), from PREFIX_LETTERS letters on."""
    result = _meant(asked, request, generation, within)
    if result.page.total == 0 and asked and len(asked[-1]) >= PREFIX_LETTERS and not asked[-1].isdigit():
        return _meant(asked, request, generation, within, prefix=True)
    return result


def _meant(asked: list[str], request: ListRequest, generation: int, within: Select[Any] | None,
           prefix: bool = False) -> SearchResult:
    """A year or a kind of title among the words («солярис 2002», «бригада сериал») filters instead of being
    matched, unless the request filters by it already; when that finds nothing, the words are matched as typed."""
    meant = understood(asked)
    year = meant.year if request.year_from is None and request.year_to is None else None
    series = meant.series if request.has_multiple_episodes is None else None
    if year is not None or series is not None:
        narrowed = replace(request, year_from=year or request.year_from, year_to=year or request.year_to,
                           has_multiple_episodes=request.has_multiple_episodes if series is None else series)
        kept = meant.matched(year=year is not None, kind=series is not None)
        result = _search(kept, narrowed, generation, within, prefix)
        if result.page.total:
            return result
    return _search(asked, request, generation, within, prefix)


def _search(asked: list[str], request: ListRequest, generation: int, within: Select[Any] | None,
            prefix: bool = False) -> SearchResult:
    page, page_size = request.page, request.page_size
    known = _known_stems(asked)
    typed = asked[:-1] if prefix else asked  # a word still being typed is no typo
    searched = [_correct(word, known, generation) for word in typed] + asked[len(typed):]
    corrected = " ".join(searched) if searched != asked else None
    if not searched:
        return SearchResult(Page([], 0, page, page_size), corrected)
    matches, candidates = _matches(searched, prefix)
    if within is not None:
        candidates = and_(candidates, SearchDocument.content_id.in_(within))
    score = sum((case((matched, weight), else_=0) for matched, weight in
                 zip(matches, WEIGHTS.values(), strict=True)), literal(0, Integer))
    found = SearchDocument.content_id
    candidates = and_(candidates, found.not_in(off_schedule()))  # indexed, but not shown now
    ranked = (_narrowed(select(found, func.count().over().label("total")).where(candidates), request)
              .order_by(score.desc(), SearchDocument.rating.desc().nulls_last(), found)
              .limit(page_size).offset((page - 1) * page_size))
    rows = db.session.execute(ranked).all()
    total = rows[0].total if rows else _count(candidates, request) if page > 1 else 0
    ids = [row.content_id for row in rows]
    contents = {c.id: c for c in db.session.scalars(  # published: a content unpublished since it was indexed is not
        cards_by_id(ids, public())).unique()}
    return SearchResult(Page([contents[i] for i in ids if i in contents], total, page, page_size), corrected)


def _narrowed(query: Query, request: ListRequest) -> Query:
    """``query`` of documents, to those whose content passes ``request``'s filters: asked of each match (an EXISTS on
    the content's row and labels), so that a filter costs a look per match, never a pass over the catalogue. The
    documents are the published contents' (app/services/search/index.py): without filters, contents is read only for
    those outside their schedule now (app/services/catalogue/publishing.py)."""
    if not request.narrows:
        return query
    content = filtered(select(literal(1)).select_from(Content).where(Content.id == SearchDocument.content_id), request)
    # OFFSET 0 keeps PostgreSQL from pulling the EXISTS up into a join, which filters the whole catalogue first.
    return query.where(exists(content.offset(0)))


def _count(candidates: ColumnElement[bool], request: ListRequest) -> int:
    """How many match, for a page past the last (which has no row to carry the count)."""
    return db.session.scalar(_narrowed(select(func.count()).select_from(SearchDocument).where(candidates),
                                       request)) or 0


def _matches(searched: list[str], prefix: bool = False) -> tuple[list[ColumnElement[bool]], ColumnElement[bool]]:
    """Per field, in WEIGHTS' order, whether the content's field has every word (``prefix``: the last one as the start
    of a word, stemmed as a word is: «закры» as «закр…»); and whether any field has them, written so that the
    database finds those rows by its index."""
    whole, started = (searched[:-1], searched[-1]) if prefix else (searched, None)
    if db.engine.dialect.name == "postgresql":
        matches: list[ColumnElement[bool]] = []
        for field in WEIGHTS:
            config = CONFIGS[field]
            spell = (lambda word: word) if config == "russian" else latin
            query: Any = func.websearch_to_tsquery(config, " ".join(spell(word) for word in whole)) if whole else None
            if started is not None:  # letters and digits only (search_text.words): safe in to_tsquery's syntax
                begun = func.to_tsquery(config, f"{spell(started)}:*")
                query = begun if query is None else query.op("&&")(begun)
            matches.append(column(f"{field}_tsv").op("@@")(query))  # stored to_tsvector (the migration)
        return matches, or_(*matches)
    found: list[Select[Any] | None] = []
    for field in WEIGHTS:
        spell = latin if CONFIGS[field] == "simple" else stem
        terms = [f'"{term}"' for term in (spell(word) for word in whole) if term]
        if started is not None and spell(started):
            terms.append(f'"{spell(started)}"*')
        if not terms:  # only stop words: PostgreSQL's query is empty and matches nothing
            found.append(None)
            continue
        fts = " AND ".join(terms)  # terms are letters and digits only (search_text.words)
        found.append(select(text("rowid")).select_from(text("search_fts")).where(
            text(f"search_fts MATCH :match_{field}").bindparams(**{f"match_{field}": f"{{{field}}} : ({fts})"})))
    subqueries = [query for query in found if query is not None]
    in_field: list[ColumnElement[bool]] = [
        SearchDocument.content_id.in_(query) if query is not None else literal(False) for query in found]
    anywhere: ColumnElement[bool] = SearchDocument.content_id.in_(union(*subqueries)) if subqueries else literal(False)
    return in_field, anywhere


def _known_stems(asked: list[str]) -> set[str]:
    """Which of the words' stems some indexed word has: one query for the whole query."""
    stems = {stem(word) or word for word in asked if len(word) >= 4}
    return set(db.session.scalars(select(SearchWord.stem).where(SearchWord.stem.in_(stems)).distinct())) if stems \
        else set()


def _correct(word: str, known: set[str], generation: int) -> str:
    """The word, or the indexed word it is a typo of (the module's rule 1)."""
    if len(word) < 4 or word.isdigit() or (stem(word) or word) in known:
        return word
    spelled = latin(word)
    limit = 1 if len(word) < 7 else 2
    cyrillic = bool(CYRILLIC.search(word))  # a word is corrected into a word of its own alphabet
    candidates = [c for c in _candidates(spelled, generation) if bool(CYRILLIC.search(c[0])) == cyrillic]
    best = min(((Levenshtein.distance(spelled, other_latin), -count, other)
                for other, other_latin, count in candidates), default=None)
    return best[2] if best is not None and best[0] <= limit else word


def _candidates(spelled: str, generation: int) -> list[tuple[str, str, int]]:
    """Indexed words whose transliteration is near ``spelled``: (word, latin, contents)."""
    if db.engine.dialect.name == "postgresql":
        rows = db.session.execute(
            select(SearchWord.word, SearchWord.latin, SearchWord.contents)
            .where(SearchWord.latin.op("%")(spelled))
            .order_by(func.similarity(SearchWord.latin, spelled).desc(), SearchWord.contents.desc(), SearchWord.word)
            .limit(TRIGRAM_CANDIDATES)).all()
        return [(word, spelled_word, count) for word, spelled_word, count in rows]
    vocabulary = _vocabulary(db.engine.url.render_as_string(), generation)
    found = extract(spelled, vocabulary.latin, scorer=Levenshtein.distance, score_cutoff=2, limit=None)
    return [vocabulary.words[index] for _, _, index in found]


@dataclass(frozen=True)
class _Vocabulary:
    latin: list[str]
    words: list[tuple[str, str, int]]


@lru_cache(maxsize=2)
def _vocabulary(database: str, generation: int) -> _Vocabulary:
    """The word list in memory (SQLite's stand-in for a trigram index), kept per database and catalogue generation
    (a generation number alone repeats across databases: tests, a cache that restarted)."""
    rows = db.session.execute(select(SearchWord.word, SearchWord.latin, SearchWord.contents)).all()
    return _Vocabulary([row[1] for row in rows], [(row[0], row[1], row[2]) for row in rows])

