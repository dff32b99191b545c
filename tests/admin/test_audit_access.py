"""The audit trail shows an editor only what their role may see (issue 30, hole 6): entries about accounts, sessions,
codes, subscriptions and every other table outside the catalogue, the site and the ads are for administrators, in the
list, its search and filters, the details, the history pages and by direct address; an editor's search finds none."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_admin.contrib.sqla import ModelView
from sqlalchemy import insert, select

from app.clock import now
from app.extensions import db
from app.models import AuditAction, AuditEntry, Role
from app.transaction import transaction
from tests.admin.conftest import EMAILS
from tests.admin.helpers import csrf_of, page, post_form

ACCOUNT_TABLES = ("accounts", "auth_sessions", "refresh_tokens", "account_codes", "subscriptions", "payment_events",
                  "watch_progress", "a_table_made_tomorrow")


@pytest.fixture
def trail(app: Flask, accounts: dict[Role, int], signed_in: Callable[[Role], FlaskClient]) -> dict[str, int]:
    """An administrator made the viewer an editor and blocked them; an editor added a genre; and one entry for every
    other table of accounts (as a script, or tomorrow's code, might record them)."""
    admin = signed_in(Role.ADMIN)
    viewer = accounts[Role.VIEWER]
    assert post_form(admin, f"/admin/account/edit/?id={viewer}", {"name": "viewer", "role": "editor"}
                     ).status_code == 302
    assert admin.post("/admin/account/action/", data={"action": "block", "rowid": str(viewer),
                                                      "csrf_token": csrf_of(admin, "/admin/account/")}
                      ).status_code == 302
    editor = signed_in(Role.EDITOR)
    assert post_form(editor, "/admin/genre/new/", {"title": "Нуар", "slug": "noir"}).status_code == 302
    with app.app_context(), transaction():
        db.session.execute(insert(AuditEntry), [
            {"at": now(), "account_id": accounts[Role.ADMIN], "account_label": "admin <admin@example.com>",
             "action": AuditAction.UPDATE, "object_type": table, "object_id": str(viewer),
             "object_label": f"viewer <{EMAILS[Role.VIEWER]}>", "changes": {"email": [EMAILS[Role.VIEWER], None]}}
            for table in ACCOUNT_TABLES[1:]])
    with app.app_context():
        ids = {entry.object_type: entry.id for entry in db.session.scalars(select(AuditEntry))}
    return ids


def listed_tables(client: FlaskClient, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200
    return [" ".join(cell.split()) for cell in page(response).xpath("//td[contains(@class, 'col-object_type')]/text()")]


def filter_arg(app: Flask, column: str, operation: str) -> str:
    """The list's query argument of the filter on ``column`` with ``operation`` (Flask-Admin numbers them)."""
    view = next(view for view in app.extensions["admin"][0]._views if getattr(view, "endpoint", "") == "audit")
    assert isinstance(view, ModelView) and view._filter_args is not None
    return next(f"flt0_{key}" for key, (_, flt) in view._filter_args.items()
                if flt.column.key == column and flt.operation() == operation)


def test_an_editor_searching_the_trail_for_an_email_finds_nothing(trail: dict[str, int],
                                                                 signed_in: Callable[[Role], FlaskClient]):
    editor, admin = signed_in(Role.EDITOR), signed_in(Role.ADMIN)
    for query in (EMAILS[Role.VIEWER], "viewer", "accounts", "auth_sessions", "blocked_at"):
        [table] = page(editor.get(f"/admin/audit/?search={query}")).xpath("//table[contains(@class, 'model-list')]")
        assert EMAILS[Role.VIEWER] not in table.text_content(), query
        assert listed_tables(editor, f"/admin/audit/?search={query}") == [], query
    assert "Учётная запись" in listed_tables(admin, f"/admin/audit/?search={EMAILS[Role.VIEWER]}")


def test_an_editor_lists_only_the_catalogues_entries(app: Flask, trail: dict[str, int],
                                                     signed_in: Callable[[Role], FlaskClient]):
    editor, admin = signed_in(Role.EDITOR), signed_in(Role.ADMIN)
    with app.app_context():
        total = len(db.session.scalars(select(AuditEntry.id)).all())
    assert listed_tables(editor, "/admin/audit/") == ["Жанр"]
    assert len(listed_tables(admin, "/admin/audit/")) == total
    for table in ACCOUNT_TABLES:
        assert listed_tables(editor, f"/admin/audit/?{filter_arg(app, 'object_type', 'equals')}={table}") == []
    assert "Учётная запись" in listed_tables(
        admin, f"/admin/audit/?{filter_arg(app, 'object_type', 'equals')}=accounts")
    for client, count in ((editor, 1), (admin, total)):
        dashboard = " ".join(page(client.get("/admin/")).text_content().split())
        assert f"{count} Изменения в журнале" in dashboard


def test_an_editor_opens_no_account_entry_by_its_address(app: Flask, trail: dict[str, int], accounts: dict[Role, int],
                                                          signed_in: Callable[[Role], FlaskClient]):
    editor, admin = signed_in(Role.EDITOR), signed_in(Role.ADMIN)
    viewer = accounts[Role.VIEWER]
    for table in ACCOUNT_TABLES:
        details = editor.get(f"/admin/audit/details/?id={trail[table]}")
        assert details.status_code == 302 and EMAILS[Role.VIEWER] not in details.get_data(as_text=True), table
        history = editor.get(f"/admin/audit/object/{table}/{viewer}")
        assert history.status_code == 403, table
        assert EMAILS[Role.VIEWER] not in history.get_data(as_text=True)
        assert admin.get(f"/admin/audit/object/{table}/{viewer}").status_code == 200, table
        assert EMAILS[Role.VIEWER] in admin.get(f"/admin/audit/details/?id={trail[table]}").get_data(as_text=True)
    assert editor.get(f"/admin/audit/details/?id={trail['genres']}").status_code == 200
    assert editor.get(f"/admin/audit/object/genres/{trail['genres']}").status_code in (200, 404)
