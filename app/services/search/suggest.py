"""Suggestions as the viewer types (issue 34), and the first pages of any search: a page within the first RANKS places,
with the lists' filters or without, of a reading of a query's words (as typed, the last one also as the start of a
word; on the other layout; corrected: app/services/search/query.py ``search``), answered from an index in this
process's memory instead of the database, the same ids in the same order with the same total; the cards are then
read by their ids as the database path reads them.

The index is made per database and catalogue generation (app/caching.py), by a background job of this process
(app/suggestions.py keeps it and has it made), never on a request's path: until it is made for the generation a request
sees, the database answers. It mirrors the database's rules exactly (what PostgreSQL's ``to_tsvector`` and SQLite's FTS5
hold of each field, the typed and prefix terms, ``_named``'s four levels, the fields' weights, the rating, the id) and
gives the answer up to the database (``None``) wherever it could not be sure to match it: ``available_here`` (the
viewer's country against the content's rules), a page ending past the first RANKS places, a viewer's history, a year
or a kind among the words, a word the database's query parser reads as an operator («or»), a publishing boundary
passed since it was made, a name range too large to read (``MAX_NAMES``). The loosened reading of a query is the
database's.

How: every content is a bit, numbered in the rank's last order (rating, highest first, none last; then the id), so
that a set of contents is a Python integer; each field keeps, per token, the contents having it (a bit mask for a
common token, the bits' positions for a rare one); the names are one sorted list, for the equal and starts-with
lookups of the rank. The first bits of (rank level, fields matched) in order are the page, the set's bit count the
total. 100,000 synthetic titles: docs/search.md "Suggestions" has its size and time."""

from __future__ import annotations

import re
import threading
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import create_engine, func, select, union_all
from sqlalchemy.pool import NullPool

from app import clock
from app.extensions import db
from app.models import Content, SearchDocument
from app.services.catalogue.cards import load_cards
from app.services.catalogue.filters import ListRequest
from app.services.catalogue.publishing import aware, off_schedule, public
from app.services.search import bits
from app.services.search.bits import Posting
from app.services.search.index import stemmed_name
from app.services.search.memory_filters import MemoryFilters, allowed
from app.services.search.memory_filters import made as filters_made
from app.services.search.text import CYRILLIC, alone, fold, spellings_begun, stem, words
from app.services.search.understanding import half_typed, understood

RANKS = 100  # a page within the first RANKS places of a ranking is answered from memory (each place costs a few µs)
MAX_NAMES = 20_000  # a rank level whose names range is larger than this goes to the database
FIELDS = ("title", "original", "people", "description")  # query.py's WEIGHTS' order: weights 8, 4, 2, 1
SIMPLE = "original"  # the field matched folded, word for word (PostgreSQL's simple configuration)
OPERATORS = frozenset({"or"})  # what websearch_to_tsquery reads as an operator, not a word
KEPT_CARDS = 5000  # the cards of the latest contents suggested (about 2 kB each)
BUILD_STATEMENT_MS = 120_000  # the ordered read of every document, on its own connection (``_long_read``)
KEPT_MASKS = 512  # the masks of the latest tokens and prefixes asked (12.5 kB each at 100,000 titles, at most)
_PLAIN = re.compile(r"(?:(?:[a-zа-я]+|[0-9]+)(?: |$))*")  # words as ``words`` finds them, one space apart


@dataclass(frozen=True)
class _Field:
    tokens: list[str]  # sorted: a prefix is a range
    postings: dict[str, Posting]
    letters: dict[str, int]  # a first letter → the contents with a token starting so (the widest ranges: made once)


@dataclass(frozen=True)
class SuggestionIndex:
    database: str
    generation: int
    size: int
    ids: array  # position → content id, in the rank's last order
    fields: dict[str, _Field]
    names: list[str]  # every name of every content, sorted
    named: array  # names' positions → the content's position
    hidden: int  # the published contents outside their schedule when it was made
    valid_until: datetime | None  # the next publishing boundary: from then on the database answers
    filters: MemoryFilters  # the lists' filters as masks (app/services/search/memory_filters.py)
    masks: dict[tuple[str, str, bool], int] = dataclass_field(default_factory=dict)  # (field, token, prefix) → mask
    cards: dict[int, Any] = dataclass_field(default_factory=dict)  # content id → its card, read (``cards``)

    def mask(self, field: str, token: str, prefix: bool) -> int:
        """The contents whose ``field`` has ``token`` (``prefix``: a token starting with it), the latest KEPT_MASKS
        kept (a bit mask from positions is most of a suggestion's time)."""
        data = self.fields[field]
        if prefix and len(token) == 1:  # made with the index
            return data.letters.get(token, 0)
        key = (field, token, prefix)
        found = self.masks.pop(key, None)
        if found is None:
            if prefix:
                low, high = _prefixed(data.tokens, token)
                found = bits.union((data.postings[each] for each in data.tokens[low:high]), self.size)
            else:
                posting = data.postings.get(token)
                found = 0 if posting is None else bits.union((posting,), self.size)
        with _kept_lock:  # a worker's threads share it
            while len(self.masks) >= KEPT_MASKS:
                self.masks.pop(next(iter(self.masks)), None)
            self.masks[key] = found  # the newest last: the oldest goes first
        return found


def ranked(index: SuggestionIndex | None, asked: list[str], prefix: bool, request: ListRequest,
           within: Any) -> tuple[list[int], int] | None:
    """The ids of the page and the total of the words ``asked`` (``prefix``: the last word also as the start of a word)
    from memory, or None where the database must answer."""
    end = request.page * request.page_size
    if index is None or within is not None or end > RANKS or not asked:
        return None
    if index.valid_until is not None and clock.now() >= index.valid_until:
        return None
    meant = understood(asked)
    if meant.year is not None or meant.series is not None:  # a filter, or the words as typed if it finds nothing
        return None
    among = allowed(index.filters, request) if request.narrows else -1
    if among is None:
        return None
    answered = _ranked(index, asked, prefix, end, among)
    if answered is None:
        return None
    ids, total = answered
    return ids[end - request.page_size:], total


def cards(index: SuggestionIndex | None, ids: list[int]) -> list[Any]:
    """The cards of ``ids`` (those public now), in their order: as the database path reads them (app/services/
    catalogue/cards.py ``load_cards``), the latest KEPT_CARDS kept with the index, plain rows in no session (a
    card read under this generation is the same until the generation moves, or the index's ``valid_until``)."""
    kept = index.cards if index is not None else {}
    found = {i: card for i in ids if (card := kept.get(i)) is not None}
    missing = [i for i in ids if i not in found]
    if missing:
        for card in load_cards(missing, public()).values():  # plain rows, in no session
            found[card.id] = card
            if index is not None:
                with _kept_lock:
                    while len(kept) >= KEPT_CARDS:
                        kept.pop(next(iter(kept)), None)
                    kept[card.id] = card
    return [found[i] for i in ids if i in found]


def _prefixed(items: list[str], start: str) -> tuple[int, int]:
    """The range of ``items`` (sorted) that start with ``start``."""
    return bisect_left(items, start), bisect_left(items, start + "\U0010ffff")


def _first(mask: int, count: int) -> list[int]:
    """The lowest ``count`` bits' positions of ``mask``."""
    found: list[int] = []
    while mask and len(found) < count:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class _Unsure(Exception):
    """Something the database may read otherwise than this index: it answers."""


def _ranked(self: SuggestionIndex, asked: list[str], prefix: bool, places: int,
            among: int = -1) -> tuple[list[int], int] | None:
    """The first ``places`` of the ranking and the total among the contents ``among`` (a filter's mask), or None
    where the database must answer."""
    try:
        matched = [_field_mask(self, field, asked, prefix) for field in FIELDS]
    except _Unsure:
        return None
    anywhere = 0
    for mask in matched:
        anywhere |= mask
    anywhere &= ~self.hidden & among
    total = anywhere.bit_count()
    if not total:
        return [], 0
    levels = _levels(self, asked, prefix, anywhere)
    if levels is None:
        return None
    groups = [(0, anywhere)]  # the contents by the fields they matched in: the score, weights 8, 4, 2, 1 one bit each
    for bit, mask in zip((8, 4, 2, 1), matched, strict=True):
        split = []
        for score, group in groups:
            inside = group & mask
            outside = group ^ inside
            split += [(score | bit, inside)] if inside else []
            split += [(score, outside)] if outside else []
        groups = split
    groups.sort(key=lambda group: -group[0])
    page: list[int] = []
    for rank, level in enumerate([*levels, anywhere]):  # 4, 3, 2, 1, then what no name meets
        level &= anywhere
        if not level:
            continue
        anywhere ^= level
        for _, group in groups if rank >= 2 else [(0, level)]:  # the query or its stems: the rating alone
            page += _first(level & group, places - len(page))
            if len(page) == places:
                return [self.ids[position] for position in page], total
        if not anywhere:
            break
    return [self.ids[position] for position in page], total


def _field_mask(index: SuggestionIndex, field: str, asked: list[str], prefix: bool) -> int:
    """The contents whose ``field`` has every word (query.py ``_matches``: the typed words whole, the last one as the
    start of a token when ``prefix``, in the original title of its fold or its spelling; stop words dropped from the
    Russian fields, as PostgreSQL's query and SQLite's terms drop them)."""
    whole, started = (asked[:-1], asked[-1]) if prefix else (asked, None)
    if any(word in OPERATORS for word in whole):
        raise _Unsure
    spell = fold if field == SIMPLE else stem
    terms = [spell(word) for word in whole]
    if field == SIMPLE and not all(term.isalnum() for term in terms):
        raise _Unsure  # a word that folds to nothing
    kept = [term for term in terms if term]
    # The start of a fold or of a spelling (the original title: both kept) or of a stem; a stop word as a prefix («маяк
    # на»), or one that is nothing in Latin letters, dropped: as both databases drop it.
    begun = [] if started is None else spellings_begun(started) if field == SIMPLE else [stem(started)]
    begun = [start for start in begun if start]
    if not all(start.isalnum() for start in begun):
        raise _Unsure  # a prefix with what is not a letter: what each database makes of it differs
    if (not kept and not begun) or alone(kept, [] if started is None else [started]):
        return 0  # nothing to match, or a word being typed that nothing before it narrows here
    mask = -1
    for term in kept:
        mask &= index.mask(field, term, False)
        if not mask:
            return 0
    if begun:
        either = 0
        for start in begun:
            either |= index.mask(field, start, True)
        mask &= either
    return mask if mask != -1 else 0


def _levels(index: SuggestionIndex, searched: list[str], prefix: bool, among: int) -> list[int] | None:
    """The contents at each of ``_named``'s levels 4, 3, 2, 1 (a name is the query, its stems, starts with its words,
    starts with its letters), each as the first level it meets; None when a range is too large to read."""
    typed = list(dict.fromkeys((" ".join(searched), " ".join(
        word if CYRILLIC.search(word) else fold(word) for word in searched))))
    stemmed = stemmed_name(searched, prefix)

    def having(names: list[str], starting: bool) -> int | None:
        positions: list[int] = []
        for name in names:
            low, high = _prefixed(index.names, name) if starting else (
                bisect_left(index.names, name), bisect_right(index.names, name))
            if high - low > MAX_NAMES:
                return None
            positions.extend(index.named[low:high])
        return bits.mask(positions, index.size) & among if positions else 0

    found = [having(typed, False), having([stemmed], False),
             having([*(f"{phrase} " for phrase in typed), f"{stemmed} "], True), having(typed, True)]
    if any(level is None for level in found):
        return None
    return [level for level in found if level is not None]


_kept_lock = threading.Lock()  # the indexes' kept masks and cards (a worker's threads share an index)


def build(generation: int) -> SuggestionIndex:
    """Reads the search documents into a new index, labelled ``generation`` (read before this: what it reads is at
    least as new). Its own read (a background job's: app/suggestions.py); 100,000 documents in 7-8 s."""
    database = db.engine.url.render_as_string()
    prepare()
    at = clock.now()
    hidden_ids = set(db.session.scalars(off_schedule()))
    upcoming = _next_boundary(at)
    # In the rank's last order, as query.py orders them; read a thousand at a time (the descriptions are most of it).
    documents = select(
        SearchDocument.content_id, SearchDocument.title, SearchDocument.latin, SearchDocument.people,
        SearchDocument.description, SearchDocument.names,
    ).order_by(SearchDocument.rating.desc().nulls_last(), SearchDocument.content_id)
    with _long_read() as connection:
        return _made(database, generation, connection.execute(documents.execution_options(yield_per=1000)),
                     hidden_ids, upcoming, connection)


def prepare() -> None:
    """What a search from an index loads once per process, loaded with the index rather than by a request: the
    dictionary the rank asks of a last word being typed."""
    half_typed("а")


@contextmanager
def _long_read() -> Iterator[Any]:
    """Where the whole catalogue's documents are read in one ordered statement: at 1,000,000 titles that takes
    seconds, past the requests' statement deadline (DB_STATEMENT_TIMEOUT_MS), whose client-side wait would also open
    the database's breaker for every request (503s). On PostgreSQL a connection of its own, outside the requests'
    pool and breaker, with a background job's deadline (BUILD_STATEMENT_MS); elsewhere the session's."""
    if db.engine.dialect.name != "postgresql":
        yield db.session
        return
    engine = create_engine(db.engine.url, poolclass=NullPool, connect_args={
        "options": f"-c statement_timeout={BUILD_STATEMENT_MS}", "connect_timeout": 2})
    try:
        with engine.connect() as connection:
            yield connection
    finally:
        engine.dispose()


def _made(database: str, generation: int, rows: Any, hidden_ids: set[int],
          upcoming: datetime | None, connection: Any) -> SuggestionIndex:
    ids = array("q")
    tokens: dict[str, dict[str, array]] = {field: {} for field in FIELDS}
    names: list[tuple[str, int]] = []
    hidden: list[int] = []
    for position, row in enumerate(rows):
        ids.append(row.content_id)
        if row.content_id in hidden_ids:
            hidden.append(position)
        for field, text in (("title", row.title), ("original", row.latin), ("people", row.people),
                            ("description", row.description)):
            postings = tokens[field]
            for token in _tokens(field, text or ""):
                found = postings.get(token)
                if found is None:
                    found = postings[token] = array("i")
                found.append(position)
        names.extend((name, position) for name in dict.fromkeys((row.names or "").split("|")) if name)
    size = len(ids)
    names.sort()
    fields = {field: _field(postings, size) for field, postings in tokens.items()}
    filters = filters_made(connection, {content_id: position for position, content_id in enumerate(ids)})
    return SuggestionIndex(database, generation, size, ids, fields, [name for name, _ in names],
                           array("i", (position for _, position in names)),
                           bits.mask(hidden, size), upcoming, filters)


def _field(postings: dict[str, array], size: int) -> _Field:
    """A field's sorted tokens, each one's contents, and each first letter's: a new word's first letter («долгая д»)
    is a range of thousands of tokens, 15-23 ms to union at 100,000 titles, made here rather than by a request."""
    sorted_tokens = sorted(postings)
    kept = {token: bits.posting(positions, size) for token, positions in postings.items()}
    letters = {}
    for letter, group in groupby(sorted_tokens, key=itemgetter(0)):
        letters[letter] = bits.union((kept[token] for token in group), size)
    return _Field(sorted_tokens, kept, letters)


def _tokens(field: str, text: str) -> set[str]:
    """What the database holds of a field's text: PostgreSQL's ``to_tsvector`` (russian: the stems, stop words gone;
    simple: the words), SQLite's FTS5 row (app/services/search/index.py ``_stemmed``). The index stores its fields'
    words joined by spaces (``plain``): split as they are (``words`` would normalise them again, most of the making's
    time), unless a field is not so."""
    found = text.split() if _PLAIN.fullmatch(text) else words(text)
    if field == SIMPLE:
        return set(found)
    return {lexeme for word in set(found) if (lexeme := stem(word))}


def _next_boundary(at: datetime) -> datetime | None:
    """The next publishing or withdrawal time after ``at``: what this index hides changes then."""
    times = union_all(*(select(func.min(column).label("at")).where(column > at)
                        for column in (Content.publish_at, Content.unpublish_at))).subquery()
    return aware(db.session.scalar(select(func.min(times.c.at))))


def size_of(index: SuggestionIndex) -> int:
    """About how many bytes ``index`` holds (the report's figure)."""
    import sys

    total = sys.getsizeof(index.ids) + sys.getsizeof(index.named) + sys.getsizeof(index.names)
    total += sum(sys.getsizeof(name) for name in index.names) + sys.getsizeof(index.hidden)
    for field in index.fields.values():
        total += sys.getsizeof(field.tokens) + sys.getsizeof(field.postings)
        total += sum(sys.getsizeof(token) + sys.getsizeof(posting) for token, posting in field.postings.items())
    filters = index.filters
    every: list[dict[Any, Posting]] = [*filters.labels.values(), filters.years, filters.ages, filters.types,
                                       filters.ratings]
    total += sum(sys.getsizeof(posting) for values in every for posting in values.values())
    return total + sys.getsizeof(filters.series) + sys.getsizeof(filters.films)
