"""Where a transcoded episode's files live and how an episode moves onto them (issue 35, docs/video-transcoding.md).

Under the media root, in the content's own title folder (what a signed media address opens, app/http/media.py
``scope_of``; one content's files only), by content hash:

    titles/content-<content id>/<sha-256 of the source, 24 hex>-<options' fingerprint>/
        master.json, media/master.m3u8, media/<360p…>/, media/audio-<n>/, subs/, storyboard/, .transcode.json

A run works in the hidden ``.<name>.work/`` beside it (never served: no dotfile is), each run in a part of its own
(``.<name>.work/<run>/``), and renames the whole into place once the master JSON is written: a folder under its
final name is complete. The episode is then switched to it in one short transaction (``switch``), and the folder it
played before is removed when no episode names it any more (``set_aside_unused``, then deleted): both under a lock on
the content's row, so that a removal never takes a folder another episode of it has just been switched to."""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, scoped_session

from app.models import Content, Episode

STAMP = ".transcode.json"  # in every folder this job made: only such folders are ever removed
FOLDER_PREFIX = "content-"
CHUNK = 8 * 1_048_576
AnySession = Session | scoped_session[Any]  # db.session, or a session of its own


@dataclass(frozen=True)
class Place:
    root: Path  # the media root
    scope: str  # the title folder, "titles/content-12"
    name: str  # "<digest>-<fingerprint>"
    url_path: str  # MEDIA_URL_PATH, "/media"

    @property
    def final(self) -> Path:
        return self.root / self.scope / self.name

    @property
    def work(self) -> Path:
        return self.root / self.scope / f".{self.name}.work"

    def link(self, relative: str = "") -> str:
        """The origin-relative address of a file of the folder (the master JSON's links, the episode's path)."""
        return f"{self.url_path.rstrip('/')}/{self.scope}/{self.name}/{relative}"

    @property
    def master_link(self) -> str:
        return self.link("master.json")


def digest(path: Path, progress: Callable[[int, int], None]) -> str:
    """The SHA-256 of the file (hex), read in 8 MiB chunks, ``progress(done, total)`` in bytes as it goes."""
    total = path.stat().st_size
    hashed, done = hashlib.sha256(), 0
    with path.open("rb") as file:
        while chunk := file.read(CHUNK):
            hashed.update(chunk)
            done += len(chunk)
            progress(done, total)
    return hashed.hexdigest()


def place_for(media_root: Path, prefixes: str, url_path: str, content_id: int, source_digest: str,
              fingerprint: str) -> Place:
    """The folder of a content's transcode of a source: under the first protected top folder (``titles``)."""
    top = next((part.strip().strip("/") for part in prefixes.split(",") if part.strip()), "titles")
    return Place(media_root, f"{top}/{FOLDER_PREFIX}{content_id}", f"{source_digest[:24]}-{fingerprint}", url_path)


def publish(part: Path, place: Place, stamp: dict[str, object]) -> None:
    """A run's finished part under the final name (one rename), with its stamp; when another run of the same source
    published first, theirs stays and this part goes."""
    (part / STAMP).write_text(json.dumps(stamp, ensure_ascii=False, indent=1), "utf-8")
    try:
        part.rename(place.final)
    except OSError:
        if not (place.final / "master.json").is_file():
            raise
        shutil.rmtree(part, ignore_errors=True)
    with contextlib.suppress(OSError):
        place.work.rmdir()  # when no other run works there


class Gone(Exception):
    """The episode was deleted while its media were made."""


class Vanished(RuntimeError):
    """The folder to switch to is not there any more (removed by a concurrent run): the job runs again."""


def _lock_content(session: AnySession, content_id: int) -> None:
    # PostgreSQL: the row lock orders a switch and a removal; SQLite has one writer at a time and no FOR UPDATE.
    session.execute(select(Content.id).where(Content.id == content_id).with_for_update())


def switch(session: AnySession, episode_id: int, place: Place, duration: float) -> str | None:
    """The episode plays from ``place`` from this transaction's commit on (its master path and its duration); its
    previous master path is returned. The caller commits."""
    episode = session.get(Episode, episode_id)
    if episode is None:
        raise Gone()
    _lock_content(session, episode.content_id)
    if not (place.final / "master.json").is_file():
        raise Vanished(f"{place.final} is gone before the switch")
    previous = episode.master_file_path
    episode.master_file_path = place.master_link
    episode.duration = round(duration)
    session.flush()
    return previous


def folder_of(path: str | None, media_root: Path, url_path: str) -> tuple[str, Path] | None:
    """The folder a master path names when this job made it (``titles/content-N/<name>/master.json`` with its
    stamp): its address prefix and its place on disk; else None (a demo title, another server's file)."""
    base = url_path.rstrip("/") + "/"
    if not path or not path.startswith(base) or not path.endswith("/master.json"):
        return None
    parts = path[len(base):].split("/")
    if len(parts) != 4 or not parts[1].startswith(FOLDER_PREFIX) or any(p in ("", ".", "..") for p in parts):
        return None
    folder = media_root.joinpath(*parts[:3])
    if not (folder / STAMP).is_file():
        return None
    return base + "/".join(parts[:3]) + "/", folder


def set_aside_unused(session: AnySession, content_id: int, previous: str | None, media_root: Path,
                     url_path: str) -> Path | None:
    """When ``previous`` names a folder this job made and no episode names it any more: the folder moved aside (under
    the content's lock, in the caller's transaction) for the caller to delete once that commits; else None."""
    found = folder_of(previous, media_root, url_path)
    if found is None:
        return None
    prefix, folder = found
    _lock_content(session, content_id)
    used = session.scalar(select(Episode.id).where(Episode.master_file_path.startswith(prefix, autoescape=True))
                          .limit(1))
    if used is not None:
        return None
    doomed = folder.with_name(f".{folder.name}.removed")
    shutil.rmtree(doomed, ignore_errors=True)
    folder.rename(doomed)
    return doomed
