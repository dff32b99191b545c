"""A line's files: its poster (an http(s) address or a path under the media address kept as given, or a picture
beside the import file, stored in the media library by the admin's rule: app/services/editorial/media_files.py) and
its master files' paths (as ``Episode.master_file_path`` holds them: under the media address, or an http(s)
address). A master file is not looked for: a catalogue may be imported before its media are copied
(docs/import.md)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.services.editorial.addresses import address_problem
from app.services.editorial.media_files import POSTER_FOLDER, check_poster, store_poster

POSTER_BYTES = 5 * 1024 * 1024  # as the admin's upload (ADMIN_POSTER_BYTES' default)


@dataclass
class Media:
    folder: Path  # the import file's: a poster's path is relative to it
    media_root: Path | None  # None: a poster from a file is refused (nowhere to store it)
    media_url: str = "/media"
    dry_run: bool = False
    posters: dict[Path, tuple[str | None, str | None]] = field(default_factory=dict)  # file → (address, problem)

    def check(self, data: dict[str, Any]) -> list[tuple[str, str]]:
        """The line's poster and media paths as they are to be stored (``data`` changed in place), or what is wrong
        with them."""
        problems: list[tuple[str, str]] = []
        if data.get("poster"):
            address, problem = self._poster(data["poster"])
            if problem is not None:
                problems.append(("poster", problem))
            data["poster"] = address
        if data.get("media"):
            data["media"], problem = self.master(data["media"])
            if problem is not None:
                problems.append(("media", problem))
        for season_at, season in enumerate(data.get("seasons") or [], start=1):
            for episode_at, episode in enumerate(season.get("episodes") or [], start=1):
                if episode.get("media"):
                    episode["media"], problem = self.master(episode["media"])
                    if problem is not None:
                        problems.append((f"seasons[{season_at}].episodes[{episode_at}].media", problem))
        return problems

    def master(self, value: str) -> tuple[str, str | None]:
        """The path as stored: one relative to the media root is put under the media address."""
        if value.lower().startswith(("http:", "https:")):
            problem = address_problem(value)
            return value, None if problem is None else f"Адрес мастер-файла: {problem}"
        prefix = self.media_url.rstrip("/") + "/"
        relative = value[len(prefix):] if value.startswith(prefix) else value
        parts = relative.split("?", 1)[0].split("/")
        if relative.startswith("/") or any(part in ("", ".", "..") for part in parts) or "\\" in relative:
            return value, (f"Путь мастер-файла: относительно MEDIA_ROOT (titles/…/master.json), {prefix}… или адрес "
                           "http(s)://, без частей «.», «..» и пустых")
        return prefix + relative, None

    def _poster(self, value: str) -> tuple[str | None, str | None]:
        if value.lower().startswith(("http:", "https:")):
            problem = address_problem(value)
            return value, None if problem is None else f"Адрес постера: {problem}"
        if value.startswith(self.media_url.rstrip("/") + "/"):  # a picture of the media library, as stored
            parts = value.split("/")
            return value, None if ".." not in parts and "\\" not in value else "Путь постера без частей «..»"
        if self.media_root is None:
            return None, "Постер из файла здесь не принимается: укажите адрес http(s)://"
        base = self.folder.resolve()
        path = (base / value).resolve()
        if Path(value).is_absolute() or not path.is_relative_to(base):
            return None, "Файл постера должен лежать в папке файла импорта (путь относительно неё)"
        if path not in self.posters:
            self.posters[path] = self._stored(path, value)
        return self.posters[path]

    def _stored(self, path: Path, value: str) -> tuple[str | None, str | None]:
        if not path.is_file():
            return None, f"Файла постера {value} нет"
        with path.open("rb") as file:
            data = file.read(POSTER_BYTES + 1)
        try:
            poster = check_poster(data, POSTER_BYTES)
        except ValueError as problem:
            return None, f"Постер {value}: {problem}"
        if self.dry_run:  # the name it would be stored under (media_files.store_poster's), nothing written
            stored = f"{POSTER_FOLDER}/{hashlib.sha256(poster.data).hexdigest()[:32]}.{poster.extension}"
        else:
            stored = store_poster(poster, self.media_root)  # type: ignore[arg-type]
        return f"{self.media_url.rstrip('/')}/{stored}", None
