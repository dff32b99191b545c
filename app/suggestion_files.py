"""The suggestion index shared by the processes of one machine (app/suggestions.py): made by one, read by the others.

Every web worker answers suggestions from an index of its own, per catalogue generation. Made from the database, an
index costs 8 s of a core at 100,000 titles (45 s at 1,000,000), once per worker: when a worker starts (gunicorn
replaces each after about 20,000 requests: deploy/gunicorn.conf.py) and after each change to the catalogue. Meanwhile
its suggestions are the database's, and the making takes a core from the requests. So the first process to need a
generation's index makes it, under a lock, and writes it to ``SUGGESTION_INDEX_DIR``; every other process waits for
that lock, then reads the file (0.1-0.3 s and 25 MB at 100,000 titles). Empty: each process makes its own.

A file's name says which index it holds: the database's (a digest of its address, never the address, which may hold a
password), the generation's, and the code's that makes and reads indexes (a digest of app/services/search/ and the
Python version). A new release, another database or another generation never reads it. Generation 0 is never written
nor read: it is the generation of a catalogue no change has been counted for since the store began (a new database, an
emptied Redis), so it does not name one state of the catalogue.

A file is read by a restricted unpickler: the index's own classes, arrays, dates and decimals, nothing else. A file that
names anything else, or that cannot be read, is refused (logged), and the index is made from the database. The folder
is made 0700 and each file 0600: they hold the catalogue's searchable text, as the database does. Once a generation is
written, this database's older files go but the newest two, and other databases' a day old."""

from __future__ import annotations

import fcntl
import hashlib
import io
import os
import pickle
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from flask import current_app

from app.config import PROJECT_ROOT
from app.services.search.suggest import SuggestionIndex

SUFFIX = ".index"
KEPT = 2  # a database's files kept: the newest
HALF_WRITTEN_SECONDS = 3600  # a file being written this long ago was left by a process that died
OTHERS_SECONDS = 86_400  # another database's files are removed once this old
READABLE = frozenset({  # what an index file may name: its own classes and the values they hold
    ("app.services.search.suggest", "SuggestionIndex"),
    ("app.services.search.suggest", "_Field"),
    ("app.services.search.memory_filters", "MemoryFilters"),
    ("array", "array"),
    ("array", "_array_reconstructor"),
    ("decimal", "Decimal"),
    ("datetime", "datetime"),
    ("datetime", "timezone"),
    ("datetime", "timedelta"),
})


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in READABLE:
            raise pickle.UnpicklingError(f"an index file may not name {module}.{name}")
        return super().find_class(module, name)


def place(database: str, generation: int) -> Path | None:
    """The file of ``database``'s index of ``generation``; None where indexes are not shared (no folder set, or
    generation 0)."""
    folder = current_app.config.get("SUGGESTION_INDEX_DIR", "")
    if not folder or generation <= 0:
        return None
    return Path(folder) / f"{_digest(database)}-{generation}-{code_stamp()}{SUFFIX}"


@contextmanager
def claimed(path: Path) -> Iterator[bool]:
    """Holds the lock of ``path``'s index (one per file, beside it) for as long as the block runs: one process makes
    it, the others wait here. The system releases it if its holder dies. Yields False where the folder cannot be
    used (not writable, not a folder: logged): the process then makes its own index, as without a folder."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        current_app.logger.warning("the suggestion index folder %s cannot be used: %s", path.parent, error)
        yield False
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield True
    finally:
        os.close(descriptor)  # (releases the lock)


def read(path: Path, database: str, generation: int) -> SuggestionIndex | None:
    """The index kept at ``path``, or None: no such file, or one that cannot be read or is not that index."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        current_app.logger.warning("the suggestion index file %s cannot be read: %s", path.name, error)
        return None
    try:
        index = _Unpickler(io.BytesIO(data)).load()
    except Exception as error:  # whatever the file holds, the database can make the index
        current_app.logger.warning("the suggestion index file %s was refused: %s", path.name, error)
        return None
    if not isinstance(index, SuggestionIndex) or index.database != database or index.generation != generation:
        current_app.logger.warning("the suggestion index file %s holds another index", path.name)
        return None
    return index


def write(index: SuggestionIndex, path: Path) -> None:
    """Writes ``index`` to ``path`` whole (a reader sees the file complete or not at all), then removes this
    database's older files but the newest ``KEPT``. A failure is logged: the index is this process's all the same."""
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".writing-", suffix=SUFFIX)
        try:
            with os.fdopen(descriptor, "wb") as file:  # (without what requests kept in it since: none of it)
                pickle.dump(replace(index, masks={}, cards={}), file, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        current_app.logger.warning("the suggestion index could not be written to %s: %s", path.parent, error)
        return
    _prune(path)


def _prune(written: Path) -> None:
    """This database's index files but the newest ``KEPT`` (the one just written among them), and their locks; another
    database's written more than ``OTHERS_SECONDS`` ago (a folder that served many databases, a developer's or the
    tests', does not grow); a file left half-written by a process that died writing it, an hour on."""
    now = time.time()
    for half in written.parent.glob(f".writing-*{SUFFIX}"):
        if now - _modified(half) > HALF_WRITTEN_SECONDS:
            half.unlink(missing_ok=True)
    database = written.name.split("-", 1)[0]
    files = sorted(written.parent.glob(f"*{SUFFIX}"), key=_modified, reverse=True)
    own = [path for path in files if path.name.startswith(f"{database}-")]
    old = own[KEPT:] + [path for path in files if path not in own and now - _modified(path) > OTHERS_SECONDS]
    for path in old:
        if path != written:
            path.unlink(missing_ok=True)
            path.with_suffix(".lock").unlink(missing_ok=True)


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@cache
def code_stamp() -> str:
    """A digest of the code that makes and reads indexes (app/services/search/*.py) and of the Python version."""
    digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for source in sorted((PROJECT_ROOT / "app" / "services" / "search").glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()[:12]
