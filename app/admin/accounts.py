"""Accounts in the admin, for administrators only: search, change a role, block and unblock. An administrator cannot
change their own role nor block themselves (nobody locks the team out by a slip); a role change or a block ends the
account's API sessions (its tokens carry the old role)."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash
from flask_admin.actions import action
from flask_admin.contrib.sqla.filters import DateTimeBetweenFilter, FilterEmpty
from wtforms import ValidationError
from wtforms.fields import SelectField

from app.admin.access import signed_in
from app.admin.base import EditorModelView
from app.extensions import db
from app.models import Account, Role
from app.services.accounts.accounts import set_blocked
from app.services.accounts.sessions import revoke_account_sessions
from app.services.errors import DomainError

ROLE_LABELS = {Role.VIEWER: "Зритель", Role.EDITOR: "Редактор", Role.ADMIN: "Администратор"}


def role_label(role: Role | str) -> str:
    return ROLE_LABELS.get(Role(role), str(role))


class AccountView(EditorModelView):
    required_role = Role.ADMIN
    can_create = False
    can_delete = False
    column_list = ("name", "email", "role", "confirmed_at", "blocked_at", "created_at")
    column_searchable_list = ("email", "name")
    column_filters = ("role", FilterEmpty(Account.blocked_at, "Дата блокировки"),
                      DateTimeBetweenFilter(Account.created_at, "Создан"))
    column_sortable_list = ("name", "email", "role", "created_at", "blocked_at")
    column_default_sort = ("created_at", True)
    column_formatters = {"role": lambda _v, _c, account, _n: role_label(account.role)}
    form_columns = ("name", "role")
    form_overrides = {"role": SelectField}
    form_args = {"role": {"choices": [(role.value, label) for role, label in ROLE_LABELS.items()], "coerce": Role}}
    action_disallowed_list = ["delete"]

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
