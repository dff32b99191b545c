"""The production proxy's media part (docs/nginx-media.conf) in Debian's nginx, in front of the application: nginx
accepts the addresses the application signs (app/http/media.py: one format, nginx's secure_link_md5) and serves their
files itself; it refuses unsigned, tampered, expired and other-country ones, symbolic links and dotfiles. The
viewer's country is nginx's geo lookup of the client's address (the geoip2 module, in the demo's country database:
127.0.0.1 is in Russia, 127.0.0.2 in Germany, other loopback addresses nowhere), never a header the client sends."""

from __future__ import annotations

import http.client
import json
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask_migrate import upgrade

from app import create_app
from app.config import PROJECT_ROOT, Settings
from app.database import unhurried
from app.demo.seed import seed_demo
from app.extensions import db
from app.http.media import signature
from deploy.production import GEOIP_MODULE, demo_country_database
from tests.browser.conftest import serving

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
SECRET = "a-media-secret-shared-with-nginx-0123456789"
MEDIA_ROOT = Path(Settings.from_env().MEDIA_ROOT)
RUSSIA, GERMANY, NOWHERE = "127.0.0.1", "127.0.0.2", "127.0.0.9"  # the demo country database's places
SERVER = """
load_module {module};
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body; proxy_temp_path {dir}/proxy; fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi; scgi_temp_path {dir}/scgi;
    types {{ application/json json; application/vnd.apple.mpegurl m3u8; video/iso.segment m4s; video/mp4 mp4;
             text/vtt vtt; image/jpeg jpg; }}
    upstream player_app {{ server {app}; }}
    geoip2 {geo} {{ $viewer_country default=ZZ source=$remote_addr country iso_code; }}
    map "$media_cc:$viewer_country" $media_country_ok {{ "~*^([a-z]{{2}}):\\1$" 1; default 0; }}
    server {{
        listen 127.0.0.1:{port};
        set $media_root {media};
        set $media_secret "{secret}";
        include {conf};
        location / {{
            proxy_pass http://player_app;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Viewer-Country $viewer_country;  # the client's own never gets through
        }}
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def proxied(make_database: Callable[[str], str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not Path(NGINX).exists():
        pytest.fail("nginx is missing: `make test` installs Debian's nginx-light")
    if not (MEDIA_ROOT / "titles" / "film-long" / "master.json").is_file():
        pytest.fail("the demo media are missing: `make test` generates them (flask demo media)")
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("nginx"), "MEDIA_ROOT": str(MEDIA_ROOT),
                      "MEDIA_URL_SECRET": SECRET, "TRUSTED_PROXIES": "127.0.0.1", "SERVE_MEDIA": False})
    with app.app_context(), unhurried(app, db.engine):
        upgrade()
        seed_demo()
    workdir = tmp_path_factory.mktemp("nginx")
    port = free_port()
    with serving(app) as origin:
        conf = workdir / "nginx.conf"
        conf.write_text(SERVER.format(dir=workdir, app=origin.removeprefix("http://"), port=port, media=MEDIA_ROOT,
                                      secret=SECRET, conf=PROJECT_ROOT / "docs" / "nginx-media.conf",
                                      module=GEOIP_MODULE, geo=demo_country_database()))
        process = subprocess.Popen([NGINX, "-p", str(workdir), "-c", str(conf), "-g", "daemon off;"],
                                   stderr=subprocess.PIPE)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    assert process.poll() is None, process.stderr.read().decode() if process.stderr else "nginx died"
                    time.sleep(0.05)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=10)


def get(url: str, headers: dict[str, str] | None = None, source: str = RUSSIA) -> tuple[int, dict[str, str], bytes]:
    """GET ``url`` from the loopback address ``source`` (a viewer in the country the demo database places it in)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10, source_address=(source, 0))
    try:
        connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def signed_master(base: str, movie_id: int = 1, headers: dict[str, str] | None = None,
                  source: str = RUSSIA) -> str:
    _, _, html = get(f"{base}/?movie_id={movie_id}", headers, source)
    context = json.loads(re.search(rb'<script id="player-context" type="application/json">(.*?)</script>', html,
                                   re.S).group(1))
    return next(e for e in context["episodes"] if e["id"] == context["episodeId"])["m3u8MasterFilePath"]


def test_nginx_serves_a_signed_title_itself(proxied):
    master = signed_master(proxied)
    status, _, body = get(proxied + master)  # the application, through nginx: links signed alike
    assert status == 200
    prefix = master.rsplit("/", 1)[0]
    assert json.loads(body)["sources"][0]["link"] == f"{prefix}/master.m3u8"
    status, headers, body = get(f"{proxied}{prefix}/video-240p/seg_00000.m4s")
    assert status == 200 and headers["Server"].startswith("nginx")
    assert body == (MEDIA_ROOT / "titles" / "film-long" / "video-240p" / "seg_00000.m4s").read_bytes()
    assert headers["X-Content-Type-Options"] == "nosniff"  # nginx's own answer, not sniffed into another type
    assert get(f"{proxied}/media/posters/film-long.jpg")[0] == 200


def test_nginx_refuses_unsigned_tampered_expired_and_foreign_addresses(proxied):
    prefix = signed_master(proxied).rsplit("/", 1)[0]
    _, _, _, sig, exp, country, content, *_ = prefix.split("/")
    segment = "video-240p/seg_00000.m4s"
    assert get(f"{proxied}{prefix}/{segment}")[0] == 200
    assert get(f"{proxied}/media/titles/film-long/{segment}")[0] == 403
    tampered = ("A" if sig[0] != "A" else "B") + sig[1:]  # (the last character carries 2 bits and 4 of padding)
    assert get(f"{proxied}/media/s/{tampered}/{exp}/{country}/{content}/titles/film-long/{segment}")[0] == 403
    assert get(f"{proxied}/media/s/{sig}/{int(exp) + 600}/{country}/{content}/titles/film-long/{segment}")[0] == 403
    assert get(f"{proxied}/media/s/{sig}/{exp}/{country}/{content}/titles/film-short/{segment}")[0] == 403
    assert get(f"{proxied}/media/s/{sig}/{exp}/{country}/3/titles/film-long/{segment}")[0] == 403  # another title's
    assert get(f"{proxied}{prefix}/{segment}", source=GERMANY)[0] == 403  # the viewer moved
    assert get(f"{proxied}{prefix}/{segment}", {"X-Viewer-Country": "ru"}, source=GERMANY)[0] == 403  # and says not
    app = create_app({"TESTING": True, "MEDIA_URL_SECRET": SECRET})
    with app.app_context():
        past = (int(time.time()) // 600 - 1) * 600
        expired = f"/media/s/{signature(past, 1, 'titles/film-long', country)}/{past}/{country}/1/titles/film-long/"
    assert get(f"{proxied}{expired}{segment}")[0] == 403


def test_a_german_viewer_gets_the_title_blocked_in_russia_and_a_russian_one_cannot_say_he_is_german(proxied):
    master = signed_master(proxied, 3, source=GERMANY)
    assert "/de/3/titles/film-short/" in master
    prefix = master.rsplit("/", 1)[0]
    assert get(f"{proxied}{master}", source=GERMANY)[0] == 200
    assert get(f"{proxied}{prefix}/video-240p/seg_00000.m4s", source=GERMANY)[0] == 200
    assert signed_master(proxied, 3) is None  # a Russian viewer gets no address at all
    status, _, _ = get(f"{proxied}/?movie_id=3", {"X-Viewer-Country": "de"})  # the client's own header: dropped
    assert status == 451
    assert signed_master(proxied, 3, {"X-Viewer-Country": "de"}) is None
    assert get(f"{proxied}{master}", {"X-Viewer-Country": "de"})[0] == 403  # nor a German's address from Russia


def test_a_viewer_the_database_places_nowhere_plays_what_plays_everywhere(proxied):
    """An address no country has (ZZ): the page and the media agree, and the film plays."""
    master = signed_master(proxied, 1, source=NOWHERE)
    assert "/zz/1/titles/film-long/" in master
    assert get(f"{proxied}{master}", source=NOWHERE)[0] == 200
    prefix = master.rsplit("/", 1)[0]
    assert get(f"{proxied}{prefix}/video-240p/seg_00000.m4s", source=NOWHERE)[0] == 200


def test_nginx_follows_no_symbolic_link_and_serves_no_dotfile(proxied, tmp_path):
    link = MEDIA_ROOT / "posters" / "linked-passwd.jpg"
    dotfile = MEDIA_ROOT / "posters" / ".hidden"
    link.symlink_to("/etc/passwd")
    dotfile.write_text("hidden")
    try:
        assert get(f"{proxied}/media/posters/linked-passwd.jpg")[0] in (403, 404)
        assert get(f"{proxied}/media/posters/.hidden")[0] == 404
    finally:
        link.unlink()
        dotfile.unlink()
