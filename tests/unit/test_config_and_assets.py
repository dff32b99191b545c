"""Configuration defaults and the esbuild metafile reader."""

import json
import os
from pathlib import Path

import pytest

from app.config import Settings, normalise_database_url
from app.http.assets import AssetsNotBuilt, Manifest


def test_environment_overrides_are_typed():
    settings = Settings.from_env({"SERVE_MEDIA": "false", "ASSETS_MAX_AGE": "60", "COUNTRY_HEADER": "CF-IPCountry"})
    assert settings.SERVE_MEDIA is False
    assert settings.ASSETS_MAX_AGE == 60
    assert settings.COUNTRY_HEADER == "CF-IPCountry"


KEY = "k" * 32  # long enough
PRODUCTION = {"ENV": "production", "PUBLIC_URL": "https://player.example"}


@pytest.mark.parametrize("environ", [
    PRODUCTION,  # no key
    {**PRODUCTION, "SECRET_KEY": "s3cret"},  # 6 bytes
    {**PRODUCTION, "SECRET_KEY": "k" * 31},
    {**PRODUCTION, "SECRET_KEY": KEY, "JWT_SECRET_KEY": "short"},
    {"ENV": "development", "SECRET_KEY": "dev"},  # a short key is refused wherever it comes from
])
def test_a_missing_or_short_key_is_refused(environ):
    settings = Settings.from_env(environ)
    settings.resolve_secrets(Path("/nonexistent"))  # production and an explicit key: nothing generated
    with pytest.raises(ValueError, match="SECRET_KEY"):
        settings.check()


def test_production_takes_a_long_key():
    Settings.from_env({**PRODUCTION, "SECRET_KEY": KEY}).check()


@pytest.mark.parametrize(("environ", "match"), [
    ({"ENV": "production", "SECRET_KEY": KEY}, "PUBLIC_URL must be set"),
    ({"PUBLIC_URL": "https://player.example/path"}, "PUBLIC_URL"),
    ({"PUBLIC_URL": "player.example"}, "PUBLIC_URL"),
    ({**PRODUCTION, "SECRET_KEY": KEY, "COUNTRY_QUERY_PARAM": "country"}, "COUNTRY_QUERY_PARAM"),
    ({"TRUSTED_PROXIES": "127.0.0.1, nginx"}, "TRUSTED_PROXIES"),
])
def test_addresses_that_would_let_a_client_choose_are_refused(environ, match):
    with pytest.raises(ValueError, match=match):
        Settings.from_env({"SECRET_KEY": KEY, **environ}).check()


def test_the_queue_settings_are_typed_and_checked():
    settings = Settings.from_env({"SECRET_KEY": KEY, "QUEUE_WORKERS": "4", "JOB_HEARTBEAT_SECONDS": "0.2",
                                  "JOB_STALE_SECONDS": "1.5"})
    assert (settings.QUEUE_WORKERS, settings.JOB_HEARTBEAT_SECONDS, settings.JOB_STALE_SECONDS) == (4, 0.2, 1.5)
    settings.check()
    for wrong, match in (({"QUEUE_WORKERS": "0"}, "QUEUE_WORKERS"), ({"JOB_MAX_ATTEMPTS": "0"}, "JOB_MAX_ATTEMPTS"),
                         ({"JOB_HEARTBEAT_SECONDS": "60", "JOB_STALE_SECONDS": "30"}, "JOB_HEARTBEAT_SECONDS")):
        with pytest.raises(ValueError, match=match):
            Settings.from_env({"SECRET_KEY": KEY, **wrong}).check()


def test_only_the_public_hosts_are_trusted():
    assert Settings(PUBLIC_URL="https://player.example", ALLOWED_HOSTS="cdn.example, .player.example").trusted_hosts() \
        == ["player.example", "cdn.example", ".player.example"]
    assert "localhost" in Settings().trusted_hosts()  # development without an address: this machine only
    assert Settings(ENV="production", PUBLIC_URL="https://player.example").trusted_hosts() == ["player.example"]


def test_development_generates_one_random_key_and_keeps_it(tmp_path):
    first, second, other = Settings(), Settings(), Settings()
    first.resolve_secrets(tmp_path)
    second.resolve_secrets(tmp_path)
    other.resolve_secrets(tmp_path / "elsewhere")
    assert len(first.SECRET_KEY) >= 32 and first.SECRET_KEY == second.SECRET_KEY  # kept across starts
    assert other.SECRET_KEY != first.SECRET_KEY  # random, not a constant
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0  # readable by its owner only
    first.check()


@pytest.mark.parametrize("mode", ["theatre", ""])
def test_unknown_fullscreen_mode_is_refused(mode):
    with pytest.raises(ValueError, match="FULLSCREEN_MODE"):
        Settings(FULLSCREEN_MODE=mode).check()


def test_test_timings_reach_the_player_and_nothing_without_them(app):
    from app.player.context import runtime_config

    with app.test_request_context("/"):
        assert "timings" not in runtime_config()
    settings = Settings.from_env({"PLAYER_TEST_TIMINGS": "analyticsTimeupdateMs=2000, vastTimeoutMs=1.5",
                                  "SECRET_KEY": KEY})
    settings.check()
    app.config["PLAYER_TEST_TIMINGS"] = settings.flask_mapping()["PLAYER_TEST_TIMINGS"]
    with app.test_request_context("/"):
        assert runtime_config()["timings"] == {"analyticsTimeupdateMs": 2000, "vastTimeoutMs": 1.5}


@pytest.mark.parametrize("raw", ["vastTimeoutMs", "vastTimeoutMs=0", "vastTimeoutMs=-5", "vastTimeoutMs=x",
                                 "vast=100", "alert(1)Ms=5", "__proto__Ms=5", "vastTimeoutMs=1e9"])
def test_test_timings_that_are_not_name_equals_positive_number_are_refused(raw):
    with pytest.raises(ValueError, match="PLAYER_TEST_TIMINGS"):
        Settings(PLAYER_TEST_TIMINGS=raw).check()


def test_production_refuses_test_timings():
    with pytest.raises(ValueError, match="PLAYER_TEST_TIMINGS"):
        Settings.from_env({**PRODUCTION, "SECRET_KEY": KEY, "PLAYER_TEST_TIMINGS": "vastTimeoutMs=100"}).check()


@pytest.mark.parametrize(("url", "expected"), [
    ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
    ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
    ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
    ("sqlite:///x.db", "sqlite:///x.db"),
])
def test_database_urls_name_the_psycopg_driver(url, expected):
    assert normalise_database_url(url) == expected


def write_meta(directory, outputs):
    (directory / "meta.json").write_text(json.dumps({"inputs": {}, "outputs": outputs}))


def test_manifest_reads_entries_styles_and_static_imports(tmp_path):
    dist = tmp_path / "app" / "static" / "dist"
    dist.mkdir(parents=True)
    write_meta(dist, {
        "app/static/dist/player-AAA.js": {
            "entryPoint": "static_src/player.tsx",
            "cssBundle": "app/static/dist/player-BBB.css",
            "imports": [
                {"path": "app/static/dist/chunks/chunk-CCC.js", "kind": "import-statement"},
                {"path": "app/static/dist/chunks/hls-DDD.js", "kind": "dynamic-import"},
            ],
        },
        "app/static/dist/player-AAA.js.map": {},
        "app/static/dist/chunks/hls-DDD.js": {},
    })
    entry = Manifest(dist, "/assets/").entry("player.tsx")
    assert entry.script == "/assets/player-AAA.js"
    assert entry.styles == ("/assets/player-BBB.css",)
    assert entry.preloads == ("/assets/chunks/chunk-CCC.js",)  # the lazy hls.js chunk is not preloaded


def test_manifest_follows_a_rebuild(tmp_path):
    dist = tmp_path / "dist"
    dist.mkdir()
    write_meta(dist, {"dist/player-1.js": {"entryPoint": "static_src/player.tsx"}})
    manifest = Manifest(dist, "/assets")
    assert manifest.entry("player.tsx").script == "/assets/player-1.js"
    write_meta(dist, {"dist/player-2.js": {"entryPoint": "static_src/player.tsx"}})
    os.utime(dist / "meta.json", (1, 1))  # a different mtime, as a rebuild gives
    assert manifest.entry("player.tsx").script == "/assets/player-2.js"


def test_manifest_without_a_build(tmp_path):
    with pytest.raises(AssetsNotBuilt, match="npm run build"):
        Manifest(tmp_path, "/assets/").entry("player.tsx")
