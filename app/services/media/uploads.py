"""Resumable uploads of source videos (issue 35; docs/video-upload.md): the server's half of the tus protocol 1.0.0
(core, creation, termination, expiration), which the admin's page speaks through tus-js-client.

An upload is two files in VIDEO_UPLOAD_DIR (never under JOB_FILES_DIR, whose files the job recovery sweeps after ten
minutes): ``<id>.part``, the bytes received so far (its size is the upload's offset), and ``<id>.json``, what the
creation said (the account, the episode or ad creative, the length, the file's name) and how many bytes the server
has received in all (a byte received twice would show there). A PATCH appends under an exclusive lock of the upload's
(a second PATCH of the same upload while one runs is told 423, which tus-js-client retries), writing as it reads, so a
connection dropped mid-request keeps every byte that arrived and the client resumes at the offset a HEAD reports.

An upload not written to for VIDEO_UPLOAD_EXPIRE_HOURS is removed (``expire``: by the job workers' recovery, every
half JOB_STALE_SECONDS, and at every creation and upload page). Each account has at most VIDEO_UPLOADS_PER_ACCOUNT
uploads under way. What becomes of a complete upload (the probe, the job) is app/admin/uploads.py's."""

from __future__ import annotations

import base64
import binascii
import contextlib
import errno
import fcntl
import json
import os
import re
import shutil
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

TUS_VERSION = "1.0.0"
EXTENSIONS = "creation,termination,expiration"
READ = 1_048_576
_ID = re.compile(r"^[0-9a-f]{32}$")


class Readable(Protocol):
    def read(self, size: int, /) -> bytes: ...


class Refused(Exception):
    """The request is not taken: ``status`` is the HTTP answer's, ``message`` the editor's reason in Russian."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Upload:
    id: str
    account_id: int
    target: str  # what the video is for: "episode" or "creative" (an ad's)
    target_id: int
    length: int
    name: str
    created: float  # seconds since the epoch
    touched: float  # the last write (or the creation): what the expiry counts from
    received: int = 0  # every byte any PATCH delivered, a resent one counted again

    def offset(self, folder: Path) -> int:
        try:
            return (folder / f"{self.id}.part").stat().st_size
        except FileNotFoundError:
            return 0

    def complete(self, folder: Path) -> bool:
        return self.offset(folder) == self.length


def parse_metadata(header: str | None) -> dict[str, str]:
    """tus's Upload-Metadata: comma-separated ``key base64(value)`` pairs (a key alone has an empty value)."""
    found: dict[str, str] = {}
    for pair in (header or "").split(","):
        parts = pair.strip().split(" ")
        if not parts[0]:
            continue
        if len(parts) > 2:
            raise Refused(400, "Заголовок Upload-Metadata испорчен.")
        try:
            found[parts[0]] = base64.b64decode(parts[1], validate=True).decode() if len(parts) == 2 else ""
        except (binascii.Error, UnicodeDecodeError):
            raise Refused(400, "Заголовок Upload-Metadata испорчен.") from None
    return found


def size_text(size: int) -> str:
    """«20 ГБ», «512 МБ» (rounded, a decimal comma when it has a fraction)."""
    for unit, word in ((1 << 30, "ГБ"), (1 << 20, "МБ"), (1 << 10, "КБ")):
        if size >= unit:
            return f"{round(size / unit, 1):g} {word}".replace(".", ",")
    return f"{size} Б"


class Store:
    """The uploads of one folder."""

    def __init__(self, folder: Path, *, max_bytes: int, expire_seconds: float, per_account: int,
                 reserve_bytes: int) -> None:
        self.folder = folder
        self.max_bytes = max_bytes
        self.expire_seconds = expire_seconds
        self.per_account = per_account
        self.reserve_bytes = reserve_bytes

    def _info(self, upload_id: str) -> Path:
        return self.folder / f"{upload_id}.json"

    def part(self, upload_id: str) -> Path:
        return self.folder / f"{upload_id}.part"

    def all(self) -> Iterator[Upload]:
        if not self.folder.is_dir():
            return
        for info in self.folder.glob("*.json"):
            with contextlib.suppress(OSError, ValueError, TypeError):
                yield Upload(**json.loads(info.read_text()))

    def get(self, upload_id: str, account_id: int) -> Upload:
        """The account's upload, or 404 (another account's is not shown: it is not theirs to resume or remove)."""
        if not _ID.fullmatch(upload_id):
            raise Refused(404, "Загрузка не найдена.")
        try:
            upload = Upload(**json.loads(self._info(upload_id).read_text()))
        except (OSError, ValueError, TypeError):
            raise Refused(404, "Загрузка не найдена: она завершена, удалена или устарела.") from None
        if upload.account_id != account_id or not self.part(upload_id).exists():
            raise Refused(404, "Загрузка не найдена: она завершена, удалена или устарела.")
        return upload

    def expires_at(self, upload: Upload) -> float:
        return upload.touched + self.expire_seconds

    def create(self, *, account_id: int, target: str, target_id: int, length: int, name: str, now: float) -> Upload:
        """A new, empty upload; refused (in Russian) past the size limit, the account's count or the disk's room."""
        if length <= 0:
            raise Refused(400, "Файл пуст.")
        if length > self.max_bytes:
            raise Refused(413, f"Файл больше {size_text(self.max_bytes)}: такой не принимается.")
        self.expire(now)
        mine = [upload for upload in self.all() if upload.account_id == account_id]
        if len(mine) >= self.per_account:
            raise Refused(429, f"Незаконченных загрузок у вас уже {len(mine)}, больше нельзя: завершите или "
                               "отмените одну из них.")
        self.folder.mkdir(parents=True, exist_ok=True)
        pending = sum(max(0, upload.length - upload.offset(self.folder)) for upload in self.all())
        free = shutil.disk_usage(self.folder).free
        if free - pending - self.reserve_bytes < length:
            raise Refused(507, f"На диске сервера не хватает места для файла в {size_text(length)} "
                               f"(свободно {size_text(max(0, free - pending))}). Сообщите администратору.")
        upload = Upload(id=uuid.uuid4().hex, account_id=account_id, target=target, target_id=target_id, length=length,
                        name=Path(name).name[:200] or "video", created=now, touched=now)
        self.part(upload.id).touch()
        self._write(upload)
        return upload

    def append(self, upload: Upload, offset: int, length: int | None, body: Readable, now: float) -> int:
        """A PATCH: the bytes of ``body`` at ``offset`` (which must be the upload's), written as they arrive; the new
        offset. A connection that drops mid-way keeps what arrived."""
        if length is None:
            raise Refused(411, "Нужен заголовок Content-Length.")
        with self._locked(upload.id):
            upload = self.get(upload.id, upload.account_id)  # as it is now, under the lock
            current = upload.offset(self.folder)
            if offset != current:
                raise Refused(409, f"Смещение {offset} не совпадает с принятым сервером ({current}).")
            if current + length > upload.length:
                raise Refused(413, "Данных больше, чем объявленная длина файла.")
            written = 0
            try:
                with self.part(upload.id).open("ab") as target:
                    while written < length:
                        chunk = body.read(min(READ, length - written))
                        if not chunk:
                            break
                        target.write(chunk)
                        written += len(chunk)
            except OSError as error:
                if error.errno == errno.ENOSPC:
                    raise Refused(507, "На диске сервера кончилось место. Сообщите администратору.") from None
                raise
            finally:
                upload.received += written
                upload.touched = now
                self._write(upload)
            return current + written

    def remove(self, upload: Upload) -> None:
        self.part(upload.id).unlink(missing_ok=True)
        self._info(upload.id).unlink(missing_ok=True)
        (self.folder / f"{upload.id}.lock").unlink(missing_ok=True)

    def forget(self, upload: Upload) -> None:
        """The upload's record, once its file has gone on (to a job)."""
        self._info(upload.id).unlink(missing_ok=True)
        (self.folder / f"{upload.id}.lock").unlink(missing_ok=True)

    def expire(self, now: float) -> list[str]:
        """Removes the uploads not written to for the configured time; their ids."""
        gone = []
        for upload in list(self.all()):
            if self.expires_at(upload) < now:
                self.remove(upload)
                gone.append(upload.id)
        if self.folder.is_dir():  # a .part whose record is gone (a crash between the two)
            for part in self.folder.glob("*.part"):
                if not self._info(part.stem).exists() and part.stat().st_mtime + self.expire_seconds < now:
                    part.unlink(missing_ok=True)
        return gone

    def _write(self, upload: Upload) -> None:
        info = self._info(upload.id)
        temporary = info.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(asdict(upload)))
        os.replace(temporary, info)

    @contextlib.contextmanager
    def _locked(self, upload_id: str) -> Iterator[None]:
        lock = self.folder / f"{upload_id}.lock"
        with lock.open("a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise Refused(423, "Эта загрузка уже идёт в другом запросе.") from None
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
                if not self._info(upload_id).exists():
                    lock.unlink(missing_ok=True)


def move(source: Path, target: Path) -> None:
    """``source`` to ``target`` (a rename on one file system, else a copy), its time set to now: the job recovery's
    sweep counts an unneeded file's age from its time, and a rename keeps the old one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(source, target)
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
        shutil.move(str(source), str(target))
    os.utime(target, (time.time(), time.time()))


def store_of(config: Mapping[str, Any]) -> Store:
    """The uploads of the application's configuration (app/config.py, VIDEO_UPLOAD_*)."""
    return Store(Path(str(config["VIDEO_UPLOAD_DIR"])), max_bytes=int(config["VIDEO_UPLOAD_MAX_BYTES"]),
                 expire_seconds=float(config["VIDEO_UPLOAD_EXPIRE_HOURS"]) * 3600,
                 per_account=int(config["VIDEO_UPLOADS_PER_ACCOUNT"]),
                 reserve_bytes=int(config["VIDEO_UPLOAD_RESERVE_BYTES"]))

