"""Migrations have one head, and the models and the migrated schema agree (Redash keeps the first check)."""

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import Config

from app.config import PROJECT_ROOT
from app.extensions import db


def test_migrations_have_a_single_head():
    config = Config(str(PROJECT_ROOT / "migrations" / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_ROOT / "migrations"))
    heads = ScriptDirectory.from_config(config).get_heads()
    assert len(heads) == 1, f"more than one migration head: {heads}; merge them (flask db merge)"


def test_models_and_migrations_agree(app):
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True, "compare_server_default": False})
        diff = compare_metadata(context, db.metadata)
    assert diff == [], f"models and migrations disagree; write a migration (flask db migrate): {diff}"
