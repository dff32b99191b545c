"""Licensed media: the files of a title are served only at addresses this service signed for one viewer's country,
for a short while, and the same files are never served unsigned. What a signed address looks like:

    {MEDIA_URL_PATH}/s/{signature}/{expires}/{country}/{content}/{scope}/{file}
    e.g. /media/s/Kq…/1767225600/ru/1/titles/film-long/master.json

``content`` is the id of the title the address was handed out for, and ``scope`` that title's folder (a protected top
folder, ``SIGNED_MEDIA_PREFIXES``, and the one below it: each demo title holds all its files, app/demo/media.py), so
an address reaches that title's files and nothing else, and says whose they are: its master JSON is served only while
that content is published and plays in the country (app/player/static.py). The HLS playlists name their files
relatively, so every file they lead to inherits the signed prefix. ``expires`` is a Unix time (``MEDIA_URL_TTL`` from
now, rounded up to ten minutes so that pages made in the same ten minutes say the same), ``country`` the viewer's as
the page saw it (app/http/viewer.py), which the media request must show again.

The signature is nginx's secure_link_md5 over ``"{expires}:{content}:{scope}:{country} {secret}"`` (base64url, no
padding), so the production proxy can check the same addresses without the application (docs/nginx-media.conf);
``secret`` is ``MEDIA_URL_SECRET``, or one derived from SECRET_KEY when that is empty. A master JSON under a signed
address is served with its own links into the title signed alike (its links are origin-relative, spec §3).

Files are served from MEDIA_ROOT without following a symbolic link and without dotfiles.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from flask import current_app

from app import clock

EXPIRY_STEP = 600  # seconds: expiry times are rounded up to this
SIGNED = "s"
UNKNOWN_COUNTRY = "zz"  # ISO 3166's user-assigned code, for a viewer whose country nothing told


def protected_prefixes() -> set[str]:
    return {part.strip().strip("/") for part in current_app.config["SIGNED_MEDIA_PREFIXES"].split(",") if part.strip()}


def scope_of(relative: str) -> str | None:
    """The title folder a path under the media root belongs to when it is protected ("titles/film-long"), else None."""
    parts = relative.split("/")
    if len(parts) < 3 or parts[0] not in protected_prefixes() or not parts[1]:
        return None
    return f"{parts[0]}/{parts[1]}"


def media_secret() -> str:
    configured = current_app.config["MEDIA_URL_SECRET"]
    if configured:
        return str(configured)
    return hmac.new(current_app.config["SECRET_KEY"].encode(), b"media addresses", hashlib.sha256).hexdigest()


def signature(expires: int, content: int, scope: str, country: str) -> str:
    # MD5 because nginx's secure_link_md5 checks it; with the secret at the end and nothing in it the client chooses
    # but the address it was given, collisions give nothing to forge with.
    text = f"{expires}:{content}:{scope}:{country} {media_secret()}"
    digest = hashlib.md5(text.encode(), usedforsecurity=True).digest()  # noqa: S324
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def expiry(now: float | None = None) -> int:
    moment = (clock.now().timestamp() if now is None else now) + current_app.config["MEDIA_URL_TTL"]
    return math.ceil(moment / EXPIRY_STEP) * EXPIRY_STEP


def signed_prefix(content: int, scope: str, country: str, expires: int | None = None) -> str:
    expires = expiry() if expires is None else expires
    base = current_app.config["MEDIA_URL_PATH"].rstrip("/")
    return f"{base}/{SIGNED}/{signature(expires, content, scope, country)}/{expires}/{country}/{content}/{scope}"


def unsigned_scope(address: str | None) -> str | None:
    """The title folder an unsigned media address of ours (an episode's master file path) is in, else None."""
    base = current_app.config["MEDIA_URL_PATH"].rstrip("/") + "/"
    if not address or not address.startswith(base):
        return None
    return scope_of(address[len(base):])


def sign_address(address: str | None, country: str | None, content: int, expires: int | None = None) -> str | None:
    """``address`` (an episode's master file path) signed for ``country`` and the title ``content`` when it names a
    protected file of ours; any other address as it is (an outside CDN's is that CDN's business)."""
    base = current_app.config["MEDIA_URL_PATH"].rstrip("/") + "/"
    if not address or not address.startswith(base):
        return address
    relative = address[len(base):]
    scope = scope_of(relative)
    if scope is None:
        return address
    return f"{signed_prefix(content, scope, country or UNKNOWN_COUNTRY, expires)}/{relative[len(scope) + 1:]}"


def valid_signature(given: str, expires: int, content: int, scope: str, country: str,
                    now: float | None = None) -> bool:
    if expires < (clock.now().timestamp() if now is None else now):
        return False
    return hmac.compare_digest(given, signature(expires, content, scope, country))


def safe_file(root: str | Path, relative: str) -> Path | None:
    """The regular file at ``relative`` under ``root``, reached without a symbolic link, '..' or a dotfile, or None."""
    parts = relative.split("/")
    if any(not part or part.startswith(".") or "\\" in part or "\x00" in part for part in parts):
        return None
    path = Path(root)
    for part in parts:
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            return None
        if stat.S_ISLNK(mode):
            return None
    return path if stat.S_ISREG(mode) else None


def sign_master(document: bytes, scope: str, prefix: str) -> bytes:
    """A master JSON (spec §3) whose origin-relative links into ``scope`` now go through the signed ``prefix``."""
    unsigned = current_app.config["MEDIA_URL_PATH"].rstrip("/") + f"/{scope}/"
    master: Any = json.loads(document)

    def signed(link: Any) -> Any:
        return f"{prefix}/{link[len(unsigned):]}" if isinstance(link, str) and link.startswith(unsigned) else link

    for key, field in (("sources", "link"), ("subtitles", "src")):
        for entry in master.get(key, []) if isinstance(master, dict) else []:
            if isinstance(entry, dict) and field in entry:
                entry[field] = signed(entry[field])
    if isinstance(master, dict) and "storyboard" in master:  # issue 35: the seek thumbnails' map (its sprites are
        master["storyboard"] = signed(master["storyboard"])  # relative to it, so signed with it)
    return json.dumps(master, ensure_ascii=False).encode()


PLAYLIST_INLINE_MAX = 16_384  # bytes: a master playlist is about 1 kB; a longer one is left to the network
ATTRIBUTE = re.compile(r'([A-Z0-9-]+)=("[^"]*"|[^,]*)')
STARTING_VARIANTS = 4  # hls.js's first variant, chosen by its default estimate (500 kbit/s) under the player's size cap


def first_playlist(address: str | None, country: str | None, content: int, expires: int) -> dict[str, Any] | None:
    """The HLS playlist a player starts ``address`` (an episode's unsigned master file path) on, to be put in the page:
    its master JSON's default source (spec §3: the one marked default, else the first), or ``address`` itself when it
    names a playlist; as ``{"url": its address signed as the master's links are, "text": the file, "media": the media
    playlists a player starting it asks for first (``starting_playlists``), which the player asks for at once}``. None
    when it is not a protected file of ours, cannot be read, is not UTF-8 or is over PLAYLIST_INLINE_MAX bytes: the
    player then fetches it, as it would anyway. The folder never changes once published (docs/video-transcoding.md),
    so the text is what its signed address serves."""
    base = current_app.config["MEDIA_URL_PATH"].rstrip("/") + "/"
    scope = unsigned_scope(address)
    if address is None or scope is None:
        return None
    root = current_app.config["MEDIA_ROOT"]
    prefix = signed_prefix(content, scope, country or UNKNOWN_COUNTRY, expires)
    relative = address[len(base):].split("?")[0]
    link = f"{prefix}/{relative[len(scope) + 1:]}"
    try:
        if relative.endswith(".json"):
            master_file = safe_file(root, relative)
            if master_file is None:
                return None
            sources = json.loads(sign_master(master_file.read_bytes(), scope, prefix)).get("sources") or []
            sources = [s for s in sources if isinstance(s, dict) and isinstance(s.get("link"), str) and s["link"]]
            chosen = next((s for s in sources if s.get("isDefault") is True), sources[0] if sources else None)
            if chosen is None:
                return None
            link = chosen["link"]
        if not link.startswith(prefix + "/"):
            return None  # an outside CDN's playlist, or another folder's: not ours to read
        playlist = safe_file(root, f"{scope}/{link[len(prefix) + 1:]}")
        if playlist is None or playlist.stat().st_size > PLAYLIST_INLINE_MAX:
            return None
        text = playlist.read_bytes().decode("utf-8")
        return {"url": link, "text": text, "media": starting_playlists(text, link)}
    except (OSError, ValueError, AttributeError):  # unreadable, not JSON, not an object, not UTF-8
        return None


def starting_playlists(text: str, link: str) -> list[str]:
    """The media playlists hls.js asks for first when it starts the master playlist ``text`` served at ``link``: its
    first variant is among the ``STARTING_VARIANTS`` of the lowest bandwidth (chosen by hls.js's default estimate, 500
    kbit/s, under the player's size cap; never an I-frame playlist), with the default audio rendition of each of their
    audio groups; resolved against ``link`` as hls.js resolves them. Asked for while the hls.js chunk still downloads,
    they spare the first frame a round trip in a row (562 ms on a slow 4G network; ``bin/bench``, slow profile). A
    variant hls.js does not start on is one it may switch to; each is under a kilobyte compressed."""
    lines = [line.strip() for line in text.splitlines()]
    variants: list[tuple[float, str, str | None]] = []
    default_audio: dict[str, str] = {}
    for index, line in enumerate(lines):
        if line.startswith("#EXT-X-STREAM-INF:"):
            attributes = _attributes(line)
            uri = next((later for later in lines[index + 1:] if later and not later.startswith("#")), None)
            if uri is not None:
                variants.append((_bandwidth(attributes.get("BANDWIDTH")), uri, attributes.get("AUDIO")))
        elif line.startswith("#EXT-X-MEDIA:"):
            attributes = _attributes(line)
            if attributes.get("TYPE") == "AUDIO" and attributes.get("DEFAULT") == "YES" and attributes.get("URI"):
                default_audio.setdefault(attributes.get("GROUP-ID", ""), attributes["URI"])
    chosen = sorted(variants, key=lambda variant: variant[0])[:STARTING_VARIANTS]
    uris = [uri for _, uri, _ in chosen] + [default_audio[group] for _, _, group in chosen
                                            if group is not None and group in default_audio]
    resolved = (urljoin(link, uri) for uri in uris)
    return list(dict.fromkeys(url for url in resolved if url.startswith(("/", "https://", "http://"))))


def _attributes(line: str) -> dict[str, str]:
    """A tag's attribute list (RFC 8216 4.2): NAME=value or NAME="quoted value", separated by commas."""
    return {name: value.strip('"') for name, value in ATTRIBUTE.findall(line.partition(":")[2])}


def _bandwidth(value: str | None) -> float:
    try:
        return float(value) if value is not None else math.inf
    except ValueError:
        return math.inf
