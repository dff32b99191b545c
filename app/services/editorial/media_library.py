"""The media library: every picture stored under the media root, by kind, with a small copy of each and where each is
used.

A kind is a folder of the media root (``posters``: titles' posters, ``backdrops``: promo slides' wide pictures,
``frames``: episodes' stills, ``photos``: persons' photos); a picture is a file there, stored by the one rule of
media_files.py (decoded whole, encoded again, named by the hash of the stored bytes), so a library upload and a form's
poster upload are the same file for the same picture. What uses a picture is read from the rows that hold its address
(a title's poster, an episode's picture, a person's photo, a slide's image): a picture in use is not deleted.

A thumbnail is made once with Pillow, at most THUMB_SIDE pixels a side, as WebP under ``thumbs/<kind>/`` of the media
root; as a picture's name is the hash of its bytes, its thumbnail never changes and is served with a year's cache."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError
from sqlalchemy import select

from app.extensions import db
from app.models import Content, Episode, Person, PromoSlide
from app.services.editorial.media_files import POSTER_FOLDER, Poster, store_poster
from app.services.errors import Invalid, NotFound

KINDS = {POSTER_FOLDER: "Постеры", "backdrops": "Фоны слайдов", "frames": "Кадры серий", "photos": "Фото персон"}
THUMB_FOLDER = "thumbs"
THUMB_SIDE = 240
MISSING_CODE = "picture_not_found"
MISSING = "Такой картинки в медиатеке нет."
_NAME = re.compile(r"[0-9A-Za-z][0-9A-Za-z_.-]{0,120}\.(?:jpg|jpeg|png|webp)")


@dataclass(frozen=True)
class Picture:
    kind: str
    name: str
    address: str  # what a form's field holds: /media/posters/<name>
    size: int
    modified: datetime


@dataclass(frozen=True)
class Use:
    what: str  # "Постер фильма или сериала"
    title: str
    endpoint: str  # the admin's edit page of the row
    row_id: int


def picture_path(media_root: Path, kind: str, name: str) -> Path:
    """The file of the picture ``name`` of ``kind``, or NotFound: a kind the library has not, a name no stored picture
    can have (a path part, a dot file, another extension)."""
    if kind not in KINDS or not _NAME.fullmatch(name) or ".." in name:
        raise NotFound(MISSING_CODE, MISSING)
    return media_root / kind / name


def address_of(media_url_path: str, kind: str, name: str) -> str:
    return f"{media_url_path.rstrip('/')}/{kind}/{name}"


def list_pictures(media_root: Path, media_url_path: str, kind: str | None = None) -> list[Picture]:
    """The library's pictures of ``kind`` (None: of every kind), the newest first."""
    found = []
    for folder in [kind] if kind in KINDS else list(KINDS):
        directory = media_root / folder
        if not directory.is_dir():
            continue
        for entry in directory.iterdir():
            if entry.is_file() and _NAME.fullmatch(entry.name):
                stat = entry.stat()
                found.append(Picture(folder, entry.name, address_of(media_url_path, folder, entry.name), stat.st_size,
                                     datetime.fromtimestamp(stat.st_mtime, UTC)))
    return sorted(found, key=lambda picture: (picture.modified, picture.name), reverse=True)


def store_picture(poster: Poster, media_root: Path, media_url_path: str, kind: str) -> str:
    """Stores a checked picture (media_files.py ``check_poster``) in the library as ``kind``; its address."""
    if kind not in KINDS:
        raise Invalid("picture_kind", "Выберите, что это за картинка.")
    stored = store_poster(poster, media_root, folder=kind)
    return f"{media_url_path.rstrip('/')}/{stored}"


def uses(addresses: list[str]) -> dict[str, list[Use]]:
    """Where each of ``addresses`` is used: the rows whose picture it is (four queries, whatever their number)."""
    found: dict[str, list[Use]] = {address: [] for address in addresses}
    if not addresses:
        return found
    holders: tuple[tuple[Any, Any, str, str, Callable[[Any], str]], ...] = (
        (Content, Content.poster_url, "Постер", "content", lambda row: row.title),
        (Episode, Episode.poster_path, "Кадр серии", "content", lambda row: row.title),
        (Person, Person.photo_url, "Фото персоны", "person", lambda row: row.name),
        (PromoSlide, PromoSlide.image_url, "Промо-слайд", "promo_slide", lambda row: row.title or row.content.title))
    for model, column, what, endpoint, title in holders:
        for row in db.session.scalars(select(model).where(column.in_(addresses)).order_by(model.id)):
            row_id = row.content_id if model is Episode else row.id  # an episode is edited on its title's page
            found[getattr(row, column.key)].append(Use(what, str(title(row)), endpoint, row_id))
    return found


def delete_picture(media_root: Path, media_url_path: str, kind: str, name: str) -> None:
    """Deletes the picture and its thumbnail, or refuses (Invalid) naming where it is still used."""
    path = picture_path(media_root, kind, name)
    if not path.is_file():
        raise NotFound(MISSING_CODE, MISSING)
    used = uses([address_of(media_url_path, kind, name)])[address_of(media_url_path, kind, name)]
    if used:
        where = "; ".join(f"{use.what.lower()} «{use.title}» (№ {use.row_id})" for use in used[:5])
        more = f" и ещё {len(used) - 5}" if len(used) > 5 else ""
        raise Invalid("picture_in_use", f"Картинка используется: {where}{more}. Сначала замените её там.")
    thumb_path(media_root, kind, name).unlink(missing_ok=True)
    path.unlink()


def thumb_path(media_root: Path, kind: str, name: str) -> Path:
    return media_root / THUMB_FOLDER / kind / f"{name.rsplit('.', 1)[0]}.webp"


def thumbnail(media_root: Path, kind: str, name: str) -> Path:
    """The picture's small copy, made now if it was not before; NotFound when the picture is not there or does not
    read as a picture."""
    source = picture_path(media_root, kind, name)
    target = thumb_path(media_root, kind, name)
    if target.is_file():
        return target
    if not source.is_file():
        raise NotFound(MISSING_CODE, MISSING)
    try:
        with Image.open(source) as image:
            image.draft("RGB", (THUMB_SIDE * 2, THUMB_SIDE * 2))  # a JPEG decodes at a smaller scale: faster
            small = image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB")
            small.thumbnail((THUMB_SIDE, THUMB_SIDE))
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError):
        raise NotFound(MISSING_CODE, "Картинка не читается.") from None
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    small.save(partial, "WEBP", quality=80)
    partial.replace(target)  # whole or not at all
    return target
