"""Administrators make accounts in the admin (issue 31, defect 7): email, name, role and a first password by the API's
rule, typed twice; the account signs in at once, the trail records it (its password as "changed" only), a taken
email or a weak password is refused on its field with the rest kept; an editor cannot make one."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.extensions import db
from app.models import Account, AuditEntry, Role
from tests.admin.conftest import EMAILS
from tests.admin.helpers import field_errors, flashes, page, post_form, sign_in

NEW = "Новый пароль редакции 2026"


def new_account(client: FlaskClient, **fields: str) -> object:
    form = {"email": "Maria@Example.com", "name": "Мария Новикова", "role": "editor", "password": NEW,
            "password_again": NEW, **fields}
    return post_form(client, "/admin/account/new/", form)


def test_an_administrator_makes_an_editor_who_signs_in_at_once(app: Flask, accounts: dict[Role, int],
                                                                signed_in: Callable[[Role], FlaskClient]):
    admin = signed_in(Role.ADMIN)
    assert page(admin.get("/admin/account/")).xpath("//a[contains(@href, '/admin/account/new/')]")
    response = new_account(admin)
    assert response.status_code == 302, flashes(response)
    with app.app_context():
        made = db.session.scalar(db.select(Account).where(Account.email == "maria@example.com"))
        assert made is not None and made.role is Role.EDITOR and made.name == "Мария Новикова" and made.confirmed
        entry = db.session.scalar(db.select(AuditEntry).where(AuditEntry.object_type == "accounts",
                                                              AuditEntry.object_id == str(made.id)))
        assert entry is not None and entry.action.value == "create"
        assert entry.account_label.endswith("<admin@example.com>")
        assert entry.changes["email"] == [None, "maria@example.com"] and entry.changes["role"] == [None, "editor"]
        assert entry.changes["password_hash"] == [None, "•••"]
    newcomer = app.test_client()
    assert sign_in(newcomer, "maria@example.com", NEW).status_code == 302
    assert newcomer.get("/admin/content/").status_code == 200


@pytest.mark.parametrize(("fields", "field", "message"), [
    ({"password": "password123", "password_again": "password123"}, "password",
     "Этот пароль слишком распространён, выберите другой"),
    ({"password": "short", "password_again": "short"}, "password", "Пароль должен быть не короче 10 символов"),
    ({"password_again": "другой пароль совсем"}, "password_again", "Пароли не совпадают."),
    ({"email": EMAILS[Role.VIEWER]}, "email", "Этот адрес почты уже занят"),
    ({"email": "not-an-address"}, "email", "Это не адрес почты: нужен вид name@example.ru."),
])
def test_a_refused_account_says_why_on_its_field_and_keeps_the_rest(
        app: Flask, accounts: dict[Role, int], signed_in: Callable[[Role], FlaskClient],
        fields: dict[str, str], field: str, message: str):
    response = new_account(signed_in(Role.ADMIN), **fields)
    assert response.status_code == 200
    assert message in field_errors(response, field)
    form = page(response)
    assert form.xpath("//input[@name='name']/@value") == ["Мария Новикова"]
    assert form.xpath("//select[@name='role']/option[@selected]/@value") == ["editor"]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Account)) == 3
        assert db.session.scalar(db.select(db.func.count()).select_from(AuditEntry)) == 0


def test_an_editor_cannot_make_an_account(app: Flask, accounts: dict[Role, int],
                                          signed_in: Callable[[Role], FlaskClient]):
    editor = signed_in(Role.EDITOR)
    assert editor.get("/admin/account/new/").status_code == 403
    response = editor.post("/admin/account/new/", data={"email": "x@example.com", "name": "X", "role": "admin",
                                                        "password": NEW, "password_again": NEW})
    assert response.status_code == 403
    with app.app_context():
        assert db.session.scalar(db.select(Account).where(Account.email == "x@example.com")) is None
