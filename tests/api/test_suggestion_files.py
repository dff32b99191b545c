"""The suggestion index shared by a machine's processes (app/suggestion_files.py): one makes a generation's index, the
others read its file; a file is read only as an index, and only the index its name says."""

from __future__ import annotations

import logging
import os
import pickle
import stat
import threading
import time
from pathlib import Path

import pytest

from app import suggestion_files, suggestions
from app.caching import invalidate_catalogue, store
from app.database import unhurried
from app.extensions import db
from app.services.catalogue.filters import list_request
from app.services.search import suggest
from app.services.search.index import reindex
from app.services.search.query import search


@pytest.fixture
def shared(demo_catalogue, tmp_path):
    """The demo catalogue indexed, a generation counted (0 is never shared), and a folder of the test's own."""
    app = demo_catalogue
    with app.app_context(), unhurried(app, db.engine):
        reindex()
        db.session.commit()
        invalidate_catalogue()
    app.config["SUGGESTION_INDEX_DIR"] = str(tmp_path / "suggestions")
    suggestions.forget()
    yield app
    suggestions.forget()


def shared_or_built() -> tuple[suggest.SuggestionIndex, str]:
    return suggestions.shared_or_built(db.engine.url.render_as_string(), store().generation())


def counting_builds(monkeypatch, pause: float = 0.0) -> list[int]:
    """Counts the indexes made from the database from now on (each taking ``pause`` longer)."""
    made: list[int] = []
    real = suggestions.build

    def build(generation: int) -> suggest.SuggestionIndex:
        made.append(generation)
        time.sleep(pause)
        return real(generation)

    monkeypatch.setattr(suggestions, "build", build)
    return made


def test_a_process_reads_the_index_another_made(shared, monkeypatch):
    with shared.test_request_context():
        made, how = shared_or_built()
        assert how == "made"
        path = suggestion_files.place(made.database, made.generation)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700

        builds = counting_builds(monkeypatch)
        read, how = shared_or_built()  # another process: this one's own index forgotten, the file there
        assert how == f"read from {path.name}" and builds == []
        assert read == made and read is not made
        request = list_request({"page": 1, "page_size": 5}, country=None)
        for query in ("тихая гав", "долгая д", "quiet harbour", "капитан"):
            from_file = search(query, request, read.generation, index=read)
            from_database = search(query, request, read.generation)
            assert [item.id for item in from_file.page.items] == [item.id for item in from_database.page.items]
        assert [item.title for item in search("тихая гав", request, read.generation, index=read).page.items] == [
            "Тихая гавань"]


def test_processes_asking_at_once_make_it_once(shared, monkeypatch):
    builds = counting_builds(monkeypatch, pause=0.5)
    answers: list[str] = []

    def ask() -> None:
        with shared.test_request_context():
            answers.append(shared_or_built()[1])

    threads = [threading.Thread(target=ask) for _ in range(3)]  # each its own lock file descriptor, as processes
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(builds) == 1
    assert sorted(answers)[0] == "made" and all(how.startswith("read from") for how in sorted(answers)[1:])


class Payload:
    def __reduce__(self):
        return os.system, (f"touch {MARK}",)


MARK = Path("/tmp/suggestion-file-payload-ran")  # noqa: S108 - where the payload would leave its mark


def test_a_file_naming_anything_else_is_refused_and_the_index_made(shared, monkeypatch, caplog):
    MARK.unlink(missing_ok=True)
    with shared.test_request_context():
        path = suggestion_files.place(db.engine.url.render_as_string(), store().generation())
        path.parent.mkdir(parents=True)
        path.write_bytes(pickle.dumps(Payload()))
        builds = counting_builds(monkeypatch)
        with caplog.at_level(logging.WARNING):
            index, how = shared_or_built()
    assert how == "made" and len(builds) == 1 and index.size > 0
    assert not MARK.exists()
    assert "may not name posix.system" in caplog.text
    assert suggestion_files.read(path, index.database, index.generation) == index  # written over with the index


def test_a_file_of_another_index_is_not_read(shared, monkeypatch):
    with shared.test_request_context():
        made, _ = shared_or_built()
        database, generation = made.database, made.generation
        path = suggestion_files.place(database, generation)
        assert suggestion_files.place(database, 0) is None  # generation 0 names no state of the catalogue
        others = {suggestion_files.place(database, generation + 1), suggestion_files.place(f"{database}-2", generation)}
        assert path not in others and None not in others
        assert database.split("@")[-1] not in path.name  # a digest, never the address
        os.replace(path, suggestion_files.place(database, generation + 1))  # as if it were the next generation's
        assert suggestion_files.read(suggestion_files.place(database, generation + 1), database, generation + 1) is None
        shared.config["SUGGESTION_INDEX_DIR"] = ""
        assert suggestion_files.place(database, generation) is None  # not shared: each process makes its own
        builds = counting_builds(monkeypatch)
        assert shared_or_built()[1] == "made" and len(builds) == 1


def test_the_newest_two_generations_are_kept(shared):
    with shared.test_request_context():
        first = store().generation()
        paths = []
        for _ in range(3):
            index, how = shared_or_built()
            assert how == "made"
            paths.append(suggestion_files.place(index.database, index.generation))
            time.sleep(0.01)  # (their times apart)
            invalidate_catalogue()
        assert store().generation() != first
        assert [path.exists() for path in paths] == [False, True, True]
        assert not paths[0].with_suffix(".lock").exists()


def test_another_databases_files_go_a_day_old(shared):
    with shared.test_request_context():
        index, _ = shared_or_built()
        folder = suggestion_files.place(index.database, index.generation).parent
        old = folder / f"0123456789abcdef-5-{suggestion_files.code_stamp()}.index"
        recent = folder / "fedcba9876543210-7-x.index"
        for path in (old, recent, old.with_suffix(".lock")):
            path.write_bytes(b"")
        day_ago = time.time() - suggestion_files.OTHERS_SECONDS - 60
        os.utime(old, (day_ago, day_ago))
        invalidate_catalogue()
        shared_or_built()
        assert not old.exists() and not old.with_suffix(".lock").exists() and recent.exists()


def test_a_folder_that_cannot_be_used_leaves_each_process_its_own(shared, tmp_path, caplog):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    shared.config["SUGGESTION_INDEX_DIR"] = str(blocked / "suggestions")
    with shared.test_request_context(), caplog.at_level(logging.WARNING):
        index, how = shared_or_built()
    assert how == "made" and index.size > 0
    assert "cannot be used" in caplog.text


def test_every_index_a_process_gets_is_logged(shared, caplog):
    from app.http.background import drain_jobs

    shared.config["SUGGESTION_INDEX"] = True
    with shared.test_request_context(), caplog.at_level(logging.INFO, logger=shared.logger.name):
        generation = store().generation()
        assert suggestions.current(generation) is None  # no worker's start said where to tell: the app's log
        drain_jobs()
        assert suggestions.current(generation).generation == generation
    assert f"suggestion index of generation {generation} made: " in caplog.text


def test_a_workers_later_indexes_are_said_where_its_first_was(shared, monkeypatch):
    from app.http.background import drain_jobs

    said: list[str] = []
    shared.config["SUGGESTION_INDEX"] = True
    monkeypatch.setattr(suggestions, "_said", [])
    suggestions.warm(shared, said.append)  # a worker's start: gunicorn's log
    drain_jobs()
    with shared.test_request_context():
        invalidate_catalogue()  # an editor's change, the rebuild's interval passed
        suggestions._began.clear()
        generation = store().generation()
        assert suggestions.current(generation) is None
        drain_jobs()
    assert len(said) == 2 and said[1].startswith(f"suggestion index of generation {generation} made: ")


def test_a_kept_index_is_left_out_of_collections_and_freed_once_dropped(shared):
    import gc
    import weakref

    from app.http.background import drain_jobs

    class Cycle:
        pass

    shared.config["SUGGESTION_INDEX"] = True
    with shared.test_request_context():
        first = store().generation()
        assert suggestions.current(first) is None
        drain_jobs()
        index = suggestions.current(first)
        assert index is not None and gc.get_freeze_count() > 0
        assert not any(tracked is index.fields for tracked in gc.get_objects())  # frozen: no full collection walks it
        held = Cycle()
        held.itself = held  # garbage only a collection frees, once the index lets go of it
        index.cards[-1] = held
        suggestions.spare_from_collection()  # frozen with the index, as if it had been there when the index was kept
        assert not any(tracked is held for tracked in gc.get_objects())
        freed = weakref.ref(held)
        del held, index
        invalidate_catalogue()  # an editor's change, the rebuild's interval passed: the next index replaces it
        suggestions._began.clear()
        later = store().generation()
        assert suggestions.current(later) is None
        drain_jobs()
        assert suggestions.current(later).generation == later
    assert freed() is None  # unfrozen and collected by the next making, not kept frozen for good
