"""Who may use the admin: editors and administrators signed in with their account (app/services/accounts/accounts.py)
into a session held on the server (a row of auth_sessions: app/services/editorial/sessions.py), which Flask's signed
cookie (path /admin, HttpOnly, SameSite=Lax; app/config.py) only names; not the API's bearer tokens.

Every admin request reads the session and its account again (one query): a session signed out, revoked (a block, a
role change, a password change or reset end every session of the account) or older than ``ADMIN_SESSION_HOURS``
opens nothing, whoever holds a copy of the cookie; a blocked account, one made a viewer, or one whose password
changed since the sign-in (the cookie carries a fingerprint of the password's hash) is signed out at once. Anonymous
callers and viewers are sent to the sign-in page from every admin address; an editor asking for what only
administrators may do (the accounts) gets a 403 page."""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import urlsplit

from flask import abort, current_app, flash, g, redirect, request, session, url_for
from flask_admin import BaseView, expose
from werkzeug.wrappers import Response
from wtforms import EmailField, PasswordField
from wtforms.validators import DataRequired, Length

from app import registry
from app.admin.forms import EditorForm
from app.http.rates import limited_per_account, limited_per_ip
from app.models import Account, Role
from app.models.accounts import MAX_EMAIL, PASSWORD_MAX_LENGTH
from app.services.accounts import accounts
from app.services.editorial.audit import Actor
from app.services.editorial.sessions import admin_session_account, close_admin_session, open_admin_session
from app.services.errors import DomainError

SESSION_KEY = "admin"
NO_ACCESS = "У этой учётной записи нет доступа к редакции"
SIGNED_OUT = "Вы вышли из редакции"
SIGN_IN_ENDPOINT = "sign_in.index"


def fingerprint(account: Account) -> str:
    """Changes when the password does: a session opened before a password change ends with it."""
    return hashlib.sha256(f"{account.id}:{account.password_hash}".encode()).hexdigest()[:32]


def signed_in() -> Account | None:
    """This request's editor or administrator, or None (and the session is ended when it no longer holds)."""
    if "admin_account" in g:
        return g.admin_account
    held = session.get(SESSION_KEY)
    account = None
    if isinstance(held, dict) and isinstance(held.get("id"), int) and isinstance(held.get("session"), str):
        found = admin_session_account(held["session"], held["id"], current_app.permanent_session_lifetime)
        if (found is not None and not found.blocked and Role.EDITOR.admits(found.role)
                and held.get("fingerprint") == fingerprint(found)):
            account = found
    if account is None and held is not None:
        session.pop(SESSION_KEY, None)
    g.admin_account = account
    return account


def may(role: Role) -> bool:
    account = signed_in()
    return account is not None and role.admits(account.role)


class Guarded:
    """A Flask-Admin view for editors (``required_role``: or administrators only). Flask-Admin asks
    ``is_accessible`` before every one of the view's pages and actions."""

    required_role = Role.EDITOR

    def is_accessible(self) -> bool:
        allowed = may(self.required_role)
        account = signed_in()
        if allowed and account is not None:
            g.audit_actor = Actor.of(account)  # who the audit trail names for what this request changes
        return allowed

    def inaccessible_callback(self, name: str, **kwargs: Any) -> Response:
        if signed_in() is None:
            return redirect(url_for(SIGN_IN_ENDPOINT, next=request.full_path if request.method == "GET" else None))
        abort(403)


class SignInForm(EditorForm):
    email = EmailField("Почта", validators=[DataRequired(), Length(max=MAX_EMAIL)])
    password = PasswordField("Пароль", validators=[DataRequired(), Length(max=PASSWORD_MAX_LENGTH)])


class SignOutForm(EditorForm):
    """Only its CSRF token: signing out is a POST."""


class SignInView(BaseView):
    """The sign-in page (and the sign-out), open to everyone, not in the menu."""

    def is_visible(self) -> bool:
        return False

    @expose("/", methods=("GET", "POST"))
    @limited_per_ip
    @limited_per_account
    def index(self) -> Any:
        form = SignInForm(request.form)
        target = safe_next(request.args.get("next"))
        if request.method == "POST" and form.validate():
            try:
                account = accounts.authenticate(form.email.data or "", form.password.data or "")
            except DomainError as refusal:
                form.password.errors = [refusal.message]
            else:
                if not Role.EDITOR.admits(account.role):
                    form.password.errors = [NO_ACCESS]
                else:
                    _end_held_session()  # another account's (or a stale) session this browser held ends here
                    session.clear()  # a new session for the signed-in account (and a new CSRF secret)
                    session.permanent = True
                    session[SESSION_KEY] = {"id": account.id, "session": open_admin_session(account),
                                            "fingerprint": fingerprint(account)}
                    return redirect(target)
        elif signed_in() is not None and request.method == "GET":
            return redirect(target)
        return self.render("admin/sign_in.html", form=form, next=target)

    @expose("/out", methods=("POST",))
    def out(self) -> Response:
        if SignOutForm(request.form).validate():
            _end_held_session()
            session.clear()
            flash(SIGNED_OUT, "info")
        return redirect(url_for(SIGN_IN_ENDPOINT))


def _end_held_session() -> None:
    """Ends, on the server, the admin session this request's cookie names (if any)."""
    held = session.get(SESSION_KEY)
    if isinstance(held, dict) and isinstance(held.get("session"), str):
        close_admin_session(held["session"], registry.revocations())


def safe_next(target: str | None) -> str:
    """Where to go after signing in: an admin path of this site, never another site's address."""
    parts = urlsplit(target or "")
    if target and not parts.scheme and not parts.netloc and parts.path.startswith("/admin") \
            and "\\" not in target:
        return target
    return url_for("admin.index")


def sign_out_form() -> SignOutForm:
    return SignOutForm()
