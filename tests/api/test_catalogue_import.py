"""Issue 34: a catalogue imported from a file (app/services/catalogue/imports, ``flask catalogue import``) and exported
to one (``flask catalogue export``), docs/import.md. Bad lines are named by line and field while the good ones go in;
a re-import writes nothing (no statement but reads, no ``updated_at`` moved, no new generation); an update writes
what changed only; what is imported is found by search; an export imports into an empty catalogue as the same file,
in JSON Lines and in CSV alike. Run on SQLite and PostgreSQL (DATABASE_URL)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import event, func, select, update

from app.caching import store
from app.extensions import db
from app.models import Content, ContentPerson, Episode, Person, Season
from app.services.catalogue.imports import export_catalogue, import_catalogue
from tests.api.test_search_api import find, titles

LABEL_TABLES = {"content_types", "countries", "languages", "genres", "tags", "categories", "person_types",
                "voice_authors", "alembic_version"}
FILM = {"kinopoiskId": 501, "imdbId": "tt0000501", "type": "film", "title": "Ветер над Ладогой",
        "originalTitle": "Wind over Ladoga", "year": 1987,
        "alternativeTitles": ["Ветер над Ладожским озером",
                              {"title": "Le vent sur le Ladoga", "language": "fr", "kind": "international"}],
        "description": "Буксир идёт через шторм.", "ageRating": 12,
        "countries": ["ru"], "languages": ["ru"], "genres": ["drama", "Комедия"], "tags": ["sea"],
        "categories": ["drama-films"], "kinopoiskRating": 7.3, "imdbRating": 6.9, "published": True,
        "persons": [{"name": "Анна Морозова", "originalName": "Anna Morozova", "role": "director"},
                    {"name": "Семён Ладожский", "role": "actor", "character": "Капитан"}],
        "media": "titles/veter/master.json"}
SERIES = {"imdbId": "tt0000502", "type": "series", "title": "Северный маяк", "year": 2024, "genres": ["detective"],
          "imdbRating": 7.0,
          "seasons": [{"number": 1, "title": "Сезон 1", "episodes": [
              {"number": 1, "title": "Огонь", "duration": 3000, "media": "/media/titles/mayak/s1e1.json"},
              {"number": 2, "title": "Туман", "media": "https://cdn.example.com/mayak/s1e2.json"}]}]}


def write_jsonl(path: Path, lines: list[object]) -> Path:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)) + "\n"
                            for line in lines), encoding="utf-8")
    return path


def run_import(app, path: Path, **options):
    with app.app_context():
        return import_catalogue(path, media_root=Path(app.config["MEDIA_ROOT"]), **options)


def export(app, fmt: str) -> str:
    from io import StringIO

    out = StringIO()
    with app.app_context():
        export_catalogue(out, fmt)  # type: ignore[arg-type]
    return out.getvalue()


def empty_catalogue(app) -> None:
    """Every content, person and what hangs on them gone; the labels (types, genres, countries…) kept."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            if table.name not in LABEL_TABLES:
                db.session.execute(table.delete())
        db.session.commit()


def posters(app) -> set[str]:
    folder = Path(app.config["MEDIA_ROOT"]) / "posters"
    return {path.name for path in folder.iterdir()} if folder.is_dir() else set()


def snapshot(app) -> dict[str, object]:
    with app.app_context():
        counts = {model.__name__: db.session.scalar(select(func.count()).select_from(model))
                  for model in (Content, Season, Episode, Person, ContentPerson)}
        changed = dict(db.session.execute(select(Content.id, Content.updated_at)).all())
        return {"counts": counts, "updated_at": changed, "generation": store().generation()}


def test_bad_lines_are_named_by_line_and_field_and_the_good_ones_go_in(app, demo_catalogue, tmp_path):
    path = write_jsonl(tmp_path / "catalogue.jsonl", [
        FILM,
        {**FILM, "kinopoiskId": 601, "imdbId": None, "genres": ["драмма", "drama"], "countries": ["zz"]},
        '{"kinopoiskId": 602, "title": "Оборвано',
        {"type": "film", "title": "Без ключа"},
        {"kinopoiskId": 603, "type": "film", "title": "Год словами", "year": "давно", "ageRating": 15},
        "",
        {"kinopoiskId": 604, "type": "series", "title": "Плохой путь", "seasons": [
            {"number": 1, "episodes": [{"number": 1, "media": "titles/ok/master.json"},
                                       {"number": 2, "media": "../secret/master.json"}]}]},
        {"kinopoiskId": 605, "type": "film"},
        {"kinopoiskId": 501, "type": "film", "title": "Повтор"},
        {"kinopoiskId": 606, "type": "film", "title": "Лишнее поле", "rating": 5},
        SERIES,
        {"kinopoiskId": 607, "type": "film", "title": "Двойник", "alternativeTitles": ["Dvoynik", "DVOYNIK"]},
    ])
    report = run_import(app, path)
    assert [(error.line, error.field) for error in report.errors] == [
        (2, "countries"), (2, "genres"), (3, None), (4, "kinopoiskId"), (5, "year"), (5, "ageRating"),
        (7, "seasons[1].episodes[2].media"), (8, "title"), (9, "kinopoiskId"), (10, "rating"),
        (12, "alternativeTitles")]
    messages = {(error.line, error.field): error.message for error in report.errors}
    assert messages[(3, None)] == "Строка не читается как JSON: ошибка у символа 40"
    assert messages[(2, "genres")] == "Неизвестный жанр: «драмма»"
    assert messages[(2, "countries")] == "Неизвестная страна: «zz»"
    assert messages[(5, "year")] == "Ожидается целое число"
    assert messages[(8, "title")] == "Обязательное поле для нового контента"
    assert messages[(9, "kinopoiskId")] == "kinopoiskId 501 уже был в строке 1"
    assert messages[(10, "rating")] == "Неизвестное поле"
    assert messages[(12, "alternativeTitles")] == "Другое название «DVOYNIK» указано дважды."
    assert (report.lines, report.created, report.updated, report.unchanged) == (11, 2, 0, 0)  # the blank line is none
    with app.app_context():
        film = db.session.scalars(select(Content).where(Content.kinopoisk_id == 501)).one()
        assert (film.title, film.year, film.content_type.slug, film.published) == ("Ветер над Ладогой", 1987, "film",
                                                                                   True)
        assert [genre.slug for genre in film.genres] == ["comedy", "drama"]  # a Russian title names a genre too
        assert [(alt.title, alt.language, alt.kind.value, alt.position) for alt in film.alternative_titles] == [
            ("Ветер над Ладожским озером", None, "other", 0), ("Le vent sur le Ladoga", "fr", "international", 1)]
        assert [(part.person.name, part.person_type.slug, part.character) for part in film.persons] == [
            ("Анна Морозова", "director", None), ("Семён Ладожский", "actor", "Капитан")]
        # the demo's Anna Morozova (the same name and original name), not a new one
        assert db.session.scalar(select(func.count()).select_from(Person).where(Person.name == "Анна Морозова")) == 1
        assert [episode.master_file_path for episode in film.episodes] == ["/media/titles/veter/master.json"]
        assert film.reach == "everywhere" and film.relevance > 0  # kept as a flush through the ORM would
        series = db.session.scalars(select(Content).where(Content.imdb_id == "tt0000502")).one()
        assert [(s.order, [(e.order, e.title, e.master_file_path) for e in s.episodes]) for s in series.seasons] == [
            (1, [(1, "Огонь", "/media/titles/mayak/s1e1.json"), (2, "Туман", "https://cdn.example.com/mayak/s1e2.json")])]
        assert db.session.scalar(select(func.count()).select_from(Content).where(
            Content.kinopoisk_id.in_([601, 602, 603, 604, 605, 606, 607]))) == 0


def test_a_line_with_a_wrong_field_is_checked_against_the_catalogue_too(app, demo_catalogue, tmp_path):
    """One run names every error of a line: its fields' (a year out of range) and the catalogue's (an unknown type or
    genre, a title a new content needs), and stores nothing for it (not even its poster file); its id still counts as
    seen, so a later line repeating it is named as a repeat."""
    Image.new("RGB", (200, 300), (40, 40, 200)).save(tmp_path / "wrong.png")
    path = write_jsonl(tmp_path / "catalogue.jsonl", [
        {"kinopoiskId": 701, "type": "spaceship", "year": 3000, "genres": ["драмма"], "poster": "wrong.png"},
        {"kinopoiskId": 702, "type": "film", "title": "x" * 300},  # the title's own error, not "required" too
        {"type": "film", "year": "давно"},  # no key: new or stored is not known, so nothing is said as required
        {"kinopoiskId": 703, "type": "film", "title": "Снова", "year": 3000},
        {"kinopoiskId": 703, "type": "film", "title": "Снова"},
        {"kinopoiskId": 1000001, "title": "Без типа", "ageRating": 15},  # a stored content: no type needed
    ])
    before = posters(app)
    report = run_import(app, path)
    assert [(error.line, error.field, error.message) for error in report.errors] == [
        (1, "year", "Должно быть от 1870 до 2100"),
        (1, "title", "Обязательное поле для нового контента"),
        (1, "type", "Неизвестный тип контента: «spaceship»"),
        (1, "genres", "Неизвестный жанр: «драмма»"),
        (2, "title", "Длина от 1 до 255 символов"),
        (3, "year", "Ожидается целое число"),
        (3, "kinopoiskId", "Нужен kinopoiskId или imdbId: по ним контент находится при повторном импорте"),
        (4, "year", "Должно быть от 1870 до 2100"),
        (5, "kinopoiskId", "kinopoiskId 703 уже был в строке 4"),
        (6, "ageRating", "Допустимые значения: 0, 6, 12, 16, 18"),
    ]
    assert (report.lines, report.created, report.updated, report.unchanged) == (6, 0, 0, 0)
    assert posters(app) == before
    assert snapshot(app)["counts"]["Content"] == 5  # type: ignore[index]


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_re_import_changes_nothing(app, demo_catalogue, tmp_path, fmt):
    path = tmp_path / f"catalogue.{fmt}"
    path.write_text(export(app, fmt), encoding="utf-8")
    before = snapshot(app)
    writes: list[str] = []

    def seen(_conn, _cursor, statement, *_args):
        if not statement.lstrip().upper().startswith(("SELECT", "PRAGMA", "SAVEPOINT", "RELEASE")):
            writes.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", seen)
        try:
            report = import_catalogue(path)
        finally:
            event.remove(db.engine, "before_cursor_execute", seen)
    assert (report.lines, report.created, report.updated, report.unchanged, report.errors) == (5, 0, 0, 5, [])
    assert writes == []
    assert snapshot(app) == before


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_update_writes_what_changed_and_leaves_out_what_the_line_leaves_out(app, demo_catalogue, tmp_path, fmt):
    run_import(app, write_jsonl(tmp_path / "first.jsonl", [FILM, SERIES]))
    old = datetime(2020, 1, 1, tzinfo=UTC)
    with app.app_context():
        db.session.execute(update(Content).values(updated_at=old))
        db.session.commit()
        generation = store().generation()
    lines = [{"kinopoiskId": 501, "title": "Ветер над Онегой", "genres": ["thriller"]},
             {"imdbId": "tt0000502", "seasons": [{"number": 1, "episodes": [{"number": 3, "title": "Шторм"}]}]},
             {"kinopoiskId": 1000003, "year": 2019}]  # the demo's «Закрытый показ», as it is
    if fmt == "jsonl":
        path = write_jsonl(tmp_path / "second.jsonl", lines)
    else:
        path = tmp_path / "second.csv"
        path.write_text("kinopoiskId,imdbId,title,genres,seasons,year\n"
                        "501,,Ветер над Онегой,thriller,,\n"
                        ',tt0000502,,,"[{""number"": 1, ""episodes"": [{""number"": 3, ""title"": ""Шторм""}]}]",\n'
                        "1000003,,,,,2019\n", encoding="utf-8")
    report = run_import(app, path)
    assert (report.created, report.updated, report.unchanged, report.errors) == (0, 2, 1, [])
    with app.app_context():
        film = db.session.scalars(select(Content).where(Content.kinopoisk_id == 501)).one()
        assert (film.title, [g.slug for g in film.genres], film.year, film.original_title, [t.slug for t in film.tags],
                len(film.persons)) == ("Ветер над Онегой", ["thriller"], 1987, "Wind over Ladoga", ["sea"], 2)
        series = db.session.scalars(select(Content).where(Content.imdb_id == "tt0000502")).one()
        assert [(e.order, e.title, e.duration) for e in series.seasons[0].episodes] == [
            (1, "Огонь", 3000), (2, "Туман", None), (3, "Шторм", None)]  # added, none touched
        moved = dict(db.session.execute(select(Content.kinopoisk_id, Content.updated_at)).all())
        assert moved[501] > old and series.updated_at > old
        assert {kp for kp, at in moved.items() if at > old} == {501, None}  # the series has no Kinopoisk id
        assert moved[1000003] == old  # unchanged: not written
        assert store().generation() != generation  # the catalogue's caches are gone


def test_an_import_is_found_by_search_and_a_rename_too(app, client, demo_catalogue, tmp_path):
    run_import(app, write_jsonl(tmp_path / "catalogue.jsonl", [FILM, SERIES]))
    assert titles(find(client, "ладогой")) == ["Ветер над Ладогой"]
    assert titles(find(client, "северный маяк"))[0] == "Северный маяк"
    assert titles(find(client, "le vent sur le ladoga")) == ["Ветер над Ладогой"]  # an alternative title
    assert titles(find(client, "буксир")) == ["Ветер над Ладогой"]  # its description
    run_import(app, write_jsonl(tmp_path / "renamed.jsonl", [
        {"kinopoiskId": 501, "title": "Ветер над Онегой", "description": "Ледокол идёт через льды."}]))
    assert titles(find(client, "онегой")) == ["Ветер над Онегой"]
    assert titles(find(client, "ледокол")) == ["Ветер над Онегой"]
    assert titles(find(client, "буксир")) == []  # the old description left the index (the slug stays: old links)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_export_imports_into_an_empty_catalogue_as_the_same_file(app, demo_catalogue, tmp_path, fmt):
    run_import(app, write_jsonl(tmp_path / "more.jsonl", [FILM, SERIES]))
    first = export(app, fmt)
    assert len(first.splitlines()) == 7 + (fmt == "csv")
    assert ('"imdbRating":7.0' if fmt == "jsonl" else ",7.0,") in first  # as a float on both databases
    assert "Le vent sur le Ladoga" in first  # the alternative titles too
    empty_catalogue(app)
    path = tmp_path / f"export.{fmt}"
    path.write_text(first, encoding="utf-8")
    report = run_import(app, path)
    assert (report.created, report.errors) == (7, [])
    assert export(app, fmt) == first


def test_a_poster_file_beside_the_import_goes_to_the_media_library(app, demo_catalogue, tmp_path):
    Image.new("RGB", (200, 300), (200, 40, 40)).save(tmp_path / "poster.png")
    path = write_jsonl(tmp_path / "catalogue.jsonl", [
        {**FILM, "poster": "poster.png"}, {**SERIES, "poster": "../elsewhere.png"}])
    report = run_import(app, path)
    assert [(error.line, error.field) for error in report.errors] == [(2, "poster")]
    with app.app_context():
        address = db.session.scalar(select(Content.poster_url).where(Content.kinopoisk_id == 501))
    assert address is not None and address.startswith("/media/posters/") and address.endswith(".png")
    stored = Path(app.config["MEDIA_ROOT"]) / address.removeprefix("/media/")
    with Image.open(stored) as picture:
        assert picture.size == (200, 300)
    again = run_import(app, write_jsonl(tmp_path / "again.jsonl", [{**FILM, "poster": "poster.png"}]))
    assert (again.updated, again.unchanged) == (0, 1)


def test_the_command_reports_in_russian_and_fails_when_a_line_failed(app, demo_catalogue, tmp_path):
    runner = app.test_cli_runner()
    bad = write_jsonl(tmp_path / "bad.jsonl", [FILM, {**SERIES, "genres": ["драмма"], "year": 3000}])
    result = runner.invoke(args=["catalogue", "import", str(bad), "--dry-run"])
    assert result.exit_code == 1, result.output
    assert ("Проверка без записи: строк 2, создано 1, обновлено 0, без изменений 0, с ошибками 1 (ошибок 2)\n"
            in result.output)  # lines counted as lines, the errors apart
    assert "строка 2, поле genres: Неизвестный жанр: «драмма»" in result.output
    assert snapshot(app)["counts"]["Content"] == 5  # type: ignore[index]  # a dry run keeps nothing
    result = runner.invoke(args=["catalogue", "import", str(bad)])
    assert result.exit_code == 1
    assert "строк 2, создано 1, обновлено 0, без изменений 0, с ошибками 1 (ошибок 2)\n" in result.output
    good = write_jsonl(tmp_path / "good.jsonl", [FILM, SERIES])
    result = runner.invoke(args=["catalogue", "import", str(good)])
    assert result.exit_code == 0, result.output
    assert "строк 2, создано 1, обновлено 0, без изменений 1, с ошибками 0\n" in result.output
    out = tmp_path / "out.csv"
    result = runner.invoke(args=["catalogue", "export", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == export(app, "csv")
    wrong = tmp_path / "catalogue.xml"
    wrong.write_text("<catalogue/>", encoding="utf-8")
    result = runner.invoke(args=["catalogue", "import", str(wrong)])
    assert result.exit_code == 1
    assert "Файл импорта должен быть .jsonl, .ndjson или .csv" in result.output


def test_persons_are_found_by_kinopoisk_id_else_by_name_and_original_name(app, demo_catalogue, tmp_path):
    namesakes = [{"name": "Иван Петров", "role": "actor", "kinopoiskId": 9001},
                 {"name": "Иван Петров", "role": "director", "kinopoiskId": 9002}]
    path = write_jsonl(tmp_path / "people.jsonl", [
        {"kinopoiskId": 701, "type": "film", "title": "Тёзки", "persons": namesakes},
        {"kinopoiskId": 702, "type": "film", "title": "Снова тёзки", "persons": [
            {"name": "Иван Петров", "originalName": "Ivan Petrov", "role": "actor"},
            {"name": "Иван Петров", "role": "writer", "kinopoiskId": 9001}]},
        {"kinopoiskId": 703, "type": "film", "title": "Два Андреева", "persons": [  # two namesakes: two persons
            {"name": "Владимир Андреев", "role": "actor"}, {"name": "Владимир Андреев", "role": "actor"}]}])

    def credits() -> dict[int, list[tuple[str, str | None, int | None]]]:
        """Each content's credited persons: name, original name, Kinopoisk id."""
        with app.app_context():
            rows = db.session.execute(
                select(Content.kinopoisk_id, Person.name, Person.original_name, Person.kinopoisk_id)
                .join(ContentPerson, ContentPerson.content_id == Content.id)
                .join(Person, Person.id == ContentPerson.person_id)
                .where(Content.kinopoisk_id.in_([701, 702, 703]))
                .order_by(Content.kinopoisk_id, ContentPerson.position))
            found: dict[int, list[tuple[str, str | None, int | None]]] = {}
            for content, name, original, kinopoisk in rows:
                found.setdefault(content, []).append((name, original, kinopoisk))
            return found

    assert run_import(app, path).created == 3
    expected = {701: [("Иван Петров", None, 9001), ("Иван Петров", None, 9002)],
                702: [("Иван Петров", "Ivan Petrov", None), ("Иван Петров", None, 9001)],  # the demo's Ivan Petrov
                703: [("Владимир Андреев", None, None), ("Владимир Андреев", None, None)]}
    assert credits() == expected
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Person).where(Person.name == "Иван Петров")) == 3
    again = run_import(app, path)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 3)
    assert credits() == expected
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Person)
                                 .where(Person.name == "Владимир Андреев")) == 2


def test_the_documented_samples_import_and_say_the_same_in_csv_and_json_lines(app, demo_catalogue):
    docs = Path(__file__).resolve().parents[2] / "docs"
    report = run_import(app, docs / "import-sample.jsonl")
    assert (report.lines, report.created, report.updated, report.unchanged, report.errors) == (3, 2, 1, 0, [])
    again = run_import(app, docs / "import-sample.csv")
    assert (again.lines, again.created, again.updated, again.unchanged, again.errors) == (3, 0, 0, 3, [])


def test_bad_csv_rows_are_named_by_row_and_column_and_a_wrong_header_refuses_the_file(app, demo_catalogue, tmp_path):
    path = tmp_path / "catalogue.csv"
    path.write_text("kinopoiskId,type,title,genres,persons\n"
                    '801,film,Испорченная ячейка,драмма,"[{""name"": ""Анна"""\n'
                    "802,film,Лишняя ячейка,drama,,сверх\n"
                    "803,film,Неизвестный жанр,драмма;drama,\n"
                    '804,film,"Хорошая, с запятой",drama;comedy,'
                    '"[{""name"": ""Анна Морозова"", ""role"": ""director""}]"\n',
                    encoding="utf-8")
    report = run_import(app, path)
    assert [(error.line, error.field, error.message) for error in report.errors] == [
        # a cell that does not read, and the row's other cells checked all the same (one run names every error)
        (2, "persons", "Ячейка не читается как JSON: ошибка у символа 17"), (2, "genres", "Неизвестный жанр: «драмма»"),
        (3, None, "В строке 6 ячеек, в заголовке 5"), (4, "genres", "Неизвестный жанр: «драмма»")]
    assert (report.lines, report.created) == (4, 1)
    with app.app_context():
        film = db.session.scalars(select(Content).where(Content.kinopoisk_id == 804)).one()
        assert (film.title, [g.slug for g in film.genres], [p.person.name for p in film.persons]) == (
            "Хорошая, с запятой", ["comedy", "drama"], ["Анна Морозова"])
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("kinopoiskId,title,rating\n805,Рейтинг не тот,5\n", encoding="utf-8")
    report = run_import(app, wrong)
    assert [(error.line, error.field, error.message) for error in report.errors] == [
        (1, None, "Неизвестные столбцы: rating")]
    assert (report.lines, report.created) == (1, 0)
