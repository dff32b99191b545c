"""Files the admin takes or points at: a poster upload (checked to be a real image, stored under the media root by
the hash of its bytes), and an episode's master file (checked to exist under the media root and to be what the player
reads: a master JSON with a playable source, spec §3, or an HLS playlist)."""

from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from PIL import Image

POSTER_FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
POSTER_MIN_SIDE = 100
POSTER_MAX_SIDE = 8000
POSTER_FOLDER = "posters"
MASTER_MAX_BYTES = 1_048_576


@dataclass(frozen=True)
class Poster:
    data: bytes
    extension: str


def check_poster(data: bytes, max_bytes: int) -> Poster:
    """The upload as a poster, or ValueError with what is wrong, in the editor's words."""
    if len(data) > max_bytes:
        raise ValueError(f"Файл больше {max_bytes // 1_048_576} МБ.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(BytesIO(data)) as image:
                kind, (width, height) = image.format, image.size
                image.verify()  # the whole file decodes, not only its header
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise ValueError("Это не картинка JPEG, PNG или WebP (или файл повреждён).") from None
    if kind not in POSTER_FORMATS:
        raise ValueError(f"Формат {kind} не подходит: нужен JPEG, PNG или WebP.")
    if not (min(width, height) >= POSTER_MIN_SIDE and max(width, height) <= POSTER_MAX_SIDE):
        raise ValueError(f"Размер {width}×{height}: стороны должны быть от {POSTER_MIN_SIDE} до {POSTER_MAX_SIDE} "
                         "пикселей.")
    return Poster(data, POSTER_FORMATS[kind])


def store_poster(poster: Poster, media_root: Path) -> str:
    """Writes the poster under ``media_root``/posters by the hash of its bytes (the same image is one file, and a new
    one a new address, which caches never confuse); returns its path under the media root."""
    name = f"{hashlib.sha256(poster.data).hexdigest()[:32]}.{poster.extension}"
    target = media_root / POSTER_FOLDER / name
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        partial.write_bytes(poster.data)
        partial.replace(target)  # whole or not at all
    return f"{POSTER_FOLDER}/{name}"


def master_problem(path: str, media_url_path: str, media_root: Path) -> str | None:
    """What keeps the player from reading the master file at ``path`` (None: nothing found). A path under the media
    address is read from the media root; an http(s) address on another server is taken as given."""
    if path.startswith(("http://", "https://")):
        return None
    prefix = media_url_path.rstrip("/") + "/"
    if not path.startswith(prefix):
        return f"путь должен начинаться с {prefix} или быть адресом http(s)://"
    relative = path[len(prefix):].split("?", 1)[0]
    file = (media_root / relative).resolve()
    if not file.is_relative_to(media_root.resolve()) or not file.is_file():
        return f"файла {path} нет"
    if file.stat().st_size > MASTER_MAX_BYTES:
        return "файл слишком большой для мастер-файла"
    text = file.read_bytes().decode("utf-8", errors="replace")
    if ".json" not in path:
        return None if text.startswith("#EXTM3U") else "это не плейлист HLS (нет #EXTM3U в начале)"
    try:
        document = json.loads(text)
    except ValueError:
        return "это не JSON"
    sources = document.get("sources") if isinstance(document, dict) else None
    playable = [source for source in sources or [] if isinstance(source, dict)
                and isinstance(source.get("link"), str) and source["link"]]
    return None if playable else "в мастер-файле нет ни одного источника (sources с полем link)"
