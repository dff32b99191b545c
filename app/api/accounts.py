"""The authenticator (spec §7): sign-up, sign-in, token refresh, restoring and changing a password, the account's own
details. Rules live in app/services/accounts/accounts.py and sessions.py; tokens and cookies in app/http/tokens.py.

Sign-in, sign-up, restore and refresh count per client address and per account (the email in the body, or the
refresh token) before the view runs, so before any password is hashed (app/http/rates.py); over the limit: 429 with
Retry-After. Each call is one transaction (app/transaction.py); its mail goes after the commit."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import current_app, jsonify, request
from flask_jwt_extended import decode_token, get_jwt, verify_jwt_in_request
from flask_jwt_extended.exceptions import JWTExtendedException
from jwt import PyJWTError
from werkzeug.wrappers import Response

from app import registry
from app.api.arguments import Blueprint
from app.api.decorators import require_role
from app.api.docs import answers, never_stored
from app.errors import ApiError
from app.http.mail import after_the_answer, send_later, send_now
from app.http.rates import limited_per_account, limited_per_ip
from app.http.tokens import current_account_id, current_session_id, encode_grant, set_token_cookies
from app.http.viewer import FINGERPRINT_HEADER, device_key
from app.models import Role
from app.schemas.accounts import (
    AcceptedSchema,
    CredentialsSchema,
    EmailSchema,
    OwnUserSchema,
    PasswordChangeSchema,
    RefreshRequestSchema,
    RenameQuerySchema,
    RestoreSchema,
    SignUpCompleteSchema,
    SignUpSchema,
    TokensSchema,
)
from app.services.accounts import accounts, sessions
from app.services.accounts.accounts import CodeRules, Mail
from app.services.activity.history import adopt_device_history
from app.services.activity.progress import adopt_device_progress
from app.transaction import after_commit, transaction

blp = Blueprint("accounts", __name__, description="Accounts: sign-up, sign-in, tokens, passwords (spec §7)")
MAIL_SENT = "Проверьте почту: мы отправили письмо с кодом"
RESTORE_SENT = "Если этот адрес зарегистрирован, мы отправили на него письмо с кодом"
PASSWORD_SET = "Пароль изменён: войдите с новым паролем"  # noqa: S105 - a message


never_stored(blp)


def code_rules() -> CodeRules:
    config = current_app.config
    return CodeRules(timedelta(minutes=config["ACCOUNT_CODE_MINUTES"]), int(config["ACCOUNT_CODE_ATTEMPTS"]))


def mail(message: Mail | None) -> None:
    """Sends ``message`` once this request's changes are committed (the code it names is stored), after the answer."""
    if message is not None:
        after_commit(lambda: send_later(message.to, message.subject, message.body))


def signed_in(grant: sessions.Grant, status: int = 200) -> Response:
    """The tokens in the body, the access token in Authorization (spec §7), and spec §3's cookies."""
    access, refresh, expires = encode_grant(grant)
    response = jsonify(TokensSchema().dump({"accessToken": access, "refreshToken": refresh, "expiresAt": expires}))
    response.status_code = status
    response.headers["Authorization"] = f"Bearer {access}"
    set_token_cookies(response, access, expires, refresh)
    return response


def open_session(account: Any) -> Response:
    """A new session for the account; what this device watched before it signed in (its progress, marks and
    history) becomes the account's, never doubled (app/services/activity)."""
    device = device_key(request.headers.get(FINGERPRINT_HEADER))
    if device is not None:
        adopt_device_progress(device, f"user:{account.id}")
        adopt_device_history(device, f"user:{account.id}")
    refresh_days = current_app.config["JWT_REFRESH_TOKEN_EXPIRES"]
    return signed_in(sessions.open_session(account, refresh_days, request.user_agent.string))


@blp.route("/signup", methods=["POST"])
@limited_per_ip
@limited_per_account
@blp.arguments(SignUpSchema)
@blp.response(202, AcceptedSchema)
@answers(blp, 422, 429, body=True)
def sign_up(body: dict[str, Any]) -> Any:
    """Creates an unconfirmed account and mails it a code; POST /signup/complete confirms it with the code and the
    password. No password is taken here: only who reads the mailbox chooses it, so a sign-up by someone else for the
    same email (before or after) never ends with an account whose password they know. A new sign-up replaces the
    pending one's code. A taken email gets the same answer; its owner is mailed instead."""
    mail(accounts.sign_up(body["email"], body["name"], code_rules()))
    return {"message": MAIL_SENT}


@blp.route("/signup/complete", methods=["POST"])
@limited_per_ip
@limited_per_account
@blp.arguments(SignUpCompleteSchema)
@blp.response(200, TokensSchema)
@answers(blp, 422, 429, body=True)
def complete_sign_up(body: dict[str, Any]) -> Any:
    """Confirms the account with the newest mailed code (single use; it expires; a few wrong tries end it), sets the
    password sent with it (and the name, when sent), and signs in. A weak password is refused without spending a
    try."""
    return open_session(accounts.complete_sign_up(body["email"], body["code"], body["password"], code_rules(),
                                                  name=body.get("name")))


@blp.route("/authentication", methods=["POST"])
@limited_per_ip
@limited_per_account
@blp.arguments(CredentialsSchema)
@blp.response(200, TokensSchema, headers={"Authorization": {"schema": {"type": "string"},
                                                            "description": "Bearer and the access token"}})
@answers(blp, 401, 403, 422, 429, body=True)
def authenticate(body: dict[str, Any]) -> Any:
    """Signs in: the tokens, and the cookies authToken (until the access token's exp) and refreshToken. An unknown
    email and a wrong password get the same answer."""
    return open_session(accounts.authenticate(body["email"], body["password"]))


@blp.route("/authentication/refresh", methods=["POST"])
@limited_per_ip
@limited_per_account
@blp.arguments(RefreshRequestSchema)
@blp.response(200, TokensSchema, headers={"Authorization": {"schema": {"type": "string"},
                                                            "description": "Bearer and the new access token"}})
@answers(blp, 401, 422, 429, body=True)
def refresh(body: dict[str, Any]) -> Any:
    """A new access token (in the Authorization header, spec §7) for the refresh token of the body or of the cookie
    (then with X-CSRF-TOKEN); the refresh token rotates. A refresh token used again later than a few seconds after
    its first use revokes its session."""
    verify_jwt_in_request(refresh=True, locations=["json", "cookies"])
    claims = get_jwt()
    _same_session(body.get("accessToken"), claims["sid"])
    config = current_app.config
    grant = sessions.rotate(claims["jti"], claims["sid"], config["JWT_REFRESH_TOKEN_EXPIRES"],
                            timedelta(seconds=config["REFRESH_GRACE_SECONDS"]), registry.revocations())
    return signed_in(grant)


def _same_session(access_token: str | None, session_id: str) -> None:
    """The expired access token the spec sends along, when sent, must be of the same session."""
    if not access_token:
        return
    try:
        claims = decode_token(access_token, allow_expired=True)
    except (JWTExtendedException, PyJWTError):
        raise ApiError(401, "invalid_token", "Токен недействителен") from None
    if claims.get("sid") != session_id:
        raise ApiError(401, "token_mismatch", "Токены разных сеансов")


@blp.route("/user/password/restore/init", methods=["POST"])
@limited_per_ip
@limited_per_account
@blp.arguments(EmailSchema)
@blp.response(202, AcceptedSchema)
@answers(blp, 422, 429, body=True)
def start_restore(body: dict[str, Any]) -> Any:
    """Mails a code that sets a new password. The same answer, in the same time, whether the email has an account or
    not: the lookup, the code and the mail all come after the answer."""
    email, rules = body["email"], code_rules()

    def restore_later() -> None:
        with transaction():
            message = accounts.start_restore(email, rules)
            if message is not None:
                after_commit(lambda: send_now(message.to, message.subject, message.body))

    after_the_answer(restore_later)
    return {"message": RESTORE_SENT}


@blp.route("/user/password/restore", methods=["POST"])
@limited_per_ip
@limited_per_account
@blp.arguments(RestoreSchema)
@blp.response(200, AcceptedSchema)
@answers(blp, 422, 429, body=True)
def restore(body: dict[str, Any]) -> Any:
    """Sets the new password with the mailed code and ends every session of the account."""
    accounts.restore_password(body["email"], body["code"], body["password"], code_rules(), registry.revocations())
    return {"message": PASSWORD_SET}


@blp.route("/user/password/change", methods=["POST"])
@require_role(blp, Role.VIEWER)
@limited_per_ip
@blp.arguments(PasswordChangeSchema)
@blp.response(204)
@answers(blp, 401, 403, 422, 429, body=True)
def change_password(body: dict[str, Any]) -> None:
    """Changes the password; every other session of the account ends (this one goes on)."""
    accounts.change_password(current_account_id(), body["oldPassword"], body["newPassword"], registry.revocations(),
                             keep_session=current_session_id())


@blp.route("/user/rename", methods=["PATCH"])
@require_role(blp, Role.VIEWER)
@blp.arguments(RenameQuerySchema, location="query")
@blp.response(200, OwnUserSchema)
@answers(blp, 401, 422)
def rename(query: dict[str, Any]) -> Any:
    """Renames the account (query ``name``)."""
    return accounts.rename(current_account_id(), query["name"])


@blp.route("/user/details")
@require_role(blp, Role.VIEWER)
@blp.response(200, OwnUserSchema)
@answers(blp, 401)
def details() -> Any:
    """The signed-in account: id, email, name, role, subscription."""
    return accounts.get_account(current_account_id())
