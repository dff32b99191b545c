"""Catalogue search (spec §7 ``POST /v2/contents/search``): Russian morphology, typo tolerance, transliteration in any
common scheme and the Latin original title, ё as е; the same answers from PostgreSQL (full-text search with the
russian configuration) and from the embedded SQLite (FTS5 over the same stems, computed in Python). docs/search.md has
the rules with examples.

1. The query's words (app/services/search/text.py). A content matches when one of its fields has every word: its
   title, its original title, transliteration and alternative titles (matched folded: every transliteration scheme
   spelled alike), the names of its people, its description.
2. The readings of a query (``search``), the first that finds something answering: as typed with the last word also
   as the start of a word; on the other keyboard layout; with typos corrected; the last word as a start again, the
   others corrected; the other layout, corrected; in dictionary forms; loosened. A year or a kind of title among the
   words filters (``_meant``).
3. A typo: a word of 4 letters or more that no indexed word has becomes the nearest indexed word of its alphabet
   (optimal string alignment distance, at most 1, or 2 from 7 letters; ties to the commoner word, then the
   alphabet), from the word list in memory, the same on both databases; a word of 3 letters only when a single
   indexed word is one edit from it.
4. Rank: how a name of the content meets the query (it is the query, its stems, starts with its words, starts with
   its letters: ``_named``), then which fields matched (title 8, original or transliteration 4, people 2,
   description 1, summed; not for a name that is the query or its stems), then the Kinopoisk rating, then the id.
   Integers and columns: both databases order alike. The documents alone are read (they carry the rating and the
   names, and on PostgreSQL what the lists' filters read).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from rapidfuzz.distance import OSA
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
from app.services.catalogue.cards import cards_in_order
from app.services.catalogue.filters import ListRequest, Query, documents_filtered, filtered
from app.services.catalogue.paging import Page
from app.services.catalogue.publishing import off_schedule, public
from app.services.search import suggest
from app.services.search.index import stemmed_name
from app.services.search.text import CYRILLIC, PREFIX_LETTERS, alone, fold, spellings_begun, stem, words
from app.services.search.understanding import dictionary_form, switched_layout, understood

WEIGHTS = {"title": 8, "original": 4, "people": 2, "description": 1}
LEVEL_SCORES = 16  # the scores (sums of WEIGHTS: 0-15) within one of ``_named``'s levels
CONFIGS = {"title": "russian", "original": "simple", "people": "russian", "description": "russian"}  # as migrated
MAX_WORDS = 8
MIN_TYPO = 4  # a word is corrected from this many letters
SHORT_TYPO = 3  # a shorter one (from this many) only when a single indexed word is one edit from it


@dataclass(frozen=True)
class SearchResult:
    page: Page
    corrected: str | None  # the query as searched, when a typo was corrected


@dataclass(frozen=True)
class Reading:
    """One way of reading a query's words (``search``)."""

    prefix: bool = False  # the last word also as the start of a word
    typos: bool = False  # unknown words corrected (all but a last word read as a start)
    loose: bool = False  # every Cyrillic word as the start of its stem less two letters (``_loosened``)
    short: bool = True  # a 3-letter word corrected too (never on the other layout: gibberish has near short words)
    forms: bool = False  # the words are the typed ones' dictionary forms (not a correction: ``corrected`` stays null)


def search(query: str, request: ListRequest, generation: int = 0, within: Select[Any] | None = None,
           index: suggest.SuggestionIndex | None = None) -> SearchResult:
    """Published contents matching ``query`` and ``request``'s filters, best first, its page of them (cards
    loaded); ``within``: among the contents this query of ids gives only (a viewer's history).

    The readings of the query, in order, the first that finds something answering: its words as typed, the last one
    also as the start of a word (a viewer still typing: «тихая гав», «закры», «долгая д»: ``_begun``); the
    same typed on the other keyboard layout (app/services/search/understanding.py); its words whole with their typos
    corrected («зеракло»); the last one as the start of a word again, the others corrected («тихоя гав»); the other
    layout, corrected; the words in their dictionary forms («крёстного отца» as «крёстный отец»: a form the stemmer
    does not bring back to the title's); at last every word loosened («ворошиловского стрелка»). A reading of words
    (every one but the loosened) is answered from memory when it can be (``index``, the generation's: a page within
    the ranking's first places, without ``available_here`` or ``within``: app/services/search/suggest.py), with the
    same ids, order and total as the database's."""
    typed = words(query)[:MAX_WORDS]
    switched_query = switched_layout(query)
    switched = words(switched_query)[:MAX_WORDS] if switched_query is not None else []
    readings = [(typed, Reading(prefix=_begun(typed))), (switched, Reading(prefix=_begun(switched))),
                (typed, Reading(typos=True)), (typed, Reading(prefix=_begun(typed), typos=True)),
                (switched, Reading(typos=True, short=False)), (typed, Reading(forms=True)),
                (typed, Reading(loose=True))]
    first: SearchResult | None = None
    tried: set[tuple[tuple[str, ...], Reading]] = set()
    for asked, reading in readings:
        if reading.forms:  # only a query that reaches this reading asks the dictionary (loaded then, once)
            asked = _dictionary_forms(typed)
        if not asked or (tuple(asked), reading) in tried:
            continue
        tried.add((tuple(asked), reading))
        result = _meant(asked, request, generation, within, reading, index)
        if result.page.total:
            if asked is typed or reading.forms:
                return result
            return SearchResult(result.page, result.corrected or " ".join(asked))
        first = first or result
    return first or SearchResult(Page([], 0, request.page, request.page_size), None)


def _dictionary_forms(typed: list[str]) -> list[str]:
    """The words in their dictionary forms («крёстного отца» «крёстный отец», «короля льва» «король лев»); none when
    that changes no word's stem (the reading would be the first one again)."""
    forms = [dictionary_form(word) for word in typed]
    return forms if [stem(form) for form in forms] != [stem(word) for word in typed] else []


def _begun(asked: list[str]) -> bool:
    """Whether the last word may be read as the start of a word: a word alone from PREFIX_LETTERS letters («закры»),
    after a word of that many from its first letter («долгая д», «the long road h», «the m»: the words before it narrow
    what it starts; in a field where none of them is kept, a stop word, it is alone: text.py ``alone``); a number never
    («брат 2»)."""
    if not asked or asked[-1].isdigit():
        return False
    return len(asked[-1]) >= PREFIX_LETTERS or any(len(word) >= PREFIX_LETTERS for word in asked[:-1])


def _meant(asked: list[str], request: ListRequest, generation: int, within: Select[Any] | None,
           reading: Reading, index: suggest.SuggestionIndex | None = None) -> SearchResult:
    """A year or a kind of title among the words («солярис 2002», «бригада сериал») filters instead of being
    matched, unless the request filters by it already; when that finds nothing, the words are matched as typed."""
    meant = understood(asked)
    year = meant.year if request.year_from is None and request.year_to is None else None
    series = meant.series if request.has_multiple_episodes is None else None
    if year is not None or series is not None:
        narrowed = replace(request, year_from=year or request.year_from, year_to=year or request.year_to,
                           has_multiple_episodes=request.has_multiple_episodes if series is None else series)
        kept = meant.matched(year=year is not None, kind=series is not None)
        result = _search(kept, narrowed, generation, within, reading, index)
        if result.page.total:
            return result
    return _search(asked, request, generation, within, reading, index)


def _search(asked: list[str], request: ListRequest, generation: int, within: Select[Any] | None,
            reading: Reading, index: suggest.SuggestionIndex | None = None) -> SearchResult:
    page, page_size = request.page, request.page_size
    typed = asked[:-1] if reading.prefix else asked  # a word still being typed is no typo
    if reading.typos:
        known = _known(typed, generation)
        searched = [_correct(word, known, generation, reading.short) for word in typed] + asked[len(typed):]
    else:
        searched = asked
    corrected = " ".join(searched) if searched != asked else None
    if not searched:
        return SearchResult(Page([], 0, page, page_size), corrected)
    if not reading.loose and (answered := suggest.ranked(index, searched, reading.prefix, request, within)):
        ids, total = answered  # from memory (app/services/search/suggest.py)
        return SearchResult(Page(suggest.cards(index, ids), total, page, page_size), corrected)
    matches, candidates = _matches(searched, reading.prefix, reading.loose)
    if within is not None:
        candidates = and_(candidates, SearchDocument.content_id.in_(within))
    score = sum((case((matched, weight), else_=0) for matched, weight in
                 zip(matches, WEIGHTS.values(), strict=True)), literal(0, Integer))
    found = SearchDocument.content_id
    candidates = and_(candidates, found.not_in(off_schedule()))  # indexed, but not shown now
    ranked = (_narrowed(select(found, func.count().over().label("total")).where(candidates), request)
              .order_by(_named(searched, reading.prefix, score).desc(), SearchDocument.rating.desc().nulls_last(),
                        found)
              .limit(page_size).offset((page - 1) * page_size))
    rows = db.session.execute(ranked).all()
    total = rows[0].total if rows else _count(candidates, request) if page > 1 else 0
    return SearchResult(_carded([row.content_id for row in rows], total, request), corrected)


def _carded(ids: list[int], total: int, request: ListRequest) -> Page:
    """The page of ``ids``, their cards read by id."""
    if not ids:  # a reading that found nothing (up to six of them per query) asks for no cards
        return Page([], total, request.page, request.page_size)
    # published: a content unpublished since it was indexed is not
    return Page(cards_in_order(ids, public()), total, request.page, request.page_size)


def _named(searched: list[str], prefix: bool, score: ColumnElement[int]) -> ColumnElement[int]:
    """The rank's key: how one of the content's names meets the query, then ``score`` (which fields matched, 0–15).
    Levels: 4 a name is the query (its words as searched), 3 it is the query's stems («брата» and «Брат», not «Брат
    2»), 2 it starts with the query's words («Брат 2»), 1 with its letters as typed (a viewer still typing: «тихая
    гав», «маяк на»), else 0. A name that is the query or its stems is ranked by its rating alone: which other fields
    also have the words («цирк» in the description of a film called «Цирк») does not make it the one meant. A Latin
    word is compared folded, as the names keep Latin titles (app/services/search/index.py ``names``); a last word
    still being typed (``prefix``, ``stemmed_name``) is compared as typed among the stems."""
    typed = dict.fromkeys((" ".join(searched), " ".join(word if CYRILLIC.search(word) else fold(word)
                                                        for word in searched)))
    stemmed = stemmed_name(searched, prefix)
    names = SearchDocument.names

    def having(*patterns: str) -> ColumnElement[bool]:
        return or_(*(names.contains(pattern, autoescape=True) for pattern in patterns))

    levels = LEVEL_SCORES
    return case((having(*(f"|{phrase}|" for phrase in typed)), 4 * levels),
                (having(f"|{stemmed}|"), 3 * levels),
                (having(*(f"|{phrase} " for phrase in typed), f"|{stemmed} "), 2 * levels + score),
                (having(*(f"|{phrase}" for phrase in typed)), levels + score), else_=score)


def _narrowed(query: Query, request: ListRequest) -> Query:
    """``query`` of documents, to those whose content passes ``request``'s filters. PostgreSQL's documents carry their
    content's filtered columns (kept by triggers: app/services/catalogue/filters.py ``DOCUMENTS``), so the filters are
    conditions on the rows ranked anyway; only ``available_here`` (the content's rules) and SQLite ask contents, an
    EXISTS on the content's row and labels per match, never a pass over the catalogue. The documents are the published
    contents' (app/services/search/index.py): without filters, contents is read only for those outside their schedule
    now (app/services/catalogue/publishing.py)."""
    if not request.narrows:
        return query
    if db.engine.dialect.name == "postgresql":
        query = documents_filtered(query, request)
        if request.available_here is None:
            return query
        request = ListRequest(available_here=request.available_here)
    content = filtered(select(literal(1)).select_from(Content).where(Content.id == SearchDocument.content_id), request)
    # OFFSET 0 keeps PostgreSQL from pulling the EXISTS up into a join, which filters the whole catalogue first.
    return query.where(exists(content.offset(0)))


def _count(candidates: ColumnElement[bool], request: ListRequest) -> int:
    """How many match, for a page past the last (which has no row to carry the count)."""
    return db.session.scalar(_narrowed(select(func.count()).select_from(SearchDocument).where(candidates),
                                       request)) or 0


def _matches(searched: list[str], prefix: bool = False,
             loose: bool = False) -> tuple[list[ColumnElement[bool]], ColumnElement[bool]]:
    """Per field, in WEIGHTS' order, whether the content's field has every word (``prefix``: the last one as the start
    of a word, stemmed as a word is: «закры» as «закр…»; ``loose``: every Cyrillic word as the start of its stem less
    its last two letters, ``_loosened``); and whether any field has them, written so that the database finds those
    rows by its index."""
    whole, started = (searched[:-1], searched[-1:]) if prefix else (searched, [])
    if loose:
        whole, started = [word for word in searched if not _loosened(word)], [
            cut for word in searched if (cut := _loosened(word))]
    # the whole words as each field keeps them (its lexemes, stop words gone; the original title's folds)
    kept = {field: [term for word in whole if (term := (stem if CONFIGS[field] == "russian" else fold)(word))]
            for field in WEIGHTS}
    if db.engine.dialect.name == "postgresql":
        matches: list[ColumnElement[bool]] = []
        for field in WEIGHTS:
            config = CONFIGS[field]
            spell = (lambda word: word) if config == "russian" else fold
            if alone(kept[field], started):
                matches.append(literal(False))
                continue
            query: Any = func.websearch_to_tsquery(config, " ".join(spell(word) for word in whole)) if whole else None
            for start in started:  # letters and digits only (search_text.words): safe in to_tsquery's syntax
                starts = [start] if config == "russian" else spellings_begun(start)  # stemmed by the configuration
                if not starts:  # a word that folds to nothing (a lone «ь»): dropped, as SQLite's terms drop it
                    continue
                begun = func.to_tsquery(config, " | ".join(f"{each}:*" for each in starts))
                query = begun if query is None else query.op("&&")(begun)
            # stored to_tsvector (the migration)
            matches.append(column(f"{field}_tsv").op("@@")(query) if query is not None else literal(False))
        return matches, or_(*matches)
    found: list[Select[Any] | None] = []
    for field in WEIGHTS:
        if alone(kept[field], started):
            found.append(None)
            continue
        terms = [f'"{term}"' for term in kept[field]]
        for start in started:
            starts = [stem(start)] if CONFIGS[field] == "russian" else spellings_begun(start)
            either = [f'"{each}"*' for each in starts if each]
            terms += [f"({' OR '.join(either)})"] if len(either) > 1 else either
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


def _loosened(word: str) -> str | None:
    """A Cyrillic word's stem less its last two letters (four kept at least), for a word whose form the stemmer does
    not bring back to its title's: a vowel that drops out («стрелка» of «стрелок», «телёнка» of «телёнок») or a
    name's ending («рублёва»: «рубл…»); None for a word too short to loosen."""
    stemmed = stem(word) if CYRILLIC.search(word) else ""
    return stemmed[:max(4, len(stemmed) - 2)] if len(stemmed) >= 5 else None


def _known(asked: list[str], generation: int) -> set[str]:
    """Which of the words some indexed word has, each by its key (``_key``): from the word list in memory, which
    the suggestion index's making loads (a misspelt query asked the database this once per typo reading)."""
    vocabulary = _vocabulary(db.engine.url.render_as_string(), generation)
    keys = {_key(word) for word in asked if len(word) >= SHORT_TYPO and not word.isdigit()}
    return {key for key in keys if key in (vocabulary.stems if CYRILLIC.search(key) else vocabulary.folded)}


def _key(word: str) -> str:
    """A word as the index knows it: a Cyrillic word by its stem (the Russian fields are stemmed), a Latin one as
    every transliteration scheme spells it (the original-title field is folded, not stemmed)."""
    return (stem(word) or word) if CYRILLIC.search(word) else fold(word)


def _correct(word: str, known: set[str], generation: int, short: bool = True) -> str:
    """The word, or the indexed word it is a typo of (the module's rule 1): the nearest of its own alphabet, a
    Cyrillic word compared as it is written, a Latin one as every transliteration spells it (``fold``)."""
    if len(word) < (SHORT_TYPO if short else MIN_TYPO) or word.isdigit() or _key(word) in known:
        return word
    cyrillic = bool(CYRILLIC.search(word))
    spelled = word if cyrillic else fold(word)
    limit = 1 if len(word) < 7 else 2
    vocabulary = _vocabulary(db.engine.url.render_as_string(), generation).of(cyrillic)
    found = extract(spelled, vocabulary.keys, scorer=OSA.distance, score_cutoff=limit, limit=None)
    if len(word) < MIN_TYPO and len(found) != 1:  # a short word: only where one word alone is that near («мяк»)
        return word
    best = min(((distance, -vocabulary.counts[index], vocabulary.words[index]) for _, distance, index in found),
               default=None)
    return best[2] if best is not None else word


@dataclass(frozen=True)
class _Words:
    keys: list[str]  # what is compared: the word (Cyrillic), its folded spelling (Latin)
    words: list[str]
    counts: list[int]  # documents with the word: a tie goes to the commoner


@dataclass(frozen=True)
class _Vocabulary:
    cyrillic: _Words
    latin: _Words
    stems: frozenset[str]  # the Cyrillic words' stems: whether a Cyrillic query word is known (``_known``)
    folded: frozenset[str]  # every word folded (a Cyrillic one transliterated): whether a Latin one is

    def of(self, cyrillic: bool) -> _Words:
        return self.cyrillic if cyrillic else self.latin


@lru_cache(maxsize=2)
def _vocabulary(database: str, generation: int) -> _Vocabulary:
    """The word list in memory, what typo correction searches on either database (so that both propose the same
    words), read once per database and catalogue generation (a generation number alone repeats across databases:
    tests, a cache that restarted)."""
    rows = sorted(db.session.execute(
        select(SearchWord.word, SearchWord.latin, SearchWord.contents, SearchWord.stem)).all())
    parts = {True: _Words([], [], []), False: _Words([], [], [])}
    stems: set[str] = set()
    for word, folded, count, stemmed in rows:
        cyrillic = bool(CYRILLIC.search(word))
        part = parts[cyrillic]
        part.keys.append(word if cyrillic else folded)
        part.words.append(word)
        part.counts.append(count)
        if cyrillic:  # a word without Cyrillic letters has no Cyrillic stem
            stems.add(stemmed)
    return _Vocabulary(parts[True], parts[False], frozenset(stems), frozenset(row[1] for row in rows))


def load_vocabulary(generation: int) -> None:
    """The word list of ``generation`` loaded now (the suggestion index's background making), not by a search."""
    _vocabulary(db.engine.url.render_as_string(), generation)
