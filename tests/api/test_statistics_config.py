"""The statistics function's name (spec §7): configured on the server, checked at start, handed to the player."""

from __future__ import annotations

import pytest

from app import create_app
from app.config import Settings
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from tests.api.test_player_page import page_context
from tests.conftest import empty_tables, reconfigure


def test_the_player_gets_the_configured_statistics_function(app, client, demo_catalogue):
    assert page_context(client.get("/?movie_id=1"))["config"]["statisticsFunction"] == "sendStatistics"  # the default
    for name in ("publisherStats", ""):  # "": no analytics at all
        reconfigure(app, STATISTICS_FUNCTION=name)
        assert page_context(client.get("/?movie_id=1"))["config"]["statisticsFunction"] == name


@pytest.mark.parametrize("name", ["sendStatistics", "_stats", "$track", "ga4_send2", ""])
def test_a_plain_identifier_or_nothing_set_in_the_environment_reaches_the_player(
    name, monkeypatch, migrated_database, assets_built
):
    monkeypatch.setenv("STATISTICS_FUNCTION", name)
    app = create_app({"TESTING": True, "DATABASE_URL": migrated_database})  # checked at start: accepted
    with app.app_context(), unhurried(app, db.engine):
        seed_demo()
    try:
        assert page_context(app.test_client().get("/?movie_id=1"))["config"]["statisticsFunction"] == name
    finally:
        with app.app_context():
            empty_tables()
            db.engine.dispose()


@pytest.mark.parametrize("name", ["alert(1)", "a.b", "1stats", "stats fn", "window['x']", "ß"])
def test_anything_but_an_identifier_is_refused_at_start(name):
    with pytest.raises(ValueError, match="STATISTICS_FUNCTION"):
        Settings(STATISTICS_FUNCTION=name).check()
