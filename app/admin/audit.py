"""The audit trail in the admin: every flush made by an admin request is recorded (app/services/editorial/audit.py) in
its own transaction, and a commit that changed anything makes every cached read derived from the catalogue stale
(app/caching.py), so that the player and the API show the change at once. The trail's view lists entries, and one
object's history; it has no create, edit or delete.

An editor reads only the entries of the tables editors edit (``EDITOR_TABLES``: the catalogue, the site, the ads, the
reviews and abuse reports they moderate), in
the list, its search and filters, the details and the history pages alike; every other table's (accounts, their
sessions, codes, subscriptions, viewing progress, and any table added later) are for administrators."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from flask import abort, flash, g, has_request_context, redirect, request, url_for
from flask_admin import expose
from flask_admin.contrib.sqla import ModelView
from flask_admin.model import typefmt
from sqlalchemy import ColumnElement, event, func, select, true
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.admin.access import Guarded, may
from app.admin.base import ListGuards, moment
from app.admin.forms import EditorForm, has_control_character
from app.admin.labels import TABLES
from app.admin.moments import MoscowBetweenFilter
from app.admin.readable import ACTIONS, LABELS, field_label
from app.admin.readable import changes as readable_changes
from app.caching import invalidate_catalogue
from app.extensions import db
from app.models import AlternativeTitle, AuditEntry, Role
from app.models.ids import storable_id
from app.services.editorial.audit import record_flush
from app.services.editorial.revert import mapper_of, revert_change, revert_to, row_label
from app.services.errors import DomainError
from app.services.search.index import reindex

ACTION_LABELS = ACTIONS
HISTORY_LIMIT = 500
EDITOR_TABLES = frozenset({
    "contents", "seasons", "episodes", "availability_rules", "content_persons", "content_categories", "content_types",
    "categories", "genres", "tags", "countries", "languages", "voice_authors", "persons", "person_types",
    "promo_slides", "menu_items", "redirects", "ad_creatives", "ad_media_files", "ad_placements", "playlists",
    "playlist_items", "reviews", "abuse_reports", "alternative_titles"})


def readable(object_type: str) -> bool:
    """Whether this request's editor or administrator may read the entries about ``object_type``'s rows."""
    return may(Role.ADMIN) or object_type in EDITOR_TABLES


def readable_entries() -> ColumnElement[bool]:
    """The entries this request's editor or administrator may read, as a condition on audit_entries."""
    return true() if may(Role.ADMIN) else AuditEntry.object_type.in_(sorted(EDITOR_TABLES))


def readable_count() -> int:
    return db.session.scalar(select(func.count()).select_from(AuditEntry).where(readable_entries())) or 0


def _recorded(session: Session, _context: Any) -> None:
    actor = g.get("audit_actor") if has_request_context() else None
    if actor is not None and record_flush(session, actor):
        g.audit_changed = True


def _committed(_session: Session) -> None:
    if has_request_context() and g.pop("audit_changed", False):
        invalidate_catalogue()


def listen() -> None:
    """Once per process (the listeners are on every Session; they act only in a request an editor makes)."""
    if not event.contains(Session, "after_flush", _recorded):
        event.listen(Session, "after_flush", _recorded)
        event.listen(Session, "after_commit", _committed)


def _contents_of(entry: AuditEntry) -> list[int]:
    """The contents whose search documents a revert of ``entry`` changes: a content's own, or an alternative title's
    content (the one it names before and after, and its row's now)."""
    if entry.object_type == "contents":
        return [int(entry.object_id)]
    if entry.object_type != "alternative_titles":
        return []
    row = db.session.get(AlternativeTitle, int(entry.object_id))
    named = [row.content_id if row is not None else None, *((entry.changes or {}).get("content_id") or ())]
    return sorted({content_id for content_id in named if isinstance(content_id, int)})


class RevertForm(EditorForm):
    """Only its CSRF token: a revert is a POST."""


def revertable(entry: AuditEntry) -> bool:
    """Whether this request's editor or administrator may revert ``entry``: the tables editors edit (an account is
    changed on its own page, where its rules are: sessions end, nobody changes their own role)."""
    return entry.object_type in EDITOR_TABLES and readable(entry.object_type)


class AuditView(Guarded, ListGuards, ModelView):
    """The trail, newest first: read only."""

    can_create = False
    can_edit = False
    can_delete = False
    can_view_details = True
    action_disallowed_list = ["delete"]
    column_default_sort = ("at", True)
    column_list = ("at", "account_label", "action", "object_type", "object_label", "changes")
    column_details_list = column_list
    column_searchable_list = ("object_label", "account_label", "object_type")
    column_filters = ("action", "object_type", "account_label", MoscowBetweenFilter(AuditEntry.at, "Когда"))
    column_labels = {"at": "Когда", "account_label": "Кто", "action": "Действие", "object_type": "Таблица",
                     "object_id": "Номер", "object_label": "Объект", "changes": "Поля: было → стало"}
    column_formatters = {"changes": lambda _v, _c, entry, _n: readable_changes(entry),
                         "action": lambda _v, _c, entry, _n: ACTION_LABELS.get(entry.action.value, entry.action.value),
                         "object_type": lambda _v, _c, entry, _n: TABLES.get(entry.object_type, entry.object_type)}
    column_type_formatters = {**typefmt.BASE_FORMATTERS, datetime: moment}
    column_choices = {"action": list(ACTION_LABELS.items()), "object_type": sorted(TABLES.items(), key=lambda p: p[1])}
    column_formatters_detail = column_formatters
    page_size = 50

    def get_query(self) -> Any:
        return super().get_query().filter(readable_entries())

    def get_count_query(self) -> Any:
        return super().get_count_query().filter(readable_entries())

    def get_one(self, id: Any) -> Any:
        entry = super().get_one(id)
        return entry if entry is not None and readable(entry.object_type) else None

    @expose("/object/<object_type>/<object_id>")
    def history(self, object_type: str, object_id: str) -> Any:
        """One object's history, newest first."""
        if has_control_character(object_type + object_id) or max(len(object_type), len(object_id)) > 64:
            abort(404)  # names no row (and PostgreSQL refuses a NUL)
        if not readable(object_type):
            abort(403)
        entries = list(db.session.scalars(
            select(AuditEntry).where(AuditEntry.object_type == object_type, AuditEntry.object_id == object_id)
            .order_by(AuditEntry.at.desc(), AuditEntry.id.desc()).limit(HISTORY_LIMIT)))
        if not entries:
            abort(404)
        gone = row_label(db.session(), object_type, object_id) is None if mapper_of(object_type) else True
        return self.render("admin/history.html", entries=entries, label=entries[0].object_label, moment=moment,
                           changes=readable_changes, actions=ACTION_LABELS, revertable=revertable, gone=gone,
                           form=RevertForm(), newest=entries[0].id)

    @expose("/revert/<int:entry_id>", methods=("POST",))
    def revert(self, entry_id: int) -> Any:
        """Reverts one change (``whole`` absent) or brings its object back to right after it (``whole=1``); the
        revert is recorded in the trail, naming the entry; a refusal changes nothing and says why."""
        entry = db.session.get(AuditEntry, entry_id) if storable_id(entry_id) else None
        if entry is None or not readable(entry.object_type):
            abort(404 if entry is None else 403)
        back = url_for(".history", object_type=entry.object_type, object_id=entry.object_id)
        if not revertable(entry):
            flash("Эти записи здесь не откатываются: измените их на их странице.", "error")
            return redirect(back)
        if not RevertForm(request.form).validate():
            flash("Форма устарела: нажмите кнопку ещё раз.", "error")
            return redirect(back)
        whole = request.form.get("whole") == "1"
        g.audit_actor = replace(g.audit_actor, note={"entry": entry.id, "whole": whole})
        try:
            skipped = (revert_to if whole else revert_change)(db.session(), entry, LABELS)
        except (DomainError, IntegrityError) as refusal:
            db.session.rollback()  # this request changed nothing else
            flash(refusal.message if isinstance(refusal, DomainError) else
                  "Откат противоречит другим записям (повтор или ссылка на удалённое): ничего не изменено.", "error")
            return redirect(back)
        touched = _contents_of(entry)
        if touched:
            reindex(touched)  # search sees the revert at once, as it sees a save
        said = "Возвращено к состоянию после этой записи." if whole else "Изменение откачено."
        if skipped:
            said += " Не откатываются здесь (у них своя история): " + ", ".join(field_label(f) for f in skipped) + "."
        flash(said, "success")
        return redirect(back)
