"""Search from memory (app/services/search/suggest.py): the same ids, order, total and ``corrected`` as the database's
path, for the golden queries (tests/api/test_search_api.py) and the evaluation set's (tests/data/search_eval/
queries.jsonl, its titles among the golden catalogue's), each also half-typed, at page sizes 5 and 20 and on page 3 of
20, and with the lists' filters; the database answering where the index must not (availableHere, a page past its
first RANKS places, a typo, a year, a catalogue changed since the index was made). `make test` runs it on SQLite, CI
on PostgreSQL."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import event, select

from app import suggestions
from app.caching import invalidate_catalogue, store
from app.database import unhurried
from app.extensions import db
from app.models import AlternativeTitle, Content, ContentType, TitleKind
from app.services.catalogue.filters import list_request
from app.services.search import suggest
from app.services.search.index import reindex
from app.services.search.query import _begun, search
from app.services.search.text import words
from tests.api.test_search_api import QUERIES, golden_catalogue  # noqa: F401 - the fixture

EVALUATION = Path(__file__).parents[1] / "data" / "search_eval"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture
def indexed(app, golden_catalogue):  # noqa: F811 - the imported fixture
    """The golden catalogue with the evaluation set's titles, and the index of its generation made."""
    rng = random.Random(34)
    with app.app_context(), unhurried(app, db.engine):  # 2,500 documents written: the set-up's, not a request's
        types = {t.slug: t.id for t in db.session.scalars(select(ContentType))}
        db.session.add_all([
            Content(title=t["title"], original_title=t.get("original"), year=t.get("year"),
                    content_type_id=types[t["type"]], has_multiple_episodes=t["type"] == "series", published=True,
                    kinopoisk_rating=round(rng.uniform(6.0, 8.5), 1),
                    alternative_titles=[AlternativeTitle(title=name, kind=TitleKind.INTERNATIONAL, position=place)
                                        for place, name in enumerate(t.get("also", ()))])
            for t in read_jsonl(EVALUATION / "titles.jsonl")])
        db.session.commit()
        reindex()
        db.session.commit()
        invalidate_catalogue()
    suggestions.forget()
    app.config["SUGGESTION_INDEX"] = True
    yield app
    suggestions.forget()


def made(app) -> suggest.SuggestionIndex:
    """Makes the index of the generation a request sees now (as the background job does)."""
    index = suggest.build(store().generation())
    suggestions.keep(index)
    return index


def half_typed(query: str) -> list[str]:
    """The query as a viewer types it: its last word less one, two and three letters (from three letters on), and
    after other words its first letter and its first two too."""
    head, _, last = query.rpartition(" ")
    cuts = {cut for cut in range(len(last) - 1, len(last) - 4, -1) if cut >= 3} | ({1, 2} if head else set())
    return [f"{head} {last[:cut]}".strip() for cut in sorted(cuts) if cut < len(last)]


def answer(result):
    return [item.id for item in result.page.items], result.page.total, result.corrected


def test_the_same_answers_from_memory_as_from_the_database(indexed):
    queries = [*QUERIES, *(q["query"] for q in read_jsonl(EVALUATION / "queries.jsonl"))]
    asked = list(dict.fromkeys([*queries, *(part for query in queries for part in half_typed(query))]))
    from_memory = differ = 0
    with indexed.test_request_context():
        index = made(indexed)
        for query in asked:
            for page, size in ((1, 5), (1, 20), (3, 20)):
                request = list_request({"page": page, "page_size": size}, country=None)
                typed = words(query)[:8]
                from_memory += suggest.ranked(index, typed, _begun(typed), request, None) is not None
                fast = answer(search(query, request, index.generation, index=index))
                slow = answer(search(query, request, index.generation))
                if fast != slow:
                    differ += 1
                    print(query, page, size, fast, slow)
    assert differ == 0
    assert len(asked) > 1000 and from_memory > 2 * len(asked)  # most of them answered from memory, at every size


# The lists' filters (snake_case, as list_request takes them): label filters of either match, known and unknown slugs,
# bounds, the type, the kind; combined
FILTERS = [
    {"genres": ["drama", "thriller"]}, {"genres": ["drama", "comedy"], "genres_match": "all"},
    {"genres": ["drama", "no-such-genre"], "genres_match": "all"}, {"genres": ["no-such-genre", "comedy"]},
    {"countries": ["fr", "ru"], "rating_from": 7}, {"year_from": 1990, "year_to": 2010}, {"year_to": 1975},
    {"tags": ["based-on-book", "true-story"], "age_rating_max": 12}, {"type": "series", "has_multiple_episodes": True},
    {"type": "film"}, {"type": "no-such-type"},
    {"has_multiple_episodes": False, "year_from": 2000, "genres": ["drama"]},
    {"rating_from": 8.5}, {"age_rating_max": 0}, {"voice_authors": ["no-such-studio"]},
    {"rating_from": Decimal("8.2")}, {"rating_from": Decimal("6.7"), "genres": ["comedy"]},  # as the schema loads it
]
COMMON = ("маяк", "море", "дом", "ночь", "дорога", "капит", "тихая гав", "зим", "герой")


def test_the_same_filtered_answers_from_memory_as_from_the_database(indexed):
    queries = [*COMMON, *QUERIES[::4]]
    from_memory = differ = found = 0
    with indexed.test_request_context():
        index = made(indexed)
        for query in queries:
            for filters in FILTERS:
                for page in (1, 2):
                    request = list_request({"page": page, "page_size": 20, **filters}, country=None)
                    typed = words(query)[:8]
                    from_memory += suggest.ranked(index, typed, _begun(typed), request, None) is not None
                    fast = answer(search(query, request, index.generation, index=index))
                    slow = answer(search(query, request, index.generation))
                    found += bool(slow[1])
                    if fast != slow:
                        differ += 1
                        print(query, filters, page, fast, slow)
    asked = len(queries) * len(FILTERS) * 2
    assert differ == 0
    assert from_memory > asked * 0.8 and found > asked * 0.4  # most from memory; most find something


def test_the_database_answers_where_memory_must_not(indexed):
    with indexed.test_request_context():
        index = made(indexed)
        generation = index.generation
        first = list_request({"page": 1, "page_size": 5}, country=None)

        def fast(query, request=first, at=generation):
            typed = words(query)[:8]
            return suggest.ranked(suggestions.current(at), typed, _begun(typed), request, None)

        assert fast("тихая гав") is not None and fast("капит") is not None
        assert fast("тихая г") is not None  # a new word's first letter
        assert fast("маяк на") is not None  # a stop word being typed: dropped from the Russian fields, as there
        assert fast("тихая гав", list_request({"page": 5, "page_size": 20}, country=None)) is not None
        assert fast("тихая гав", list_request({"page": 6, "page_size": 20}, country=None)) is None  # past RANKS
        assert fast("тихая гав", list_request({"page": 1, "page_size": 101}, country=None)) is None
        assert fast("маяк", list_request({"page": 1, "page_size": 5, "available_here": True}, country="ru")) is None
        assert fast("солярис 2002") is None and fast("бригада сериал") is None  # a year, a kind: filters
        assert fast("тихая гав", at=generation + 1) is None  # another generation: not made yet
        assert fast("тихоя гавань") == ([], 0)  # a typo: nothing as typed, and the database reads on
        assert answer(search("тихоя гавань", first, generation, index=index)) == answer(
            search("тихоя гавань", first, generation))
        assert answer(search("тихоя гавань", first, generation, index=index))[2] == "тихая гавань"


def test_a_title_added_or_unpublished_is_seen_at_once(indexed, client):
    with indexed.test_request_context():
        made(indexed)

    def suggested(query):
        response = client.post("/v2/contents/search", json={"query": query, "pageSize": 5})  # never kept
        assert response.status_code == 200
        return [item["title"] for item in response.get_json()["items"]]

    assert suggested("тихая гав")[0] == "Тихая гавань"
    assert suggested("зеленоглаз") == []
    with indexed.app_context():
        added = Content(title="Зеленоглазое такси", content_type_id=db.session.scalar(select(ContentType.id)),
                        published=True, kinopoisk_rating=9.9)
        db.session.add(added)
        db.session.commit()
        reindex([added.id])
        harbour = db.session.scalar(select(Content).where(Content.title == "Тихая гавань"))
        harbour.published = False
        db.session.commit()
        reindex([harbour.id])
        db.session.commit()
        invalidate_catalogue()
    assert suggested("зеленоглаз") == ["Зеленоглазое такси"]  # the database, until the new index is made
    assert "Тихая гавань" not in suggested("тихая гав")
    with indexed.test_request_context():
        made(indexed)
    assert suggested("зеленоглаз") == ["Зеленоглазое такси"]  # and the new index alike
    assert "Тихая гавань" not in suggested("тихая гав")


def test_a_suggestion_with_a_typo_asks_the_database_nothing_once_the_index_is_made(indexed, client):
    """The background making loads the word list too (which words are known, and what a typo is of): a suggestion
    whose finished word is misspelt («тиахя гав», «qutet harb») is then answered from memory alone, as one typed
    right is (it asked the database which of its words are known); no search reads the word list itself."""
    from app.http.background import drain_jobs

    with indexed.test_request_context():
        assert suggestions.current(store().generation()) is None
        drain_jobs()

    def suggested(query):
        response = client.post("/v2/contents/search", json={"query": query, "pageSize": 5})  # never kept
        assert response.status_code == 200
        return [item["title"] for item in response.get_json()["items"]][:1]

    statements: list[str] = []
    with indexed.app_context():
        engine = db.engine

    def seen(_connection, _cursor, statement, *_rest):
        statements.append(statement)

    queries = {"тихая гав": ["Тихая гавань"], "тиахя гав": ["Тихая гавань"], "qutet harb": ["Тихая гавань"]}
    event.listen(engine, "before_cursor_execute", seen)
    try:
        assert {query: suggested(query) for query in queries} == queries
        first = len(statements)  # the cards, read once and kept by the index
        assert {query: suggested(query) for query in queries} == queries
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert not any("search_words" in statement for statement in statements)
    assert statements[first:] == []


def test_a_burst_of_changes_makes_the_index_once_per_interval(indexed):
    from app.http.background import drain_jobs

    indexed.config["SUGGESTION_REBUILD_SECONDS"] = 3600
    with indexed.test_request_context():
        first = store().generation()
        assert suggestions.current(first) is None  # its making starts in the background
        drain_jobs()
        assert suggestions.current(first).generation == first
        invalidate_catalogue()  # an editor's save
        drain_jobs()
        later = store().generation()
        assert later != first
        assert suggestions.current(later) is None and not suggestions._making  # within the interval: none started
        drain_jobs()
        assert suggestions.current(later) is None  # the database answers meanwhile
        indexed.config["SUGGESTION_REBUILD_SECONDS"] = 0
        assert suggestions.current(later) is None
        drain_jobs()
        assert suggestions.current(later).generation == later
