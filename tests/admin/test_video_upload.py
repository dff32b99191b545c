"""The admin's resumable upload of an episode's source video (issue 35, app/admin/uploads.py): the tus protocol as the
server speaks it, the check with ffprobe at the end, the ``transcode`` job it makes, its refusals in Russian, and
who may call it. The real tus-js-client in Chromium: tests/browser/test_admin_video_upload.py."""

from __future__ import annotations

import base64
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.admin.access import SESSION_KEY, fingerprint
from app.admin.jobs import kind_label
from app.clock import now
from app.extensions import db
from app.jobs.worker import _sweep
from app.models import Account, AdCreative, Episode, Role
from app.models.jobs import Job, JobState
from app.services import jobs
from app.services.editorial.sessions import open_admin_session
from app.services.media.uploads import parse_metadata
from app.transaction import transaction
from tests.admin.helpers import page

TUS = {"Tus-Resumable": "1.0.0"}


def make_video(path: Path, seconds: int = 2) -> Path:
    """A real little video (H.264 and AAC in MP4) made by Debian's ffmpeg."""
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-threads", "2", "-f", "lavfi", "-i",
                    f"testsrc=size=160x120:rate=10:duration={seconds}", "-f", "lavfi", "-i",
                    f"sine=frequency=440:duration={seconds}", "-c:v", "libx264", "-preset", "ultrafast",
                    "-c:a", "aac", "-shortest", str(path)], check=True)
    return path


@pytest.fixture
def upload_app(app: Flask, demo_catalogue: Flask, tmp_path: Path) -> Flask:
    app.config.update(VIDEO_UPLOAD_DIR=str(tmp_path / "uploads"), JOB_FILES_DIR=str(tmp_path / "job-files"),
                      VIDEO_UPLOAD_CHUNK_BYTES=65_536, VIDEO_UPLOAD_RESERVE_BYTES=0)
    return app


@pytest.fixture
def episode_id(upload_app: Flask) -> int:
    with upload_app.app_context():
        return int(db.session.scalars(select(Episode.id).order_by(Episode.id)).first() or 0)


def token_of(client: FlaskClient, episode: int) -> str:
    response = client.get(f"/admin/uploads/episode/{episode}/")
    assert response.status_code == 200, response.status_code
    return str(page(response).xpath("//section[@id='video-upload']/@data-token")[0])


def metadata(**values: str) -> str:
    return ",".join(f"{key} {base64.b64encode(value.encode()).decode()}" for key, value in values.items())


def create(client: FlaskClient, episode: int, token: str, length: int, name: str = "film.mp4") -> Any:
    return client.post(f"/admin/uploads/episode/{episode}/tus/", headers={
        **TUS, "X-CSRF-Token": token, "Upload-Length": str(length), "Upload-Metadata": metadata(filename=name)})


def patch(client: FlaskClient, location: str, token: str, offset: int, body: bytes) -> Any:
    return client.patch(location, data=body, headers={
        **TUS, "X-CSRF-Token": token, "Upload-Offset": str(offset),
        "Content-Type": "application/offset+octet-stream"})


def send_whole(client: FlaskClient, episode: int, token: str, data: bytes, name: str = "film.mp4",
               chunk: int = 65_536) -> str:
    response = create(client, episode, token, len(data), name)
    assert response.status_code == 201, response.get_data(as_text=True)
    location = response.headers["Location"]
    offset = 0
    while offset < len(data):
        response = patch(client, location, token, offset, data[offset:offset + chunk])
        assert response.status_code == 204, response.get_data(as_text=True)
        offset = int(response.headers["Upload-Offset"])
    return location


def finish(client: FlaskClient, location: str, token: str) -> Any:
    return client.post(f"{location}/finish", headers={"X-CSRF-Token": token, "X-Requested-With": "XMLHttpRequest"})


def test_an_upload_in_chunks_resumed_becomes_the_episodes_transcode_job(
        upload_app: Flask, signed_in: Callable[[Role], FlaskClient], episode_id: int, tmp_path: Path,
        accounts: dict[Role, int]):
    data = make_video(tmp_path / "source.mp4").read_bytes()
    editor = signed_in(Role.EDITOR)
    token = token_of(editor, episode_id)
    response = create(editor, episode_id, token, len(data), "Серия 1.mp4")
    assert response.status_code == 201 and response.headers["Tus-Resumable"] == "1.0.0"
    location = response.headers["Location"]
    assert location.startswith("/admin/uploads/tus/") and response.headers["Upload-Expires"].endswith("GMT")
    half = len(data) // 2
    assert patch(editor, location, token, 0, data[:half]).headers["Upload-Offset"] == str(half)
    # the client lost its answer and asks where to go on
    response = editor.head(location, headers=TUS)
    assert (response.status_code, response.headers["Upload-Offset"], response.headers["Upload-Length"]) == (
        200, str(half), str(len(data)))
    assert response.headers["Cache-Control"] == "no-store"
    assert patch(editor, location, token, 0, data[:half]).status_code == 409  # not the offset the server holds
    assert patch(editor, location, token, half, data[half:]).headers["Upload-Offset"] == str(len(data))
    upload = editor.get(location).get_json()
    assert upload["received"] == len(data)  # the 409's bytes were never taken

    response = finish(editor, location, token)
    assert response.status_code == 200, response.get_data(as_text=True)
    answer = response.get_json()
    assert answer["message"].startswith(f"Файл принят: задача №{answer['job_id']}")
    with upload_app.app_context():
        job = db.session.get_one(Job, answer["job_id"])
        files = Path(upload_app.config["JOB_FILES_DIR"]).resolve()
        assert (job.kind, job.subject, job.state, job.account_id) == (
            "transcode", f"episode:{episode_id}", JobState.QUEUED, accounts[Role.EDITOR])
        assert set(job.params) == {"episode_id", "file"} and job.params["episode_id"] == episode_id
        moved = Path(job.params["file"])
        assert moved.is_absolute() and moved.parent == files and moved.suffix == ".mp4"
    assert moved.read_bytes() == data
    assert time.time() - moved.stat().st_mtime < 60  # touched when moved: the sweep spares it
    _sweep(files, set())  # even as if no job needed it yet (the commit not yet seen)
    assert moved.exists()
    assert list(Path(upload_app.config["VIDEO_UPLOAD_DIR"]).iterdir()) == []  # the upload's own files are gone
    assert editor.head(location, headers=TUS).status_code == 404


def test_a_file_that_is_not_video_is_refused_with_the_reason_and_removed(
        upload_app: Flask, signed_in: Callable[[Role], FlaskClient], episode_id: int):
    editor = signed_in(Role.EDITOR)
    token = token_of(editor, episode_id)
    location = send_whole(editor, episode_id, token, b"Not a film at all, just words.\n" * 100, "notes.mp4")
    response = finish(editor, location, token)
    assert response.status_code == 422
    assert response.get_json()["error"] == ("Файл «notes.mp4» не подходит: Файл не читается как видео: его формат не "
                                            "распознан или он повреждён.")
    assert list(Path(upload_app.config["VIDEO_UPLOAD_DIR"]).glob("*.part")) == []
    with upload_app.app_context():
        assert db.session.scalar(select(Job.id)) is None


def test_a_second_upload_while_the_episode_has_a_job_is_refused_clearly(
        upload_app: Flask, signed_in: Callable[[Role], FlaskClient], episode_id: int, tmp_path: Path):
    data = make_video(tmp_path / "source.mp4").read_bytes()
    editor = signed_in(Role.EDITOR)
    token = token_of(editor, episode_id)
    finished_late = send_whole(editor, episode_id, token, data)  # finished after the other's job: refused too
    first = send_whole(editor, episode_id, token, data)
    job_id = finish(editor, first, token).get_json()["job_id"]
    response = create(editor, episode_id, token, len(data))
    assert response.status_code == 403
    assert response.get_data(as_text=True) == (
        f"Для этой серии уже есть незавершённая задача №{job_id} ({kind_label('transcode')}, в очереди): "
        "дождитесь её или отмените, затем загрузите файл снова.")
    response = finish(editor, finished_late, token)
    assert response.status_code == 409
    assert response.get_json()["error"] == (f"Видео не принято в обработку. Для этого уже есть незавершённая задача "
                                            f"№{job_id}: дождитесь её или отмените.")
    assert editor.head(finished_late, headers=TUS).status_code == 200  # kept, to be finished once the job ends
    with upload_app.app_context(), transaction():
        jobs.cancel(db.session, job_id, now=now())
    response = finish(editor, finished_late, token)
    assert response.status_code == 200
    second = response.get_json()["job_id"]
    assert second != job_id
    # the episode's page says the new job, and its row on the title's page its state
    answer = editor.get(f"/admin/uploads/episode/{episode_id}/")
    assert page(answer).xpath("string(//a[@data-job-link])") == f"{kind_label('transcode')}: задача №{second}"
    with upload_app.app_context():
        content_id = db.session.get_one(Episode, episode_id).content_id
    row = page(editor.get(f"/admin/content/edit/?id={content_id}")).xpath(
        f"//a[@data-video-upload][contains(@href, '/episode/{episode_id}/')]")
    assert [link.text_content() for link in row] == ["Обработка: в очереди"]


def test_refusals_size_count_csrf_and_the_protocol(upload_app: Flask, signed_in: Callable[[Role], FlaskClient],
                                                   episode_id: int):
    upload_app.config.update(VIDEO_UPLOAD_MAX_BYTES=1_000_000, VIDEO_UPLOADS_PER_ACCOUNT=2)
    editor = signed_in(Role.EDITOR)
    token = token_of(editor, episode_id)
    response = create(editor, episode_id, token, 1_000_001)
    assert (response.status_code, response.get_data(as_text=True)) == (
        413, "Файл больше 976,6 КБ: такой не принимается.")
    response = editor.post(f"/admin/uploads/episode/{episode_id}/tus/", headers={**TUS, "Upload-Length": "10"})
    assert (response.status_code, response.get_data(as_text=True)) == (
        400, "Страница устарела: обновите её, загрузка продолжится с того же места.")
    response = editor.post(f"/admin/uploads/episode/{episode_id}/tus/",
                           headers={"X-CSRF-Token": token, "Upload-Length": "10"})
    assert response.status_code == 412
    assert editor.post("/admin/uploads/episode/999999/tus/", headers={
        **TUS, "X-CSRF-Token": token, "Upload-Length": "10"}).status_code == 404
    first = create(editor, episode_id, token, 100).headers["Location"]
    create(editor, episode_id, token, 100)
    response = create(editor, episode_id, token, 100)
    assert (response.status_code, response.get_data(as_text=True)) == (
        429, "Незаконченных загрузок у вас уже 2, больше нельзя: завершите или отмените одну из них.")
    assert patch(editor, first, token, 0, b"x" * 101).status_code == 413  # past the declared length
    response = editor.patch(first, data=b"x", headers={**TUS, "X-CSRF-Token": token, "Upload-Offset": "0",
                                                       "Content-Type": "application/octet-stream"})
    assert response.status_code == 415
    assert patch(editor, first, "forged", 0, b"x").status_code == 400
    assert editor.delete(first, headers={**TUS, "X-CSRF-Token": token}).status_code == 204  # termination
    assert editor.head(first, headers=TUS).status_code == 404
    assert create(editor, episode_id, token, 100).status_code == 201  # room for one more again
    # another editor cannot see, write or remove this editor's upload
    upload_app.config["VIDEO_UPLOADS_PER_ACCOUNT"] = 3
    other = signed_in(Role.ADMIN)
    mine = create(editor, episode_id, token, 100).headers["Location"]
    assert other.head(mine, headers=TUS).status_code == 404
    assert patch(other, mine, token_of(other, episode_id), 0, b"x").status_code == 404


def test_expired_uploads_are_removed(upload_app: Flask, signed_in: Callable[[Role], FlaskClient], episode_id: int):
    editor = signed_in(Role.EDITOR)
    token = token_of(editor, episode_id)
    location = create(editor, episode_id, token, 100).headers["Location"]
    assert patch(editor, location, token, 0, b"x" * 10).status_code == 204
    upload_app.config["VIDEO_UPLOAD_EXPIRE_HOURS"] = 0.0001  # 0.36 s
    time.sleep(0.5)
    token_of(editor, episode_id)  # the page expires what is old
    assert list(Path(upload_app.config["VIDEO_UPLOAD_DIR"]).iterdir()) == []
    assert editor.head(location, headers=TUS).status_code == 404


def test_the_job_workers_recovery_expires_uploads_nobody_visits(upload_app: Flask,
                                                                signed_in: Callable[[Role], FlaskClient],
                                                                episode_id: int):
    from app.jobs.worker import recover

    editor = signed_in(Role.EDITOR)
    token = token_of(editor, episode_id)
    location = create(editor, episode_id, token, 100).headers["Location"]
    assert patch(editor, location, token, 0, b"x" * 10).status_code == 204
    recover(upload_app)
    assert editor.head(location, headers=TUS).status_code == 200  # written to just now: kept
    upload_app.config["VIDEO_UPLOAD_EXPIRE_HOURS"] = 0.0001  # 0.36 s
    time.sleep(0.5)
    recover(upload_app)  # nobody opened a page or made an upload meanwhile
    assert editor.head(location, headers=TUS).status_code == 404
    assert list(Path(upload_app.config["VIDEO_UPLOAD_DIR"]).iterdir()) == []


def test_metadata_is_read_as_tus_writes_it():
    assert parse_metadata("filename U2VyaWEgMS5tcDQ=,filetype dmlkZW8vbXA0,flag") == {
        "filename": "Seria 1.mp4", "filetype": "video/mp4", "flag": ""}


def test_who_may_call_the_upload(upload_app: Flask, signed_in: Callable[[Role], FlaskClient], episode_id: int,
                                 accounts: dict[Role, int]):
    """Every address of the upload: anonymous and viewer refused (a page is sent to sign in; a script's call is told
    401 in words, never redirected), editor and administrator let in."""
    editor = signed_in(Role.EDITOR)
    token = token_of(editor, episode_id)
    location = create(editor, episode_id, token, 100).headers["Location"]
    viewer = upload_app.test_client()
    with upload_app.app_context(), transaction():
        account = db.session.get_one(Account, accounts[Role.VIEWER])
        held = {"id": account.id, "session": open_admin_session(account), "fingerprint": fingerprint(account)}
    with viewer.session_transaction() as session:
        session[SESSION_KEY] = held
    calls: list[tuple[str, str, dict[str, str]]] = [
        ("GET", f"/admin/uploads/episode/{episode_id}/", {}),
        ("GET", "/admin/uploads/token", {"X-Requested-With": "XMLHttpRequest"}),
        ("GET", f"/admin/uploads/episode/{episode_id}/job", {"X-Requested-With": "XMLHttpRequest"}),
        ("POST", f"/admin/uploads/episode/{episode_id}/tus/", {**TUS, "Upload-Length": "100"}),
        ("HEAD", location, TUS), ("GET", location, TUS),
        ("PATCH", location, {**TUS, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"}),
        ("POST", f"{location}/finish", {"X-Requested-With": "XMLHttpRequest"}),
        ("DELETE", location, TUS)]
    for who, client in (("anonymous", upload_app.test_client()), ("viewer", viewer)):
        for method, url, headers in calls:
            response = client.open(url, method=method, headers=headers, data=b"x" if method == "PATCH" else None)
            if headers:
                assert response.status_code == 401, (who, method, url)
                if method != "HEAD":
                    assert "войдите в редакцию" in response.get_data(as_text=True)
            else:
                assert response.status_code == 302 and "/admin/session/" in response.headers["Location"]
    assert Path(upload_app.config["VIDEO_UPLOAD_DIR"], location.rsplit("/", 1)[1] + ".part").stat().st_size == 0
    for role in (Role.EDITOR, Role.ADMIN):
        client = signed_in(role)
        token = token_of(client, episode_id)
        own = create(client, episode_id, token, 4).headers["Location"]
        answers = [client.get("/admin/uploads/token", headers={"X-Requested-With": "XMLHttpRequest"}).status_code,
                   client.get(f"/admin/uploads/episode/{episode_id}/job").status_code,
                   client.head(own, headers=TUS).status_code, client.get(own).status_code,
                   patch(client, own, token, 0, b"abcd").status_code,
                   finish(client, own, token).status_code,  # four bytes are no film: 422
                   create(client, episode_id, token, 4).status_code]
        last = client.post(f"/admin/uploads/episode/{episode_id}/tus/", headers={
            **TUS, "X-CSRF-Token": token, "Upload-Length": "4"}).headers["Location"]
        answers.append(client.delete(last, headers={**TUS, "X-CSRF-Token": token}).status_code)
        assert answers == [200, 200, 200, 200, 204, 422, 201, 204], role


def test_the_upload_folder_is_not_the_jobs(upload_app: Flask):
    """The recovery's sweep removes files under JOB_FILES_DIR: uploads under way wait elsewhere."""
    uploads = Path(upload_app.config["VIDEO_UPLOAD_DIR"]).resolve()
    files = Path(upload_app.config["JOB_FILES_DIR"]).resolve()
    assert files not in uploads.parents and uploads != files
    from app.config import Settings

    defaults = Settings()
    assert Path(defaults.JOB_FILES_DIR).resolve() not in Path(defaults.VIDEO_UPLOAD_DIR).resolve().parents
    assert os.path.commonpath([defaults.JOB_FILES_DIR, defaults.VIDEO_UPLOAD_DIR]) != defaults.JOB_FILES_DIR


def test_an_ad_creatives_upload_becomes_its_transcode_ad_job(
        upload_app: Flask, signed_in: Callable[[Role], FlaskClient], tmp_path: Path, accounts: dict[Role, int]):
    data = make_video(tmp_path / "ad.mp4").read_bytes()
    with upload_app.app_context(), transaction():
        creative = AdCreative(title="Чай «Байкал»", advertiser="", duration=30, skip_offset="", click_through_url="")
        db.session.add(creative)
        db.session.flush()
        creative_id = creative.id
    editor = signed_in(Role.EDITOR)
    listing = page(editor.get("/admin/ad_creative/"))
    assert listing.xpath(f"//a[@href='/admin/uploads/creative/{creative_id}/']")  # the row's way to the upload
    response = editor.get(f"/admin/uploads/creative/{creative_id}/")
    assert page(response).xpath("string(//h1)") == "Видео ролика «Чай «Байкал»»"
    token = str(page(response).xpath("//section[@id='video-upload']/@data-token")[0])
    response = editor.post(f"/admin/uploads/creative/{creative_id}/tus/", headers={
        **TUS, "X-CSRF-Token": token, "Upload-Length": str(len(data)), "Upload-Metadata": metadata(filename="ad.mp4")})
    assert response.status_code == 201
    location = response.headers["Location"]
    assert patch(editor, location, token, 0, data).status_code == 204
    answer = finish(editor, location, token).get_json()
    assert answer["message"] == (f"Файл принят: задача №{answer['job_id']} «Перекодирование ролика» поставлена "
                                 "в очередь.")
    with upload_app.app_context():
        job = db.session.get_one(Job, answer["job_id"])
        assert (job.kind, job.subject, job.params["creative_id"], job.account_id) == (
            "transcode_ad", f"creative:{creative_id}", creative_id, accounts[Role.EDITOR])
        assert Path(job.params["file"]).read_bytes() == data
    response = editor.post(f"/admin/uploads/creative/{creative_id}/tus/", headers={
        **TUS, "X-CSRF-Token": token, "Upload-Length": "10"})
    assert (response.status_code, response.get_data(as_text=True)) == (403, (
        f"Для этого ролика уже есть незавершённая задача №{answer['job_id']} (Перекодирование ролика, в очереди): "
        "дождитесь её или отмените, затем загрузите файл снова."))
    anonymous = upload_app.test_client()
    assert anonymous.get(f"/admin/uploads/creative/{creative_id}/").status_code == 302
    assert anonymous.post(f"/admin/uploads/creative/{creative_id}/tus/", headers={
        **TUS, "Upload-Length": "10"}).status_code == 401

