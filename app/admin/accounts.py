"""Accounts in the admin, for administrators only: create, search, change a role, block and unblock. An administrator
cannot change their own role nor block themselves (nobody locks the team out by a slip); a role change or a block ends
the account's API sessions (its tokens carry the old role).

A new account (issue 31, defect 7) is made as Django's admin makes one: the administrator types its email, name, role
and a first password twice, which the API's rule checks (app/services/accounts/passwords.py: length, not a common
password, not the email); the account is confirmed at once (an administrator vouches for the address) and recorded in
the trail, its password as "changed" only. Not an invitation by mail: this application has no page where a code
could be taken and a password chosen outside the publisher's site, and a password handed over is changed by its owner
through the API (PUT /user/password) or the restore by mail."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, g
from flask_admin.actions import action
from flask_admin.contrib.sqla.filters import FilterEmpty
from flask_admin.helpers import get_form_data
from marshmallow import ValidationError as NotAnEmail
from marshmallow.validate import Email
from wtforms import EmailField, Field, Form, PasswordField, StringField, ValidationError
from wtforms.fields import SelectField
from wtforms.validators import DataRequired, EqualTo, Length

from app.admin.access import signed_in
from app.admin.base import EditorModelView
from app.admin.forms import EditorForm
from app.admin.moments import MoscowBetweenFilter
from app.extensions import db
from app.models import Account, Role
from app.models.accounts import MAX_EMAIL, MAX_NAME, PASSWORD_MAX_LENGTH
from app.services.accounts.accounts import create_account, set_blocked
from app.services.accounts.passwords import MIN_LENGTH
from app.services.accounts.sessions import revoke_account_sessions
from app.services.editorial.audit import record_made
from app.services.errors import DomainError

ROLE_LABELS = {Role.VIEWER: "Зритель", Role.EDITOR: "Редактор", Role.ADMIN: "Администратор"}


def role_label(role: Role | str) -> str:
    return ROLE_LABELS.get(Role(role), str(role))


def _an_email(_form: Form, field: Field) -> None:
    try:
        Email()(field.data or "")
    except NotAnEmail:
        raise ValidationError("Это не адрес почты: нужен вид name@example.ru.") from None


class NewAccountForm(EditorForm):
    email = EmailField("Почта", validators=[DataRequired("Укажите адрес почты."), Length(max=MAX_EMAIL), _an_email],
                       render_kw={"autocomplete": "off"})
    name = StringField("Имя", validators=[DataRequired("Укажите имя."), Length(max=MAX_NAME)])
    role = SelectField("Роль", choices=[(role.value, label) for role, label in ROLE_LABELS.items()],
                       default=Role.EDITOR.value)
    password = PasswordField(
        "Пароль", validators=[DataRequired("Придумайте пароль."), Length(max=PASSWORD_MAX_LENGTH)],
        description=f"Не короче {MIN_LENGTH} символов, не из распространённых и не сама почта. Передайте его "
                    "владельцу: он сменит его у себя.", render_kw={"autocomplete": "new-password"})
    password_again = PasswordField("Пароль ещё раз", validators=[
        DataRequired("Повторите пароль."), EqualTo("password", "Пароли не совпадают.")],
        render_kw={"autocomplete": "new-password"})


class AccountView(EditorModelView):
    required_role = Role.ADMIN
    can_create = True
    can_delete = False
    column_list = ("name", "email", "role", "confirmed_at", "blocked_at", "created_at")
    column_searchable_list = ("email", "name")
    column_filters = ("role", FilterEmpty(Account.blocked_at, "Дата блокировки"),
                      MoscowBetweenFilter(Account.created_at, "Создан"))
    column_sortable_list = ("name", "email", "role", "created_at", "blocked_at")
    column_default_sort = ("created_at", True)
    column_formatters = {"role": lambda _v, _c, account, _n: role_label(account.role)}
    column_choices = {"role": [(role.value, label) for role, label in ROLE_LABELS.items()]}  # the filter's words
    form_columns = ("name", "role")
    form_overrides = {"role": SelectField}
    form_args = {"role": {"choices": [(role.value, label) for role, label in ROLE_LABELS.items()], "coerce": Role}}
    action_disallowed_list = ["delete"]

    def create_form(self, obj: Any = None) -> Any:
        return NewAccountForm(get_form_data())

    def create_model(self, form: Any) -> Account | bool:
        """By the API's rule (app/services/accounts/accounts.py ``create_account``); a refusal on its field."""
        try:
            account = create_account(form.email.data, form.name.data, form.password.data, Role(form.role.data))
        except DomainError as refusal:
            named = {name: messages for name, messages in refusal.fields.items() if name in ("email", "password")}
            for name, messages in named.items():
                form[name].errors = [*form[name].errors, *messages]
            if not named:
                flash(refusal.message, "error")
            return False
        record_made(db.session(), g.audit_actor, account)  # inserted by a statement: no flush saw it new
        return account

    def on_model_change(self, form: Any, model: Account, is_created: bool) -> None:
        me = signed_in()
        history = db.inspect(model).attrs.role.history
        if not history.has_changes():
            return
        if me is not None and model.id == me.id:
            raise ValidationError("Свою роль изменить нельзя: попросите другого администратора.")
        revoke_account_sessions(model.id, "role_changed", current_app.extensions["revocations"])

    @action("block", "Заблокировать", "Заблокировать выбранные учётные записи? Их сеансы закончатся сразу.")
    def block(self, ids: list[str]) -> None:
        self._set_blocked(ids, True)

    @action("unblock", "Разблокировать", "Разблокировать выбранные учётные записи?")
    def unblock(self, ids: list[str]) -> None:
        self._set_blocked(ids, False)

    def _set_blocked(self, ids: list[str], blocked: bool) -> None:
        me = signed_in()
        done = 0
        for account_id in ids:
            try:
                set_blocked(int(account_id), blocked, me.id if me else 0, current_app.extensions["revocations"])
                done += 1
            except DomainError as refusal:
                flash(refusal.message, "error")
        if done:
            flash(f"{'Заблокировано' if blocked else 'Разблокировано'}: {done}.", "success")
