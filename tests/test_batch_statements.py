"""A batch command (``flask demo catalogue``, ``flask sitemap generate``, ``flask search reindex``) runs without the
requests' statement deadline (app/database.py ``batch_statements``); requests keep theirs. On this machine's
PostgreSQL (SQLite has no statement deadline). A block of it (``unhurried``: a test's set-up, a migration) gives the
deadline back after it."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app import create_app
from app.database import BATCH, batch_statements, unhurried
from app.extensions import db
from tests.test_database_outages import postgres_server


@pytest.fixture
def postgres_app():
    url = postgres_server()
    app = create_app({"TESTING": True, "DATABASE_URL": url.render_as_string(hide_password=False),
                      "DB_STATEMENT_TIMEOUT_MS": 300})
    yield app
    with app.app_context():
        db.engine.dispose()


def test_a_request_statement_has_its_deadline_and_a_batch_has_none(postgres_app):
    with postgres_app.app_context():
        with pytest.raises(sa.exc.OperationalError, match="statement timeout"):
            db.session.execute(sa.text("SELECT pg_sleep(0.6)"))
        db.session.rollback()
        batch_statements(postgres_app, db.engine)
        db.session.remove()
        db.session.execute(sa.text("SELECT pg_sleep(0.6)"))  # neither the server's timeout nor the client's wait
        assert db.session.execute(sa.text("SHOW statement_timeout")).scalar() == "0"


def test_an_unhurried_block_has_no_deadline_and_the_statements_after_it_have_theirs_again(postgres_app):
    with postgres_app.app_context():
        with unhurried(postgres_app, db.engine):
            db.session.execute(sa.text("SELECT pg_sleep(0.6)"))
            db.session.remove()
        assert BATCH not in postgres_app.config
        with pytest.raises(sa.exc.OperationalError, match="statement timeout"):  # a connection of the block's is gone
            db.session.execute(sa.text("SELECT pg_sleep(0.6)"))
        db.session.remove()


def test_an_unhurried_block_within_a_batch_leaves_the_batch_as_it_was(postgres_app):
    with postgres_app.app_context():
        batch_statements(postgres_app, db.engine)
        with unhurried(postgres_app, db.engine):
            pass
        db.session.execute(sa.text("SELECT pg_sleep(0.6)"))
        assert postgres_app.config[BATCH] is True
