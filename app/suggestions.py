"""This process's suggestion index (app/services/search/suggest.py): the latest made per database, and its making by
a background job (app/http/background.py) when a request sees a generation it was not made for, or a worker starts
(deploy/gunicorn.conf.py): one at a time, and at most one every SUGGESTION_REBUILD_SECONDS (a making costs seconds of
CPU at 100,000 titles; an editor saving title after title must not keep every worker making indexes), the database
answering meanwhile. One process of the machine makes a generation's index, the others read it from the file it writes
(app/suggestion_files.py). ``SUGGESTION_INDEX`` false: none (the database answers every search). Once kept, the index
is left out of the garbage collector's passes (``spare_from_collection``)."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import current_app

from app import suggestion_files
from app.caching import store
from app.database import UNAVAILABLE
from app.extensions import db
from app.http.background import start_job
from app.services.search.query import load_vocabulary
from app.services.search.suggest import SuggestionIndex, build, prepare

_lock = threading.Lock()
_made: dict[str, SuggestionIndex] = {}  # per database: the latest made
_making: set[tuple[str, int]] = set()
_began: dict[str, float] = {}  # per database: when its latest making began (time.monotonic())
_said: list[Callable[[str], object]] = []  # where this worker's start said to tell of its indexes (``warm``)


def warm(app: Any, say: Callable[[str], object] | None = None) -> None:
    """Starts making the index of the generation now, when a worker starts: ready before the first suggestion rather
    than after it. ``say`` is told of every index this process gets, this one and later ones (gunicorn's log:
    production prints the application's INFO lines nowhere); without it, the application's log is."""
    if say is not None:
        _said[:] = [say]
    try:
        with app.app_context():
            current(store().generation())
    except Exception:  # a warm-up never stops a worker: the first search starts it again
        app.logger.exception("the suggestion index could not be started")


def current(generation: int) -> SuggestionIndex | None:
    """The index of ``generation`` when it is made; else None, and its making is started in the background (once)."""
    if not current_app.config.get("SUGGESTION_INDEX", True):
        return None
    database = db.engine.url.render_as_string()
    index = _made.get(database)
    if index is not None and index.generation == generation:
        return index
    with _lock:
        if (database, generation) in _making or any(making[0] == database for making in _making):
            return None  # one making per database at a time: the next search after it starts the latest's
        if time.monotonic() - _began.get(database, -1e9) < float(current_app.config["SUGGESTION_REBUILD_SECONDS"]):
            return None  # made a moment ago: a burst of edits costs one making per interval, the database answers
        _making.add((database, generation))
        _began[database] = time.monotonic()

    def make() -> None:
        try:
            began = time.monotonic()
            made, how = shared_or_built(database, generation)
            took = time.monotonic() - began  # the index's own (made or read): what its line says
            try:  # what a misspelt search asks too (query.py ``_known``, ``_correct``): loaded here, not by a request
                load_vocabulary(generation)
            except UNAVAILABLE:  # the index answers without it; the first search that needs it loads it
                current_app.logger.warning("the word list of generation %s could not be read", generation)
            keep(made)
            spare_from_collection()
            tell = next(iter(_said), current_app.logger.info)
            tell(f"suggestion index of generation {generation} {how}: {made.size} contents, {took:.1f} s")
        finally:
            with _lock:
                _making.discard((database, generation))

    start_job(make, f"the suggestion index of generation {generation}")
    return None


def shared_or_built(database: str, generation: int) -> tuple[SuggestionIndex, str]:
    """The index of ``generation``: read from the file another process of this machine wrote, else made from the
    database (and written for the others), app/suggestion_files.py; and which it was."""
    path = suggestion_files.place(database, generation)
    if path is None:
        return build(generation), "made"
    with suggestion_files.claimed(path) as usable:  # (while another process makes it, this one waits for its file)
        if not usable:
            return build(generation), "made"
        found = suggestion_files.read(path, database, generation)
        if found is not None:
            prepare()
            return found, f"read from {path.name}"
        made = build(generation)
        suggestion_files.write(made, path)
        return made, "made"


def keep(index: SuggestionIndex) -> None:
    """``index`` is its database's from now on (the background job; a test that makes one itself)."""
    with _lock:
        _made[index.database] = index


def spare_from_collection() -> None:
    """What is alive now, the index just kept most of it, left out of the cyclic garbage collector's passes
    (``gc.freeze``). A worker's index is most of its objects (267,000 tracked at 100,000 titles), and every full
    collection walked them all with the GIL held: 128 ms in which none of the worker's threads answered, in a mix of
    30,000 reads and searches (docs/search.md "Suggestions"), more with a larger catalogue; frozen, a full collection
    took 2 ms. The objects frozen with the index before are unfrozen first and collected once (here, in the background
    job): an index dropped is freed, never kept frozen for good."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def forget() -> None:
    """Every index dropped (tests)."""
    with _lock:
        _made.clear()
        _began.clear()
