"""The application factory: nothing happens at import time; everything is bound in ``create_app``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response
from flask.typing import ResponseReturnValue

from app import registry
from app.config import INSTANCE_DIR, PROJECT_ROOT, Settings
from app.http.json_provider import OrjsonProvider
from app.registry import RevocationList
from app.transaction import register_effects, transaction


class Application(Flask):
    """Flask, with each view's dispatch in one transaction (app/transaction.py): a request commits once, after its
    view, and its error handlers see a failed commit as they see any other failure; JSON written by orjson."""

    json_provider_class = OrjsonProvider

    def dispatch_request(self) -> ResponseReturnValue:
        with transaction():
            return super().dispatch_request()

    def wsgi_app(self, environ: dict[str, Any], start_response: Any) -> Any:
        """Flask's, then what the request's body left on the connection (app/http/limits.py)."""
        from app.http.limits import settle_body

        statuses: list[str] = []

        def noting(status: str, headers: Any, exc_info: Any = None) -> Any:
            statuses.append(status)
            return start_response(status, headers, exc_info)

        answer = super().wsgi_app(environ, noting)
        settle_body(environ, start_response, refused=bool(statuses) and statuses[-1].startswith("413"))
        return answer

    def process_response(self, response: Response) -> Response:
        """The after-request hooks, then the Retry-After the answer itself gave back (app/http/rates.py)."""
        from app.http.rates import retry_after_as_answered

        own = response.headers.get("Retry-After")
        return retry_after_as_answered(super().process_response(response), own)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build an application. ``config`` overrides settings read from the environment (tests pass theirs)."""
    settings = Settings.from_env()
    for key, value in (config or {}).items():
        if hasattr(settings, key) and key != "extra":
            setattr(settings, key, value)
        else:
            settings.extra[key] = value
    settings.resolve_secrets(INSTANCE_DIR)
    settings.check()

    app = Application(__name__, template_folder=str(PROJECT_ROOT / "templates"), static_folder=None)
    app.config.from_mapping(settings.flask_mapping())
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    _init_sentry(app)
    _init_extensions(app)
    _register_blueprints(app)
    return app


def _init_sentry(app: Flask) -> None:
    if not app.config["SENTRY_DSN"]:
        return  # without a DSN nothing is sent
    import sentry_sdk
    from sentry_sdk.integrations.flask import FlaskIntegration
    from sentry_sdk.integrations.sqlalchemy import SqlalchemyIntegration

    sentry_sdk.init(
        dsn=app.config["SENTRY_DSN"],
        environment=app.config["ENV"],
        integrations=[FlaskIntegration(), SqlalchemyIntegration()],
        traces_sample_rate=0.1,
        # No personal data (user details, cookies, bodies): the SDK's default, which the deprecated
        # send_default_pii=False used to state; tests/unit/test_sentry_server.py checks it.
    )


def _init_extensions(app: Flask) -> None:
    from app import models  # noqa: F401 - registers the tables on db.metadata
    from app.api.docs import SECURITY_SCHEMES
    from app.caching import register_cache
    from app.database import guard_engine
    from app.extensions import api, cache, compress, db, jwt, limiter, mail, migrate
    from app.http.assets import Manifest
    from app.http.shared import register_keeping
    from app.jobs.queue import register_queue
    from app.jobs.runner import run_job
    from app.schemas.common import ErrorSchema
    from app.services.catalogue.reach import listen as reaching
    from app.services.catalogue.relevance import listen as scoring

    db.init_app(app)
    register_effects()  # what follows a commit runs after it, never after a rollback
    scoring()  # a flush that adds or changes a content stores its relevance (app/services/catalogue/relevance.py)
    reaching()  # and one that changes its episodes or rules, where it plays (app/services/catalogue/reach.py)
    with app.app_context():
        registry.register_database_breaker(app, guard_engine(app, db.engine))  # deadlines, 503 while it is gone
    migrate.init_app(app, db, directory=str(PROJECT_ROOT / "migrations"), render_as_batch=True)
    jwt.init_app(app)
    mail.init_app(app)
    cache.init_app(app)
    limiter.init_app(app)
    api.ERROR_SCHEMA = ErrorSchema  # the error responses the OpenAPI document describes: ours (app/errors.py)
    api.init_app(app)
    for name, scheme in SECURITY_SCHEMES.items():
        api.spec.components.security_scheme(name, scheme)
    registry.register_revocations(app, _revocations(app))  # revoked sessions, seen by every worker
    register_cache(app)  # the cache that never fails a request (app/caching.py)
    register_keeping(app)  # shared responses are kept as compressed (app/http/shared.py)
    compress.init_app(app)  # brotli or gzip for text responses only (app/http/compression.py)
    registry.register_assets(app, Manifest(app.config["ASSETS_DIR"], app.config["WIDGET_ASSETS_PATH"]))
    register_queue(app, run_job)  # the job queue's broker (app/jobs/queue.py): the web sends, `flask jobs worker` runs


def _revocations(app: Flask) -> RevocationList:
    from app.services.accounts.revocations import DatabaseRevocations, RedisRevocations

    if not app.config["REDIS_URL"]:
        return DatabaseRevocations()
    lifetime = int(app.config["JWT_ACCESS_TOKEN_EXPIRES"].total_seconds()) + 60  # an access token's whole life
    return RedisRevocations(app.config["REDIS_URL"], app.config["CACHE_KEY_PREFIX"], lifetime,
                            float(app.config["CACHE_RETRY_AFTER"]), app.logger)


def _register_blueprints(app: Flask) -> None:
    from app.admin import init_admin
    from app.api.abuse import blp as abuse_api
    from app.api.access import register_token_handlers
    from app.api.accounts import blp as accounts_api
    from app.api.activity import blp as activity_api
    from app.api.administration import blp as administration_api
    from app.api.caches import blp as caches_api
    from app.api.catalogue import blp as catalogue_api
    from app.api.devices import blp as devices_api
    from app.api.docs import document_embed_script
    from app.api.lists import blp as lists_api
    from app.api.ops import blp as ops_api
    from app.api.playlists import blp as playlists_api
    from app.api.reference import blp as reference_api
    from app.api.reviews import blp as reviews_api
    from app.api.search import blp as search_api
    from app.api.seo import blp as seo_api
    from app.api.sessions import blp as sessions_api
    from app.api.site import blp as site_api
    from app.api.subscriptions import blp as subscriptions_api
    from app.cli import accounts_cli, catalogue_cli, demo_cli, jobs_cli, search_cli, sitemap_cli
    from app.errors import register_error_handlers
    from app.extensions import api
    from app.http.cors import register_cross_origin
    from app.http.headers import register_security_headers
    from app.http.limits import register_input_limits
    from app.http.requests import register_request_ids
    from app.http.shared import register_answering
    from app.player.ads import blp as ads_api
    from app.player.static import register_static
    from app.player.views import bp as player_bp
    from app.player.views import inline_sources

    register_request_ids(app)  # X-Request-Id on every response and log line
    register_input_limits(app)  # body size, JSON shape, control characters: before any view reads the request
    register_answering(app)  # a shared response kept from an earlier request answers this one (app/http/shared.py)
    api.register_blueprint(catalogue_api)
    api.register_blueprint(lists_api)
    api.register_blueprint(reference_api)
    api.register_blueprint(site_api)
    api.register_blueprint(search_api)
    api.register_blueprint(activity_api)
    api.register_blueprint(playlists_api)
    api.register_blueprint(reviews_api)
    api.register_blueprint(abuse_api)
    api.register_blueprint(devices_api)
    api.register_blueprint(ops_api)
    api.register_blueprint(accounts_api)
    api.register_blueprint(sessions_api)
    api.register_blueprint(subscriptions_api)
    api.register_blueprint(administration_api)
    api.register_blueprint(caches_api)
    api.register_blueprint(seo_api)
    register_token_handlers()
    api.register_blueprint(ads_api)
    app.register_blueprint(player_bp)
    registry.register_inline_sources(app, inline_sources)  # the hashes of the page's CSP (app/http/headers.py)
    register_static(app)
    document_embed_script(api.spec, app.url_map)  # /lib.js, served with the built assets
    init_admin(app)  # the editors' admin at /admin (app/admin)
    register_security_headers(app)  # framing and CSP headers on every response
    register_cross_origin(app)  # SITE_ORIGINS' pages may call the API (app/http/cors.py), once every route is known
    app.cli.add_command(demo_cli)
    app.cli.add_command(search_cli)
    app.cli.add_command(sitemap_cli)
    app.cli.add_command(accounts_cli)
    app.cli.add_command(catalogue_cli)
    app.cli.add_command(jobs_cli)
    register_error_handlers(app)  # after flask-smorest's, so that ours answer
