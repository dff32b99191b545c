"""Who may read and change a playlist, decided here for every call.

- A viewer's playlist: its owner reads and changes it; a public one anyone may read; a private one is 404 to
  everyone else, editors and administrators included (its existence is not told).
- An editors' playlist: anyone reads it once published, editors and administrators before too (a preview); it is
  changed in the admin only, never through the API.
- A caller who may read a playlist but not change it is refused with 403; one who may not read it gets 404.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from app.extensions import db
from app.models import Account, Playlist, Role, Visibility
from app.models.ids import storable_id
from app.services.errors import Forbidden, NotFound, Unauthenticated

NOT_FOUND = "Плейлист не найден"
NOT_YOURS = "Менять плейлист может только его владелец"
EDITORIAL = "Подборки редакции меняются в админке"
BLOCKED = "Учётная запись заблокирована"


@dataclass(frozen=True)
class Caller:
    """Who asks: an account (its id and the role its token carries) or nobody."""

    account_id: int | None = None
    role: str | None = None

    @property
    def editor(self) -> bool:
        return Role.EDITOR.admits(self.role)


def playlist_not_found(details: dict[str, object]) -> NotFound:
    return NotFound("playlist_not_found", NOT_FOUND, details)


def may_read(playlist: Playlist, caller: Caller) -> bool:
    if playlist.editorial:
        return playlist.published or caller.editor
    return playlist.visibility == Visibility.PUBLIC or playlist.account_id == caller.account_id


def readable(playlist_id: int, caller: Caller) -> Playlist:
    """The playlist ``playlist_id`` if ``caller`` may read it; else NotFound, as if there were none."""
    playlist = db.session.get(Playlist, playlist_id) if storable_id(playlist_id) else None
    if playlist is None or not may_read(playlist, caller):
        raise playlist_not_found({"playlistId": playlist_id})
    return playlist


def writable(playlist_id: int, caller: Caller) -> Playlist:
    """The playlist ``playlist_id`` if ``caller`` (an account, not blocked) may change it, locked for the rest of the
    transaction (PostgreSQL: FOR UPDATE, so that changes to one playlist run one after another; SQLite has one writer
    at a time anyway). NotFound if the caller may not read it, Forbidden if they may read it only."""
    active_account(caller)
    query = select(Playlist).where(Playlist.id == playlist_id).with_for_update() if storable_id(playlist_id) else None
    playlist = db.session.scalars(query).first() if query is not None else None
    if playlist is None or not may_read(playlist, caller):
        raise playlist_not_found({"playlistId": playlist_id})
    if playlist.editorial:
        raise Forbidden("editorial_playlist", EDITORIAL, {"playlistId": playlist_id})
    if playlist.account_id != caller.account_id:
        raise Forbidden("playlist_not_yours", NOT_YOURS, {"playlistId": playlist_id})
    return playlist


def active_account(caller: Caller, lock: bool = False) -> Account:
    """The caller's account, when it exists and is not blocked (a block revokes its tokens; this holds even when the
    revocation list could not be asked); ``lock``: held for the transaction (PostgreSQL: FOR UPDATE)."""
    if caller.account_id is None:
        raise Unauthenticated("unauthorized", "Войдите, чтобы продолжить")
    query = select(Account).where(Account.id == caller.account_id)
    account = db.session.scalars(query.with_for_update() if lock else query).first()
    if account is None:
        raise Unauthenticated("unauthorized", "Войдите, чтобы продолжить")
    if account.blocked:
        raise Forbidden("account_blocked", BLOCKED)
    return account
