"""Operations: whether the process is up (/healthz: for the orchestrator's liveness probe, no dependency touched) and
whether it can serve (/readyz: the database answers, and Redis when it is configured). Never cached."""

from __future__ import annotations

from typing import Any

from flask import current_app
from sqlalchemy import text

from app.api.arguments import Blueprint
from app.api.docs import NO_STORE, answers
from app.extensions import db
from app.schemas.ops import HealthSchema, ReadinessSchema

blp = Blueprint("ops", __name__, description="Liveness and readiness probes")



@blp.route("/healthz")
@blp.response(200, HealthSchema)
def healthz() -> Any:
    """The process is up and answers (no database, no Redis)."""
    return {"status": "ok"}, NO_STORE


@blp.route("/readyz")
@blp.response(200, ReadinessSchema)
@blp.alt_response(503, schema=ReadinessSchema, description="Not ready: what is missing")
@answers(blp)
def readyz() -> Any:
    """The database answers (and Redis, when configured): 503 with what is missing otherwise."""
    checks = {"database": _database(), "redis": _redis()}
    ready = all(value in ("ok", "not configured") for value in checks.values())
    if not ready:
        retry = {"Retry-After": str(current_app.config["DB_RETRY_AFTER"])}
        return {"status": "unavailable", **checks}, 503, {**NO_STORE, **retry}
    return {"status": "ok", **checks}, NO_STORE


def _database() -> str:
    try:
        db.session.execute(text("SELECT 1"))
        return "ok"
    except Exception as error:  # any failure is "not ready", said, never a 500
        db.session.rollback()
        return f"unavailable: {type(error).__name__}"


def _redis() -> str:
    url = current_app.config["REDIS_URL"]
    if not url:
        return "not configured"
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5).ping()
        return "ok"
    except redis.RedisError as error:
        return f"unavailable: {type(error).__name__}"
