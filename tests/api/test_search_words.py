"""The word list that typo correction draws on (app/services/search/index.py): a reindex of a few contents (an admin's
save) moves their words' counts instead of rewriting the list, and ends where a full rewrite would."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import event, select

from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import Content, SearchWord
from app.services.search.index import reindex
from app.transaction import transaction


def word_list() -> dict[str, tuple[str, str, int]]:
    return {row.word: (row.stem, row.latin, row.contents) for row in db.session.scalars(select(SearchWord))}


def test_a_few_contents_reindexed_count_their_words_as_a_full_rewrite_would(app: Flask, demo_catalogue: Flask):
    with app.app_context():
        first, second = db.session.get(Content, 1), db.session.get(Content, 2)
        first.title = "Зюйдвест над гаванью"  # a new word; «гавань» now on two titles; «долгая» gone from this one
        second.published = False  # its words leave the list, or their count drops
        db.session.commit()
        statements: list[str] = []

        def seen(_conn, _cursor, statement, *_args):  # type: ignore[no-untyped-def]
            statements.append(statement)

        event.listen(db.engine, "before_cursor_execute", seen)
        reindex([1, 2])
        event.remove(db.engine, "before_cursor_execute", seen)
        moved = word_list()
        assert not any(statement.startswith("DELETE FROM search_words\n") or statement == "DELETE FROM search_words"
                       for statement in statements)  # no rewrite of the whole list
        reindex()
        assert moved == word_list()
        assert moved["зюйдвест"][2] == 1
        assert "тихая" not in moved  # only the unpublished series had it


def test_a_new_word_is_corrected_to_after_the_save(app: Flask, demo_catalogue: Flask, client):
    with app.app_context():
        with transaction():
            db.session.get(Content, 1).title = "Зюйдвест"
            reindex([1])
        invalidate_catalogue()
    answer = client.post("/v2/contents/search", json={"query": "зюйдвесд"}).get_json()
    assert answer["corrected"] == "зюйдвест" and [item["id"] for item in answer["items"]] == [1]
