"""Identify (issue 31): a title's data from TMDB by its IMDb id, shown beside the current values, accepted field by
field; against a local fake of TMDB's API (tests/admin/tmdb_fake.py), never the internet. A slow, unreachable or
unconfigured provider is said in Russian and changes nothing."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from app.extensions import db
from app.models import AuditEntry, Content, Role
from app.transaction import transaction
from tests.admin.helpers import csrf_of, flashes, page
from tests.admin.tmdb_fake import KEY, SLOW_IMDB, Handler, fake_tmdb


@pytest.fixture
def editor(demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


@pytest.fixture
def tmdb(app: Flask) -> Iterator[str]:
    with fake_tmdb() as url:
        app.config.update(TMDB_API_URL=url, TMDB_API_KEY=KEY, IDENTIFY_TIMEOUT_SECONDS=1)
        Handler.asked.clear()
        yield url


def rows(response: object) -> dict[str, tuple[str, str]]:
    shown = page(response)  # type: ignore[arg-type]
    return {row.get("data-field"): (" ".join(row.xpath("string(td[@class='editorial-current'])").split()),
                                    " ".join(row.xpath("string(td[@class='editorial-fetched'])").split()))
            for row in shown.xpath("//form[contains(@class, 'editorial-identify')]//tr[@data-field]")}


def snapshot(app: Flask, content_id: int) -> tuple[object, ...]:
    with app.app_context():
        content = db.session.get(Content, content_id)
        return (content.title, content.original_title, content.description, content.year,
                [g.slug for g in content.genres], [c.slug for c in content.countries], content.poster_url)


def test_the_fetched_values_stand_beside_the_current_and_the_ticked_ones_are_taken(app: Flask, editor: FlaskClient,
                                                                                   tmdb: str):
    url = "/admin/content/identify/?id=1"
    shown = rows(editor.get(url))
    assert shown["title"] == ("Долгая дорога домой", "Долгий путь домой")
    assert shown["year"] == ("2021", "2020")
    assert shown["genres"] == ("Приключения, Драма", "драма, приключения, вестерн")
    assert shown["countries"] == ("Россия", "Россия, Франция")
    assert shown["poster_url"][1] == "https://image.tmdb.org/t/p/w500/abc123.jpg"
    assert any(path.startswith("/3/movie/550?") and "language=ru-RU" in path for path in Handler.asked)
    assert "вестерн" in page(editor.get(url)).text_content()  # said not to be in the catalogue's genres

    before = snapshot(app, 1)
    answer = editor.post(url, data={"field": ["title", "year"], "csrf_token": csrf_of(editor, url)})
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/admin/content/edit/?id=1")
    assert "Принято из TMDB: Название, Год." in flashes(editor.get("/admin/content/"))
    after = snapshot(app, 1)
    assert after[0] == "Долгий путь домой" and after[3] == 2020
    assert after[1:3] == before[1:3] and after[4:] == before[4:]  # what was not ticked stays as it was
    with app.app_context():
        changes = db.session.scalars(select(AuditEntry.changes).where(AuditEntry.object_type == "contents")).all()
        assert changes == [{"title": ["Долгая дорога домой", "Долгий путь домой"], "year": [2021, 2020]}]


def test_a_series_is_found_among_tvs_results(editor: FlaskClient, tmdb: str):
    shown = rows(editor.get("/admin/content/identify/?id=2"))
    assert shown["title"] == ("Тихая гавань", "Тихая гавань") and shown["year"][1] == "2023"


def problem_of(editor: FlaskClient, content_id: int) -> str:
    return " ".join(page(editor.get(f"/admin/content/identify/?id={content_id}")).xpath(
        "string(//div[@id='identify-problem'])").split())


def test_a_slow_provider_is_said_and_changes_nothing(app: Flask, editor: FlaskClient, tmdb: str):
    with app.app_context(), transaction():
        db.session.get(Content, 3).imdb_id = SLOW_IMDB
    before = snapshot(app, 3)
    assert problem_of(editor, 3) == "TMDB не ответил вовремя: попробуйте позже."
    url = "/admin/content/identify/?id=3"
    editor.post(url, data={"field": ["title"], "csrf_token": csrf_of(editor, url)})
    assert snapshot(app, 3) == before


def test_an_unreachable_provider_unconfigured_or_without_an_imdb_id(app: Flask, editor: FlaskClient):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    assert problem_of(editor, 1).startswith("Поиск данных не настроен")
    app.config.update(TMDB_API_URL=f"http://127.0.0.1:{port}/3", TMDB_API_KEY=KEY)
    assert problem_of(editor, 1).startswith("Не удалось связаться с TMDB")
    with app.app_context(), transaction():
        db.session.get(Content, 1).imdb_id = None
    assert "ищет только по id IMDb" in problem_of(editor, 1)  # a Kinopoisk id alone: TMDB cannot read it


def test_a_wrong_key_and_an_unknown_id(app: Flask, editor: FlaskClient, tmdb: str):
    app.config["TMDB_API_KEY"] = "wrong-key"
    assert problem_of(editor, 1) == "TMDB не принял ключ API: проверьте настройки."
    app.config["TMDB_API_KEY"] = KEY
    assert problem_of(editor, 4) == "TMDB не знает тайтл с id tt0000004."
