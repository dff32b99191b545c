"""The production shape (deploy/production.py: Debian's nginx in front of gunicorn with deploy/gunicorn.conf.py,
ENV=production, this machine's PostgreSQL and Redis) as a viewer and an attacker meet it: shared pages kept by nginx
and personal ones passed by, what nginx refuses answered in the service's JSON error shape, and slow or idle
clients that never starve the workers."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.production import ROOT, Shape, free_port
from tests.production import GERMANY, NOWHERE, RUSSIA, fetch, production_shape

SITE = "https://kino.example"  # a site on its own origin that calls the API (app/http/cors.py)


@pytest.fixture(scope="module")
def started() -> Iterator[tuple[Shape, str]]:
    with production_shape("shape", SITE_ORIGINS=SITE) as up:
        yield up


@pytest.fixture
def shape(started: tuple[Shape, str]) -> Shape:
    return started[0]


def get(url: str, headers: dict[str, str] | None = None, data: bytes | None = None, timeout: float = 30,
        source: str = RUSSIA) -> tuple[int, dict[str, str], bytes, float]:
    return fetch(url, headers, data, timeout, source)


def test_nginx_keeps_the_shared_page_and_passes_a_returning_viewer_by(shape):
    first = get(f"{shape.base}/?movie_id=1")
    second = get(f"{shape.base}/?movie_id=1")
    assert first[0] == second[0] == 200 and second[1]["X-Cache"] == "HIT" and second[2] == first[2]
    personal = get(f"{shape.base}/?movie_id=1", {"Cookie": "device_fp=anything"})
    assert personal[0] == 200 and personal[1]["X-Cache"] == "BYPASS"
    assert personal[1]["Cache-Control"] == "private, max-age=0"
    german = get(f"{shape.base}/?movie_id=1", source=GERMANY)
    assert german[1]["X-Cache"] == "MISS"  # another country: another entry


def test_what_nginx_refuses_is_answered_in_the_error_shape(shape):
    status, headers, body, _ = get(f"{shape.base}/contents/1?q={'a' * 9000}")
    assert status == 414 and headers["Content-Type"] == "application/json"
    error = json.loads(body)["error"]
    assert (error["code"], error["message"]) == ("uri_too_long", "Адрес запроса слишком длинный") and error["requestId"]
    status, headers, body, _ = get(f"{shape.base}/session-context", {"Content-Type": "application/json"},
                                   b'{"fingerprint": "' + b"a" * 100_000 + b'"}')
    assert status == 413 and json.loads(body)["error"]["code"] == "payload_too_large"


def test_a_site_on_its_own_origin_calls_the_api_through_nginx(shape):
    """Preflights pass through; what nginx keeps is kept per origin (Vary: Origin), each answer with its own
    Access-Control-Allow-Origin or none; what nginx refuses itself a listed site reads too."""
    status, headers, _, _ = fetch(f"{shape.base}/contents/2/episodes/3/time-progress", method="OPTIONS", headers={
        "Origin": SITE, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type"})
    assert status == 200 and headers["Access-Control-Allow-Origin"] == SITE
    assert headers["Access-Control-Allow-Headers"] == "authorization, content-type"
    assert headers["Access-Control-Allow-Credentials"] == "true" and int(headers["Access-Control-Max-Age"]) >= 600
    seen = []
    for origin in (SITE, "https://elsewhere.example", None) * 3:
        status, headers, body, _ = get(f"{shape.base}/contents/4", {"Origin": origin} if origin else {})
        assert status == 200 and json.loads(body)["id"] == 4
        assert "Origin" in headers["Vary"]
        assert headers.get("Access-Control-Allow-Origin") == (SITE if origin == SITE else None), (origin, headers)
        seen.append(headers["X-Cache"])
    assert seen[-3:] == ["HIT"] * 3, seen  # each origin's copy kept
    status, headers, body, _ = get(f"{shape.base}/session-context", {"Content-Type": "application/json",
                                                                      "Origin": SITE}, b"{" + b" " * 100_000 + b"}")
    assert status == 413 and json.loads(body)["error"]["code"] == "payload_too_large"
    assert headers["Access-Control-Allow-Origin"] == SITE and headers["Access-Control-Allow-Credentials"] == "true"
    status, headers, _, _ = get(f"{shape.base}/session-context", {"Content-Type": "application/json",
                                                                   "Origin": "https://elsewhere.example"},
                                b"{" + b" " * 100_000 + b"}")
    assert status == 413 and "Access-Control-Allow-Origin" not in headers


def test_idle_and_slow_clients_never_starve_the_workers(shape):
    """200 idle connections and 20 sending a header line every 2 s, against 2 workers × 4 threads: nginx holds them,
    and the page and the API answer every probe within a second."""
    host, port = shape.base.removeprefix("http://").split(":")
    held: list[socket.socket] = [socket.create_connection((host, int(port)), timeout=2) for _ in range(200)]
    slow = [socket.create_connection((host, int(port)), timeout=2) for _ in range(20)]
    stop = threading.Event()

    def drip() -> None:
        for connection in slow:
            connection.sendall(b"GET /?movie_id=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        while not stop.wait(2):
            for connection in slow:
                with contextlib.suppress(OSError):
                    connection.sendall(b"X-Slow: 1\r\n")

    threading.Thread(target=drip, daemon=True).start()
    try:
        time.sleep(0.5)
        for path in ("/?movie_id=2", "/contents/2", "/episodes?content-id=2", "/healthz"):
            for _ in range(3):
                status, _, _, took = get(shape.base + path, timeout=3)
                assert status == 200 and took < 1, (path, status, took)
    finally:
        stop.set()
        for connection in held + slow:
            connection.close()


def master_of(base: str, movie_id: int, source: str = RUSSIA) -> str | None:
    """The signed address of the page's chosen episode's master JSON, as a viewer at ``source`` gets it."""
    _, _, html, _ = get(f"{base}/?movie_id={movie_id}", source=source)
    found = re.search(rb'<script id="player-context" type="application/json">(.*?)</script>', html, re.S)
    context = json.loads(found.group(1)) if found else {"episodes": [], "episodeId": None}
    return next((e["m3u8MasterFilePath"] for e in context["episodes"] if e["id"] == context["episodeId"]), None)


def first_segment(base: str, master: str, source: str) -> str:
    """The first segment of the master's first rendition, as the player would reach it."""
    _, _, body, _ = get(base + master, source=source)
    hls = json.loads(body)["sources"][0]["link"]
    _, _, playlist, _ = get(base + hls, source=source)
    variant = next(line for line in playlist.decode().splitlines() if line.endswith(".m3u8"))
    folder = hls.rsplit("/", 1)[0]
    _, _, media, _ = get(f"{base}{folder}/{variant}", source=source)
    segment = next(line for line in media.decode().splitlines() if line and not line.startswith("#"))
    return f"{folder}/{variant.rsplit('/', 1)[0]}/{segment}" if "/" in variant else f"{folder}/{segment}"


def test_a_film_plays_through_the_shape_wherever_the_viewer_is(shape):
    """The master JSON at its signed address comes from the application (SERVE_MEDIA is off: nginx serves the
    rest), for a viewer in Russia and for one the geo database places nowhere (no country: ZZ, not a 403)."""
    for source in (RUSSIA, NOWHERE):
        master = master_of(shape.base, 1, source)
        assert master and master.startswith("/media/s/"), source
        status, headers, body, _ = get(shape.base + master, source=source)
        assert status == 200 and json.loads(body)["sources"], (source, status)
        segment = first_segment(shape.base, master, source)
        status, headers, body, _ = get(shape.base + segment, source=source)
        assert status == 200 and len(body) > 1000 and headers["X-Content-Type-Options"] == "nosniff", source


def test_the_country_is_nginxs_never_the_clients(shape):
    """Title 3 is blocked in Russia: a Russian viewer who says he is German stays Russian; a German one watches."""
    status, _, _, _ = get(f"{shape.base}/?movie_id=3", {"X-Viewer-Country": "de"})
    assert status == 451
    assert master_of(shape.base, 3) is None
    status, _, _, _ = get(f"{shape.base}/?movie_id=3", source=GERMANY)
    assert status == 200
    master = master_of(shape.base, 3, GERMANY)
    assert master and "/de/3/" in master
    assert get(shape.base + master, source=GERMANY)[0] == 200
    segment = first_segment(shape.base, master, GERMANY)
    assert get(shape.base + segment, source=GERMANY)[0] == 200
    assert get(shape.base + segment, {"X-Viewer-Country": "de"})[0] == 403  # the German's address, from Russia
    assert get(shape.base + master, {"X-Viewer-Country": "de"})[0] == 403


def test_the_admin_keeps_its_address_and_takes_real_uploads(shape):
    status, headers, _, _ = get(f"{shape.base}/admin")
    assert status in (301, 308) and headers["Location"] in (f"{shape.base}/admin/", "/admin/")
    status, headers, _, _ = get(f"{shape.base}/admin/", source=GERMANY)
    assert status == 302 and headers["Location"].startswith(("/admin/session/", f"{shape.base}/admin/session/"))
    three_megabytes = b"-" * (3 * 1_048_576)
    status, _, body, _ = get(f"{shape.base}/admin/content/new/",
                             {"Content-Type": "application/x-www-form-urlencoded"}, three_megabytes)
    assert status != 413, body[:200]  # the application's answer (a sign-in first), not nginx's refusal
    status, _, body, _ = get(f"{shape.base}/session-context", {"Content-Type": "application/json"}, three_megabytes)
    error = json.loads(body)["error"]
    assert status == 413 and error["code"] == "payload_too_large"  # the API keeps its limit
    assert error["message"] == "Тело запроса слишком большое"  # nginx's own answer, in Russian as the service's


def test_the_shapes_worker_runs_a_job(started):
    """The job worker the shape starts beside gunicorn (deploy/production.py) takes a job from Redis and runs it."""
    from app import create_app
    from app.clock import now
    from app.extensions import db
    from app.jobs.queue import send_after_commit
    from app.models.jobs import Job, JobState
    from app.services import jobs
    from app.transaction import transaction

    shape, database = started
    app = create_app({"DATABASE_URL": database, "REDIS_URL": "redis://127.0.0.1:6379/5",
                      "QUEUE_NAME": f"player-jobs-{database.rsplit('/', 1)[1]}"})
    with app.app_context():
        with transaction():
            job_id = jobs.create(db.session, "probe", {"steps": 3, "step_seconds": 0.05}, now=now()).id
            send_after_commit(app, job_id)
        deadline = time.monotonic() + 60
        while True:
            db.session.remove()
            job = db.session.get_one(Job, job_id)
            if job.finished or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert (job.state, job.done, job.total) == (JobState.DONE, 3, 3), job.message
        db.session.remove()
        db.engine.dispose()
    assert shape.worker.poll() is None


def children_of(pid: int) -> set[int]:
    """Every process below ``pid`` (from /proc)."""
    below: set[int] = set()
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - below
        below |= frontier
    return below


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_runner_stops_nginx_and_gunicorn(started, stop):
    """bin/production's runner: a SIGTERM (a service manager) or a SIGINT (Ctrl-C) leaves nothing running. (A second
    runner, on the module's database, migrated and seeded already.)"""
    _, database = started
    number = free_port()
    env = {**os.environ, "PORT": str(number), "PRODUCTION_DATABASE_URL": database,
           "PRODUCTION_REDIS_URL": "redis://127.0.0.1:6379/5"}
    runner = subprocess.Popen([str(ROOT / ".venv" / "bin" / "python"), "-m", "deploy.production"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 180  # a loaded machine boots gunicorn's workers slowly
        served = False
        while not served and time.monotonic() < deadline:
            with contextlib.suppress(OSError, http.client.HTTPException):
                served = get(f"http://127.0.0.1:{number}/healthz", timeout=2)[0] == 200
            assert runner.poll() is None, "the runner exited before it served"
            time.sleep(0.2)
        assert served, "the runner did not serve /healthz within 180 s"
        below = children_of(runner.pid)
        assert len(below) >= 4  # nginx's master and worker, gunicorn's arbiter and workers, the job worker
        runner.send_signal(stop)
        stopping = time.monotonic()
        assert runner.wait(timeout=40) == 0
        # gunicorn stops on its SIGTERM, not when the runner's 20 s wait gives up and kills it (the runner's blocked
        # stop signals were inherited: deploy/production.py ``_unblocked``)
        assert time.monotonic() - stopping < 15
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in below) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in below if alive(pid)] == []
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", number), timeout=1).close()
    finally:
        if runner.poll() is None:
            runner.kill()


def test_a_video_upload_passes_nginx_unbuffered_and_becomes_a_job(started, tmp_path):
    """The admin's tus upload through nginx (issue 35): a PATCH of a chunk far larger than nginx's body buffer reaches
    the application while it is still being sent (the application has written part of it before the rest leaves the
    client), nothing goes to nginx's temporary body files, and the whole file becomes the episode's transcode job."""
    import base64
    from email.message import Message

    from sqlalchemy import select

    from app import create_app
    from app.extensions import db
    from app.models import Episode, Role
    from app.models.jobs import Job
    from app.services.accounts.accounts import create_account
    from app.transaction import transaction

    shape, database = started
    app = create_app({"DATABASE_URL": database})
    with app.app_context():
        with transaction():
            create_account("uploader@example.com", "Ольга Загрузкина", "a long enough passphrase", Role.EDITOR)
        episode_id = db.session.scalars(select(Episode.id).order_by(Episode.id)).first()
        db.session.remove()
    source = tmp_path / "film.mp4"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-threads", "2", "-f", "lavfi", "-i",
                    "testsrc2=size=320x240:rate=25:duration=8", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "4",
                    str(source)], check=True)
    data = source.read_bytes()
    assert len(data) > 1_500_000
    host, port = shape.base.removeprefix("http://").split(":")
    cookies: dict[str, str] = {}

    def call(method: str, path: str, headers: dict[str, str] | None = None, body: bytes | None = None) -> tuple[
            int, Message, bytes]:
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        sent = {**(headers or {}), "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        connection.request(method, path, body=body, headers=sent)
        answer = connection.getresponse()
        for cookie in answer.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            cookies[name] = value
        content = answer.read()
        connection.close()
        return answer.status, answer.headers, content

    def token_in(html: bytes, pattern: str) -> str:
        found = re.search(pattern.encode(), html)
        assert found, html[:300]
        return found.group(1).decode()

    _, _, html = call("GET", "/admin/session/")
    form_token = token_in(html, r'name="csrf_token" type="hidden" value="([^"]+)"')
    sign_in = f"email=uploader%40example.com&password=a+long+enough+passphrase&csrf_token={form_token}"
    status, _, _ = call("POST", "/admin/session/", {"Content-Type": "application/x-www-form-urlencoded"},
                        sign_in.encode())
    assert status == 302
    status, _, html = call("GET", f"/admin/uploads/episode/{episode_id}/")
    assert status == 200
    token = token_in(html, r'data-token="([^"]+)"')
    tus = {"Tus-Resumable": "1.0.0", "X-CSRF-Token": token}
    name = base64.b64encode(b"film.mp4").decode()
    status, headers, body = call("POST", f"/admin/uploads/episode/{episode_id}/tus/",
                                 {**tus, "Upload-Length": str(len(data)), "Upload-Metadata": f"filename {name}"})
    assert status == 201, body
    location = headers["Location"]

    # one PATCH, sent in two parts with a pause between them
    patch = http.client.HTTPConnection(host, int(port), timeout=30)
    patch.putrequest("PATCH", location)
    for header, value in {**tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream",
                          "Content-Length": str(len(data)),
                          "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}.items():
        patch.putheader(header, value)
    patch.endheaders()
    first = 1_300_000
    patch.send(data[:first])
    deadline = time.monotonic() + 20
    offset = 0
    while offset < 1_048_576 and time.monotonic() < deadline:  # the application's first megabyte, written
        offset = int(call("HEAD", location, {"Tus-Resumable": "1.0.0"})[1]["Upload-Offset"])
        time.sleep(0.05)
    assert offset >= 1_048_576  # nginx handed on the body before it had all of it
    body_files = [path for path in (shape.run / "body").rglob("*") if path.is_file()]
    assert body_files == []  # and kept none of it on its disk
    patch.send(data[first:])
    answer = patch.getresponse()
    assert (answer.status, answer.headers["Upload-Offset"]) == (204, str(len(data)))
    patch.close()
    buffered = [line for line in (shape.run / "error.log").read_text().splitlines()
                if "buffered to a temporary file" in line and "/admin/uploads/" in line]
    assert buffered == []  # (the admin's forms are buffered, as every other body: test above)

    status, _, body = call("POST", f"{location}/finish", {"X-CSRF-Token": token, "X-Requested-With": "XMLHttpRequest"})
    assert status == 200, body
    job_id = json.loads(body)["job_id"]
    with app.app_context():
        job = db.session.get_one(Job, job_id)
        assert (job.kind, job.subject, job.params["episode_id"]) == ("transcode", f"episode:{episode_id}", episode_id)
        db.session.remove()
        db.engine.dispose()
