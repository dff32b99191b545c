"""A playlist's contents: a page of them (published ones only, to everyone, its owner included), and adding or
removing one (its owner only).

An add is idempotent: a content already in the playlist stays where it is and the add answers that nothing changed.
A playlist holds at most ``cap`` contents (the configuration's). The playlist's row is locked first (access.py
``writable``: PostgreSQL's FOR UPDATE), so the adds to one playlist run one after another: the count they check is
exact, two adds can never both take the last place, and the new content's position (after the last) is unique."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select

from app.clock import now
from app.database import dialect_insert
from app.extensions import db
from app.models import Content, PlaylistItem
from app.models.ids import storable_id
from app.services.catalogue.cards import CARD_OPTIONS
from app.services.catalogue.contents import content_not_found
from app.services.catalogue.filters import ListRequest, filtered, ordered
from app.services.catalogue.paging import Page, paginate
from app.services.catalogue.publishing import public
from app.services.errors import Invalid
from app.services.playlists.access import Caller, readable, writable


@dataclass(frozen=True)
class Membership:
    """Whether the content is in the playlist after the call, and whether the call changed that."""

    playlist_id: int
    content_id: int
    in_playlist: bool
    changed: bool


def playlist_contents(playlist_id: int, caller: Caller, request: ListRequest) -> Page:
    """A page of the playlist's published contents (as cards), filtered and sorted as the catalogue's lists are
    (app/services/catalogue/filters.py); the position sort is the playlist's own order (the order they were added
    in, or the editors')."""
    playlist = readable(playlist_id, caller)
    query = (select(Content).join(PlaylistItem, PlaylistItem.content_id == Content.id)
             .where(PlaylistItem.playlist_id == playlist.id))
    query = ordered(filtered(query, request), request, editorial=PlaylistItem.position).options(*CARD_OPTIONS)
    return paginate(query, Content.id, request.page, request.page_size)


def add_content(playlist_id: int, content_id: int, caller: Caller, cap: int) -> Membership:
    """Adds a published content at the end of the caller's playlist; nothing when it is there already."""
    playlist = writable(playlist_id, caller)
    if not storable_id(content_id) or not db.session.scalar(
            select(public()).where(Content.id == content_id)):
        raise content_not_found(content_id)  # 'Контент не доступен': missing or unpublished alike
    held = db.session.execute(
        select(func.count(), func.max(PlaylistItem.position),
               func.count().filter(PlaylistItem.content_id == content_id))
        .where(PlaylistItem.playlist_id == playlist.id)).one()
    count, last, present = held
    if present:
        return Membership(playlist.id, content_id, True, False)
    if count >= cap:
        raise Invalid("playlist_full", f"В плейлисте может быть не больше {cap} фильмов и сериалов",
                      {"limit": cap, "playlistId": playlist.id})
    moment = now()
    added = db.session.scalar(
        dialect_insert(db.session, PlaylistItem)
        .values(playlist_id=playlist.id, content_id=content_id, position=(last or 0) + 1, added_at=moment)
        .on_conflict_do_nothing(index_elements=["playlist_id", "content_id"]).returning(PlaylistItem.id))
    playlist.updated_at = moment
    db.session.flush()
    return Membership(playlist.id, content_id, True, added is not None)


def remove_content(playlist_id: int, content_id: int, caller: Caller) -> Membership:
    """Takes the content out of the caller's playlist, published or not; nothing when it is not there."""
    playlist = writable(playlist_id, caller)
    removed = db.session.execute(
        delete(PlaylistItem).where(PlaylistItem.playlist_id == playlist.id, PlaylistItem.content_id == content_id)
    ) if storable_id(content_id) else None
    changed = bool(removed is not None and removed.rowcount)  # type: ignore[attr-defined]
    if changed:
        playlist.updated_at = now()
        db.session.flush()
    return Membership(playlist.id, content_id, False, changed)
