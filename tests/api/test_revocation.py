"""Revocation takes effect on every worker at once: two applications over one database (and, with Redis, one Redis)
stand for two workers; what one revokes, the other refuses on its next request. With Redis gone, the database
answers instead, within a second."""

from __future__ import annotations

import os
import socket
import time

import pytest
from flask import Flask

from app import create_app
from app.extensions import db
from app.models import Role
from app.services.accounts.revocations import RedisRevocations
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.test_catalogue_api import assert_error


def redis_url() -> str | None:
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        return os.environ.get("REDIS_URL")  # CI's, if it named one; else none here
    return url


@pytest.fixture(params=["database", "redis"])
def workers(request, migrated_database, assets_built, tmp_path, smtp_server):
    """Two applications as two workers, sharing the database and, for "redis", a Redis."""
    config = {"TESTING": True, "DATABASE_URL": migrated_database, "MEDIA_ROOT": str(tmp_path)}
    if request.param == "redis":
        url = redis_url()
        if url is None:
            pytest.skip("no Redis on this machine (CI runs one)")
        config["REDIS_URL"] = url
    else:
        config["REDIS_URL"] = ""
    apps = [create_app(config), create_app(config)]
    kind = RedisRevocations if request.param == "redis" else object
    assert all(isinstance(app.extensions["revocations"], kind) for app in apps)
    yield apps
    from tests.conftest import empty_tables

    with apps[0].app_context():
        empty_tables()
    for app in apps:
        with app.app_context():
            db.engine.dispose()


def test_a_block_on_one_worker_is_refused_by_the_other_at_once(workers: list[Flask]):
    one, two = workers
    make_account(one, "root@example.com", Role.ADMIN)
    victim_id = make_account(one, "anna@example.com")
    admin = bearer(sign_in(one.test_client(), "root@example.com"))
    victim = bearer(sign_in(two.test_client(), "anna@example.com"))
    assert two.test_client().get("/user/details", headers=victim).status_code == 200
    assert one.test_client().post(f"/administration/block-user/{victim_id}", headers=admin).status_code == 200
    started = time.monotonic()
    assert_error(two.test_client().get("/user/details", headers=victim), 401, "token_revoked")
    assert time.monotonic() - started < 1.0


def test_with_redis_gone_the_database_answers_within_a_second(migrated_database, assets_built, tmp_path,
                                                              smtp_server):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app({"TESTING": True, "DATABASE_URL": migrated_database, "MEDIA_ROOT": str(tmp_path),
                      "REDIS_URL": f"redis://127.0.0.1:{port}/0"})
    try:
        make_account(app, "root@example.com", Role.ADMIN)
        victim_id = make_account(app, "anna@example.com")
        admin = bearer(sign_in(app.test_client(), "root@example.com"))
        victim = bearer(sign_in(app.test_client(), "anna@example.com"))
        assert app.test_client().post(f"/administration/block-user/{victim_id}", headers=admin).status_code == 200
        started = time.monotonic()
        assert_error(app.test_client().get("/user/details", headers=victim), 401, "token_revoked")
        assert time.monotonic() - started < 1.0
    finally:
        from tests.conftest import empty_tables

        with app.app_context():
            empty_tables()
            db.engine.dispose()
