"""Suggestions from memory (app/services/search/suggest.py): the same ids, order, total and ``corrected`` as the
database's path, for the golden queries (tests/api/test_search_api.py) and the evaluation set's
(tests/data/search_eval/queries.jsonl, its titles among the golden catalogue's), each also half-typed, at page sizes 5
and 10; the database answering where the index must not (filters, page 2, a typo, a year, a catalogue changed since
the index was made). `make test` runs it on SQLite, CI on PostgreSQL."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from sqlalchemy import select

from app import suggestions
from app.caching import invalidate_catalogue, store
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
    with app.app_context():
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
    """The query as a viewer types it: its last word less one, two and three letters (from three letters on)."""
    head, _, last = query.rpartition(" ")
    return [f"{head} {last[:cut]}".strip() for cut in range(len(last) - 1, len(last) - 4, -1) if cut >= 3]


def answer(result):
    return [item.id for item in result.page.items], result.page.total, result.corrected


def test_the_same_answers_from_memory_as_from_the_database(indexed):
    queries = [*QUERIES, *(q["query"] for q in read_jsonl(EVALUATION / "queries.jsonl"))]
    asked = list(dict.fromkeys([*queries, *(part for query in queries for part in half_typed(query))]))
    from_memory = differ = 0
    with indexed.test_request_context():
        index = made(indexed)
        for query in asked:
            for size in (5, 10):
                request = list_request({"page": 1, "page_size": size}, country=None)
                typed = words(query)[:8]
                from_memory += suggest.ranked(index, typed, _begun(typed), request, None) is not None
                fast = answer(search(query, request, index.generation, index=index))
                slow = answer(search(query, request, index.generation))
                if fast != slow:
                    differ += 1
                    print(query, size, fast, slow)
    assert differ == 0
    assert len(asked) > 1000 and from_memory > len(asked)  # most of them answered from memory, at both sizes


def test_the_database_answers_where_memory_must_not(indexed):
    with indexed.test_request_context():
        index = made(indexed)
        generation = index.generation
        first = list_request({"page": 1, "page_size": 5}, country=None)

        def fast(query, request=first, at=generation):
            typed = words(query)[:8]
            return suggest.ranked(suggestions.current(at), typed, _begun(typed), request, None)

        assert fast("тихая гав") is not None and fast("капит") is not None
        assert fast("тихая гав", list_request({"page": 2, "page_size": 5}, country=None)) is None
        assert fast("тихая гав", list_request({"page": 1, "page_size": 20}, country=None)) is None
        assert fast("маяк", list_request({"page": 1, "page_size": 5, "genres": ["drama"]}, country=None)) is None
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
