"""A viewer's playlists (create, read, change, delete, list their own) and the editors' ones (by slug). The rules of
who may do what are access.py's; the caps (playlists per account) come from the caller (the configuration)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from app.clock import now
from app.extensions import db
from app.models import Content, Playlist, PlaylistItem, Visibility
from app.models.slugs import is_slug
from app.services.catalogue.paging import Page, paginate
from app.services.catalogue.publishing import public
from app.services.errors import Invalid
from app.services.playlists.access import Caller, active_account, may_read, playlist_not_found, readable, writable

EDITABLE = ("title", "description", "visibility")  # what a viewer may change of their playlist


@dataclass(frozen=True)
class Shown:
    """A playlist as the API shows it to one caller: the row, how many published contents it lists, whether the
    caller owns it."""

    playlist: Playlist
    contents_count: int
    own: bool


def create_playlist(caller: Caller, title: str, description: str, visibility: Visibility, cap: int) -> Shown:
    """A new playlist of the caller's account. At most ``cap`` per account: the account's row is locked while they
    are counted (PostgreSQL: FOR UPDATE), so two creations at once cannot both take the last place."""
    account = active_account(caller, lock=True)
    owned = db.session.scalar(select(func.count()).select_from(Playlist).where(Playlist.account_id == account.id))
    if (owned or 0) >= cap:
        raise Invalid("too_many_playlists", f"Можно завести не больше {cap} плейлистов: удалите ненужные",
                      {"limit": cap})
    moment = now()
    playlist = Playlist(account_id=account.id, title=_title(title), description=description.strip(),
                        visibility=visibility, published=True, created_at=moment, updated_at=moment)
    db.session.add(playlist)
    db.session.flush()
    return Shown(playlist, 0, True)


def show_playlist(playlist_id: int, caller: Caller) -> Shown:
    """The playlist, if the caller may read it (access.py); NotFound otherwise."""
    return shown(readable(playlist_id, caller), caller)


def update_playlist(playlist_id: int, caller: Caller, changes: Mapping[str, Any]) -> Shown:
    """Changes the title, description or visibility (those of ``changes`` given) of the caller's own playlist."""
    playlist = writable(playlist_id, caller)
    if "title" in changes:
        playlist.title = _title(changes["title"])
    if "description" in changes:
        playlist.description = changes["description"].strip()
    if "visibility" in changes:
        playlist.visibility = Visibility(changes["visibility"])
    playlist.updated_at = now()
    db.session.flush()
    return shown(playlist, caller)


def delete_playlist(playlist_id: int, caller: Caller) -> None:
    """Deletes the caller's own playlist with its list (the contents themselves stay in the catalogue)."""
    db.session.delete(writable(playlist_id, caller))
    db.session.flush()


def own_playlists(caller: Caller, page: int, page_size: int) -> Page:
    """The caller's playlists, the last changed first (a content added counts as a change), as ``Shown``."""
    account = active_account(caller)
    query = select(Playlist).where(Playlist.account_id == account.id).order_by(Playlist.updated_at.desc())
    found = paginate(query, Playlist.id.desc(), page, page_size)
    counts = contents_counts([playlist.id for playlist in found.items])
    return Page([Shown(playlist, counts.get(playlist.id, 0), True) for playlist in found.items], found.total,
                 found.page, found.page_size)


def editorial_by_slug(slug: str, caller: Caller) -> Shown:
    """The editors' playlist at ``slug``: published, or any to an editor (a preview); NotFound otherwise."""
    playlist = db.session.scalars(select(Playlist).where(Playlist.slug == slug)).first() if is_slug(slug) else None
    if playlist is None or not may_read(playlist, caller):
        raise playlist_not_found({"slug": slug})
    return shown(playlist, caller)


def shown(playlist: Playlist, caller: Caller) -> Shown:
    return Shown(playlist, contents_counts([playlist.id]).get(playlist.id, 0),
                 playlist.account_id is not None and playlist.account_id == caller.account_id)


def contents_counts(playlist_ids: Collection[int]) -> dict[int, int]:
    """How many published contents each playlist lists (one query for all): what anyone reading it is shown."""
    if not playlist_ids:
        return {}
    rows = db.session.execute(
        select(PlaylistItem.playlist_id, func.count())
        .join(Content, Content.id == PlaylistItem.content_id)
        .where(PlaylistItem.playlist_id.in_(playlist_ids), public())
        .group_by(PlaylistItem.playlist_id))
    return {playlist_id: count for playlist_id, count in rows}


def _title(title: str) -> str:
    cleaned = title.strip()
    if not cleaned:  # the schema refuses a blank one first; this guards other callers
        raise Invalid("blank_title", "Укажите название плейлиста")
    return cleaned
