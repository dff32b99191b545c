"""Alternative titles are searched as the original title is (issue 34; app/services/search/index.py): a content is
found by its international or former title, and by a misspelling listed as one of its names (found as typed, not
corrected); their words join the word list typo correction draws on, so a slip in an alternative title is corrected
to it. Both databases (CI runs this file on PostgreSQL)."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import AlternativeTitle, Content, SearchWord
from app.services.search.index import reindex
from app.transaction import transaction


def find(client: FlaskClient, query: str) -> dict:
    response = client.post("/v2/contents/search", json={"query": query})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def titles(answer: dict) -> list[str]:
    return [item["title"] for item in answer["items"]]


def test_the_demo_titles_are_found_by_their_other_names(client: FlaskClient, demo_catalogue: Flask):
    assert titles(find(client, "Silent Harbor")) == ["Тихая гавань"]  # international
    assert titles(find(client, "the long road home")) == ["Долгая дорога домой"]
    assert titles(find(client, "северная трасса")) == ["Долгая дорога домой"]  # a former title
    assert titles(find(client, "Huis clos")) == ["Закрытый показ"]  # the original, in French
    misspelt = find(client, "закрытый паказ")  # listed as a misspelling: found as typed
    assert (titles(misspelt), misspelt["corrected"]) == (["Закрытый показ"], None)


def test_an_added_name_is_searched_and_corrected_to_after_a_reindex(app: Flask, client: FlaskClient,
                                                                    demo_catalogue: Flask):
    assert find(client, "parasite")["items"] == []
    with app.app_context():
        with transaction():
            content = db.session.get(Content, 4)
            content.alternative_titles = [AlternativeTitle(title="Parasite", language="en", kind="international"),
                                          AlternativeTitle(title="Gisaengchung", language="ko", kind="original")]
            db.session.flush()
            reindex([4])
        invalidate_catalogue()
        assert db.session.scalar(select(SearchWord.contents).where(SearchWord.word == "gisaengchung")) == 1
    assert titles(find(client, "Parasite")) == ["Потерянная плёнка"]
    slip = find(client, "gisaengchumg")  # one key beside: corrected to the alternative title's word
    assert (titles(slip), slip["corrected"]) == (["Потерянная плёнка"], "gisaengchung")
    with app.app_context():
        with transaction():
            db.session.get(Content, 4).alternative_titles = []
            db.session.flush()
            reindex([4])
        invalidate_catalogue()
        assert db.session.scalar(select(SearchWord.contents).where(SearchWord.word == "gisaengchung")) is None
    assert find(client, "parasite")["items"] == []
