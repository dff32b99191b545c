"""A content's collections read in one statement (app/services/catalogue/loaded.py) make the very snapshot that its
relationships, loaded one by one, make: the same dumps, key for key and in the same order, for every content of the
demo and of a synthetic catalogue (labels, categories with their parents, people of several kinds, alternative titles
of every kind, seasons, rules)."""

from __future__ import annotations

import json
from dataclasses import asdict

from sqlalchemy import select

from app.extensions import db
from app.models import AlternativeTitle, Content
from app.models.titles import TitleKind
from app.services.catalogue.contents import load_content, load_episodes
from app.services.catalogue.loaded import load_whole
from app.snapshots import snapshot_of
from tests.api.queries import statements


def test_the_snapshot_from_one_statement_is_the_relationships_one(app, demo_catalogue):
    assert app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "60", "--seed", "5"]).exit_code == 0
    with app.app_context():
        kinds = list(TitleKind)
        for position, kind in enumerate(kinds):  # every kind, a misspelling (never shown) among them, out of order
            db.session.add(AlternativeTitle(content_id=6, title=f"Другое имя {position}", kind=kind,
                                            language="ru" if position % 2 else None, position=len(kinds) - position))
        db.session.commit()
        ids = list(db.session.scalars(select(Content.id).order_by(Content.id)))
    assert len(ids) > 60
    for content_id in ids:
        with app.app_context():
            whole = load_whole(content_id)
            assert whole is not None
            fast = asdict(snapshot_of(whole, load_episodes(content_id)))
        with app.app_context():
            slow = asdict(snapshot_of(load_content(content_id), load_episodes(content_id)))
        assert json.dumps(fast, ensure_ascii=False, default=str) == json.dumps(slow, ensure_ascii=False, default=str), \
            content_id
    with app.app_context():
        shown = snapshot_of(load_whole(6), load_episodes(6)).details["alternativeTitles"]
        assert [title["kind"] for title in shown] == [kind.value for kind in reversed(kinds)
                                                      if kind != TitleKind.MISSPELLING]


def test_a_content_is_read_in_three_statements_whatever_it_holds(app, client, demo_catalogue):
    with statements(app) as series:
        assert client.get("/contents/2").status_code == 200  # a series: seasons, episodes, people, labels
    assert len(series) == 3
    with app.app_context():
        assert load_whole(999_999) is None and load_whole(2**40) is None
