"""Files the admin takes or points at: a poster upload, and an episode's master file.

A poster must be a JPEG, PNG or WebP whose every pixel decodes (Pillow's ``load()``: a header that reads is not
enough), one still picture of sane sides; what is stored is not the upload but the picture encoded again in its
format, with nothing else (no metadata, no text chunk, no comment, nothing appended after its end: a PNG+HTML
polyglot comes out a plain PNG), its EXIF orientation applied and its colour profile converted to sRGB, under the
media root by the hash of the stored bytes.

A master file must exist under the media root and be what the player reads (a master JSON with a playable source,
spec §3, or an HLS playlist), by a path without "." or ".." or empty parts; its title folder (the first two parts
under the media root, ``titles/film-long``: what a signed media address opens, app/http/media.py ``scope_of``) may
hold only one content's files, so that an address signed for one title never opens another's."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
import subprocess
import tempfile
import warnings
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import IO

import imageio_ffmpeg
from PIL import Image, ImageCms, ImageOps
from sqlalchemy import select

from app.extensions import db
from app.models import Content, Episode
from app.services.editorial.addresses import address_problem

POSTER_FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}
POSTER_MIN_SIDE = 100
POSTER_MAX_SIDE = 8000
POSTER_FOLDER = "posters"
POSTER_QUALITY = 90  # JPEG and WebP, encoded again
NOT_AN_IMAGE = "Это не картинка JPEG, PNG или WebP (или файл повреждён)."
NOT_WHOLE = "Картинка не читается целиком: файл повреждён."
_DECODING = (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombWarning,
             Image.DecompressionBombError)
MASTER_MAX_BYTES = 1_048_576
AD_FOLDER = "ads"
PROBE_SECONDS = 20
_DURATION = re.compile(r"Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)")
_VIDEO = re.compile(r"Stream #\S+: Video: (\w+)[^\n]*?, (\d{2,5})x(\d{2,5})")
_BITRATE = re.compile(r"Duration: [^\n]*bitrate: (\d+) kb/s")


@dataclass(frozen=True)
class Poster:
    data: bytes
    extension: str


def check_poster(data: bytes, max_bytes: int) -> Poster:
    """The upload as a poster to store (encoded again, see the module's docstring), or ValueError with what is wrong,
    in the editor's words."""
    if len(data) > max_bytes:
        raise ValueError(f"Файл больше {max_bytes // 1_048_576} МБ.")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(BytesIO(data))
        except _DECODING:
            raise ValueError(NOT_AN_IMAGE) from None
        with image:
            kind, (width, height) = image.format, image.size
            if kind not in POSTER_FORMATS:
                raise ValueError(f"Формат {kind} не подходит: нужен JPEG, PNG или WebP.")
            if not (min(width, height) >= POSTER_MIN_SIDE and max(width, height) <= POSTER_MAX_SIDE):
                raise ValueError(f"Размер {width}×{height}: стороны должны быть от {POSTER_MIN_SIDE} до "
                                 f"{POSTER_MAX_SIDE} пикселей.")
            if getattr(image, "n_frames", 1) > 1:
                raise ValueError("Нужна одна картинка, не анимация.")
            try:
                image.load()  # every pixel decodes, not only the header
                stored = _encoded_again(image, kind)
            except _DECODING:
                raise ValueError(NOT_WHOLE) from None
    return Poster(stored, POSTER_FORMATS[kind])


def _encoded_again(image: Image.Image, kind: str) -> bytes:
    """The picture alone, in its format: turned as its EXIF says, in sRGB, with no metadata (``info`` emptied but for
    a palette's transparency, which is picture)."""
    picture = ImageOps.exif_transpose(image)  # a copy, with the orientation applied
    profile = image.info.get("icc_profile")
    if profile and picture.mode in ("RGB", "RGBA"):
        with contextlib.suppress(ImageCms.PyCMSError, OSError, ValueError):  # a profile that does not read: as is
            picture = ImageCms.profileToProfile(picture, ImageCms.ImageCmsProfile(BytesIO(profile)),
                                                ImageCms.createProfile("sRGB"), outputMode=picture.mode) or picture
    picture.info = {key: value for key, value in picture.info.items() if key == "transparency"}
    if kind == "JPEG" and picture.mode not in ("L", "RGB", "CMYK"):
        picture = picture.convert("RGB")
    if kind == "WEBP" and picture.mode not in ("RGB", "RGBA"):
        picture = picture.convert("RGBA" if "A" in picture.mode or "transparency" in picture.info else "RGB")
    out = BytesIO()
    options = {"quality": POSTER_QUALITY} if kind in ("JPEG", "WEBP") else {}
    picture.save(out, kind, **options)
    return out.getvalue()


def store_poster(poster: Poster, media_root: Path, folder: str = POSTER_FOLDER) -> str:
    """Writes the poster under ``media_root``/``folder`` (posters, or another kind of the media library) by the hash
    of its bytes (the same image is one file, and a new one a new address, which caches never confuse); returns its
    path under the media root."""
    name = f"{hashlib.sha256(poster.data).hexdigest()[:32]}.{poster.extension}"
    target = media_root / folder / name
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        partial.write_bytes(poster.data)
        partial.replace(target)  # whole or not at all
    return f"{folder}/{name}"


def master_problem(path: str, media_url_path: str, media_root: Path, *, content_id: int | None) -> str | None:
    """What keeps the player from reading the master file at ``path`` for the content ``content_id`` (None: a content
    not saved yet), or None: nothing found. A path under the media address is read from the media root, and its
    title folder must not hold another content's episodes; an http(s) address on another server is taken as given."""
    if path.lower().startswith(("http:", "https:")):
        return address_problem(path)  # another server's: taken as given when it is a web address at all
    prefix = media_url_path.rstrip("/") + "/"
    if not path.startswith(prefix):
        return f"путь должен начинаться с {prefix} или быть адресом http(s)://"
    relative = path[len(prefix):].split("?", 1)[0]
    parts = relative.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "путь без частей «.», «..» и пустых (двух косых черт подряд)"
    if len(parts) >= 3:
        owner = folder_owner(f"{parts[0]}/{parts[1]}", prefix, content_id)
        if owner is not None:
            return (f"папка {parts[0]}/{parts[1]} уже принадлежит «{owner.title}» (№ {owner.id}): у каждого фильма или "
                    "сериала своя папка")
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


def folder_owner(folder: str, media_prefix: str, content_id: int | None) -> Content | None:
    """Another content (than ``content_id``) one of whose episodes' master files is in the title folder ``folder``
    (``titles/film-long``) under the media address ``media_prefix`` (``/media/``)."""
    query = (select(Content).join(Episode, Episode.content_id == Content.id)
             .where(Episode.master_file_path.startswith(f"{media_prefix}{folder}/", autoescape=True))
             .order_by(Content.id).limit(1))
    if content_id is not None:
        query = query.where(Content.id != content_id)
    with db.session.no_autoflush:  # the form's rows are not written yet: they are not another content's
        return db.session.scalar(query)


@dataclass(frozen=True)
class Video:
    """An uploaded ad video, kept in a temporary file until it is stored, with what ffmpeg read of it."""

    path: Path
    digest: str
    width: int
    height: int
    duration: float
    bitrate: int | None
    codec: str  # VAST's MediaFile codec (RFC 6381); empty: ffmpeg's summary does not give the H.264 level


def check_video(stream: IO[bytes], max_bytes: int) -> Video:
    """The upload as an ad video (an MP4 with H.264 video), or ValueError with what is wrong."""
    spool = Path(tempfile.mkdtemp(prefix="ad-upload-")) / "upload.mp4"
    digest, size = hashlib.sha256(), 0
    with spool.open("wb") as out:
        while chunk := stream.read(1_048_576):
            size += len(chunk)
            if size > max_bytes:
                shutil.rmtree(spool.parent, ignore_errors=True)
                raise ValueError(f"файл больше {max_bytes // 1_048_576} МБ.")
            digest.update(chunk)
            out.write(chunk)
    with spool.open("rb") as head:
        if head.read(12)[4:8] != b"ftyp":
            shutil.rmtree(spool.parent, ignore_errors=True)
            raise ValueError("это не файл MP4.")
    try:
        found = subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-i", str(spool)],  # noqa: S603
                               capture_output=True, text=True, timeout=PROBE_SECONDS, check=False).stderr
    except subprocess.TimeoutExpired:
        found = ""
    duration, video = _DURATION.search(found), _VIDEO.search(found)
    if duration is None or video is None or video.group(1) != "h264":
        shutil.rmtree(spool.parent, ignore_errors=True)
        raise ValueError("в файле нет видео H.264, которое играют все браузеры.")
    hours, minutes, seconds = duration.groups()
    bitrate = _BITRATE.search(found)
    codec = ""
    return Video(spool, digest.hexdigest(), int(video.group(2)), int(video.group(3)),
                 int(hours) * 3600 + int(minutes) * 60 + float(seconds), int(bitrate.group(1)) if bitrate else None,
                 codec)


def store_video(video: Video, media_root: Path) -> str:
    """Moves the checked upload under ``media_root``/ads by its hash; its path under the media root."""
    name = f"{video.digest[:32]}.mp4"
    target = media_root / AD_FOLDER / name
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.is_file():
        shutil.move(str(video.path), target.with_suffix(".part"))
        target.with_suffix(".part").replace(target)
    shutil.rmtree(video.path.parent, ignore_errors=True)
    return f"{AD_FOLDER}/{name}"
