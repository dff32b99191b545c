"""Migrations have one head, and the models and the migrated schema agree (Redash keeps the first check)."""

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import Config

from app.config import PROJECT_ROOT
from app.database import unhurried
from app.extensions import db
from app.models.unmodelled import include_object


def test_migrations_have_a_single_head():
    config = Config(str(PROJECT_ROOT / "migrations" / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    heads = ScriptDirectory.from_config(config).get_heads()
    assert len(heads) == 1, f"more than one migration head: {heads}; merge them (flask db merge)"


def test_models_and_migrations_agree(app):
    # Alembic's reflection of the schema is a migration's work, not a request's: without the requests' deadline (a
    # loaded CI run passed it in the catalogue's reflection)
    with app.app_context(), unhurried(app, db.engine), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True, "compare_server_default": False,
                                                               "include_object": include_object})
        diff = compare_metadata(context, db.metadata)
    assert diff == [], f"models and migrations disagree; write a migration (flask db migrate): {diff}"


def test_tracking_hits_keep_their_playhead_when_the_query_goes(make_database):
    """3f1c2b7d9a10 drops the 4 kB query of each hit and keeps the one thing read from it."""
    import sqlalchemy as sa
    from flask_migrate import downgrade, upgrade

    from app import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": make_database("migration")})
    with app.app_context():
        upgrade(revision="673585b63cfb")
        with db.engine.begin() as connection:
            connection.execute(sa.text(
                "INSERT INTO ad_tracking_hits (creative_id, event, error_code, source, query, created_at) VALUES "
                "(1, 'midpoint', '', 'inline', 'creative=1&event=midpoint&cb=1&playhead=00:00:07.510', "
                "CURRENT_TIMESTAMP), (1, 'start', '', 'inline', 'creative=1&playhead=[ADPLAYHEAD]', CURRENT_TIMESTAMP)"
            ))
        upgrade()
        with db.engine.connect() as connection:
            rows = connection.execute(sa.text("SELECT event, playhead FROM ad_tracking_hits ORDER BY id")).all()
            columns = {c["name"] for c in sa.inspect(connection).get_columns("ad_tracking_hits")}
        assert [tuple(row) for row in rows] == [("midpoint", "00:00:07.510"), ("start", "")]
        assert "query" not in columns
        downgrade(revision="673585b63cfb")  # and back, without losing the playheads
        with db.engine.connect() as connection:
            queries = connection.execute(sa.text("SELECT query FROM ad_tracking_hits ORDER BY id")).scalars().all()
        assert queries == ["playhead=00:00:07.510", ""]
        db.engine.dispose()


def test_the_reach_of_every_content_is_written_by_its_migrations(make_database):
    """a4c2e8f61d3b derives contents.reach from the episodes and rules there already are, b7d3f1a9c6e2 tells allow
    lists from block lists after storing the rules' values trimmed and in lower case (app/services/catalogue/reach.py):
    the demo's, with one title's master paths cleared and rules written as a hand might have before they run."""
    import sqlalchemy as sa
    from flask_migrate import downgrade, upgrade

    from app import create_app
    from app.demo.seed import seed_demo

    app = create_app({"TESTING": True, "DATABASE_URL": make_database("reach")})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
        downgrade(revision="d3a7c5e9b1f2")
        with db.engine.begin() as connection:
            connection.execute(sa.text("UPDATE episodes SET master_file_path = NULL WHERE content_id = 1"))
            connection.execute(sa.text(
                "INSERT INTO availability_rules (content_id, kind, value) VALUES (3, 'block_country', ' RU'), "
                "(3, 'block_country', 'De '), (2, 'allow_country', 'RU'), (2, 'allow_country', 'ru ')"))
        upgrade(revision="a4c2e8f61d3b")
        with db.engine.connect() as connection:
            reach = dict(connection.execute(sa.text("SELECT id, reach FROM contents")).all())
        assert reach == {1: "nowhere", 2: "by_country", 3: "by_country", 4: "everywhere", 5: "nowhere"}
        upgrade()
        with db.engine.connect() as connection:
            reach = dict(connection.execute(sa.text("SELECT id, reach FROM contents")).all())
            rules = connection.execute(sa.text("SELECT content_id, kind, value FROM availability_rules "
                                               "WHERE kind != 'allow_domain' ORDER BY content_id, value")).all()
        assert reach == {1: "nowhere", 2: "only_countries", 3: "except_countries", 4: "everywhere", 5: "nowhere"}
        assert [tuple(rule) for rule in rules] == [(2, "allow_country", "ru"), (3, "block_country", "de"),
                                                   (3, "block_country", "ru")]
        downgrade(revision="a4c2e8f61d3b")
        with db.engine.connect() as connection:
            assert connection.execute(sa.text("SELECT reach FROM contents WHERE id = 3")).scalar() == "by_country"
        db.engine.dispose()


def test_a_migration_runs_without_the_requests_deadlines_and_gives_them_back(make_database):
    """A migration is a batch (migrations/env.py): on a real catalogue its statements outlast a request's deadline
    (5e1c0a7d2b34's UPDATE of 100,000 documents was cancelled at 1.5 s). Here the deadline is 1 ms, which every
    statement of the chain would pass on PostgreSQL were it applied; once upgraded, the application has it again."""
    import sqlalchemy as sa
    from flask_migrate import upgrade

    from app import create_app
    from app.database import BATCH

    url = make_database("deadline")
    app = create_app({"TESTING": True, "DATABASE_URL": url, "DB_STATEMENT_TIMEOUT_MS": 1})
    with app.app_context():
        upgrade()
        assert BATCH not in app.config
        if db.engine.dialect.name == "postgresql":
            try:  # the deadline is back: SHOW says so, or (a loaded machine) the deadline cancels even SHOW: the
                # server's statement timeout, or the client's own wait (app/database.py: 0.25 s past it), which cancels
                with db.engine.connect() as connection:
                    assert connection.execute(sa.text("SHOW statement_timeout")).scalar() == "1ms"
            except sa.exc.OperationalError as error:
                assert "statement timeout" in str(error.orig) or "canceling statement due to user request" in str(
                    error.orig)
        plain = sa.create_engine(db.engine.url)  # without the application's deadlines
        with plain.connect() as connection:
            assert connection.execute(sa.text("SELECT count(*) FROM alembic_version")).scalar() == 1
        plain.dispose()
