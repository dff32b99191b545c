"""Accounts on the wire (spec §7 "Authenticator"): camelCase like the spec's own ``refreshToken``, ``accessToken``.

One ``UserSchema`` serves the account's own details and the administrators' lists (``ADMIN_FIELDS`` are theirs).
Passwords are load-only everywhere: no schema dumps one."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.models.accounts import MAX_EMAIL, MAX_NAME, Role, SubscriptionStatus
from app.models.accounts import PASSWORD_MAX_LENGTH as MAX_LENGTH
from app.models.accounts import PASSWORD_MIN_LENGTH as MIN_LENGTH
from app.schemas.common import Count, FullMatch, Text

MAX_PASSWORD_INPUT = 1024  # the rules (app/services/accounts/passwords.py) say more; this bounds what is read at all
MAX_TOKEN = 4096

# The document's examples of a session's tokens (HS256, flask-jwt-extended's default; the signatures are made up)
_JWT_HEADER = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
EXAMPLE_ACCESS = (f"{_JWT_HEADER}.eyJzdWIiOiI0MiIsInR5cGUiOiJhY2Nlc3MiLCJyb2xlIjoidmlld2VyIiwic2lkIjoiNWYwYzJhOWUiLCJl"
                  "eHAiOjE3OTU2NDEzMDB9.f4_EhPqsvGqN14VIqXc9sUIA55BdS-kwM33lcSIQQ-k")
EXAMPLE_REFRESH = (f"{_JWT_HEADER}.eyJzdWIiOiI0MiIsInR5cGUiOiJyZWZyZXNoIiwic2lkIjoiNWYwYzJhOWUiLCJleHAiOjE3OTgyMzMzMDB9"
                   ".QhJJNP3kRn2y_omKpicSCwOYvyGiFmzFnNzBgD8v-LQ")
EXAMPLE_SUBSCRIPTION = {"id": 7, "plan": "month", "status": "active", "createdAt": "2026-11-25T17:05:00+00:00",
                        "activeUntil": "2026-12-25T17:05:00+00:00"}


def Email(**kwargs: object) -> fields.Email:
    return fields.Email(validate=validate.Length(max=MAX_EMAIL), metadata={"example": "viewer@example.com"},
                        **kwargs)  # type: ignore[arg-type]


def Password(**kwargs: object) -> Text:
    return Text(load_only=True, validate=validate.Length(min=1, max=MAX_PASSWORD_INPUT),
                metadata={"example": "Tikhaya-gavan-2024"}, **kwargs)


def NewPassword(**kwargs: object) -> Text:
    """A password to be set: its length is a rule of app/services/accounts/passwords.py (a weak_password error, in
    Russian, like its other rules); the document states it."""
    return Text(load_only=True, validate=validate.Length(min=1, max=MAX_PASSWORD_INPUT),
                metadata={"minLength": MIN_LENGTH, "maxLength": MAX_LENGTH, "example": "Morskoy-briz-2026",
                          "description": f"{MIN_LENGTH} to {MAX_LENGTH} characters, not a common password"},
                **kwargs)


NAME_PATTERN = r"^[^\u0000-\u001f\u007f]*[^\s\u0000-\u001f\u007f][^\u0000-\u001f\u007f]*$"  # Text's, and not blank


def Name(description: str | None = None, **kwargs: object) -> Text:
    metadata = {"example": "Анна", "pattern": NAME_PATTERN, **({"description": description} if description else {})}
    return Text(validate=[validate.Length(min=1, max=MAX_NAME), validate.Regexp(r".*\S", error="Укажите имя")],
                metadata=metadata, **kwargs)


def Code(**kwargs: object) -> fields.String:
    return fields.Str(validate=FullMatch(r"[0-9]{6}"), metadata={"description": "the six digits mailed",
                                                                            "example": "123456"},
                      **kwargs)  # type: ignore[arg-type]


class SignUpSchema(Schema):
    """No password here: it comes with the code (SignUpCompleteSchema), from whoever reads the mailbox."""

    email = Email(required=True)
    name = Name(required=True)


class SignUpCompleteSchema(Schema):
    email = Email(required=True)
    code = Code(required=True)
    password = NewPassword(required=True)
    name = Name("the account's name; left out: the name of the newest POST /signup")


class CredentialsSchema(Schema):
    email = Email(required=True)
    password = Password(required=True)


class RefreshRequestSchema(Schema):
    refreshToken = Text(validate=validate.Length(min=1, max=MAX_TOKEN), metadata={
        "description": "the refresh token; without it, the refreshToken cookie (with X-CSRF-TOKEN)",
        "example": EXAMPLE_REFRESH})
    accessToken = Text(validate=validate.Length(max=MAX_TOKEN), metadata={
        "description": "the expired access token (spec §7); accepted and not needed", "example": EXAMPLE_ACCESS})


class TokensSchema(Schema):
    accessToken = fields.Str(required=True, metadata={"example": EXAMPLE_ACCESS})
    refreshToken = fields.Str(required=True, metadata={"example": EXAMPLE_REFRESH})
    expiresAt = fields.DateTime(required=True, metadata={"description": "when the access token expires",
                                                         "example": "2026-11-25T21:15:00+00:00"})


class EmailSchema(Schema):
    email = Email(required=True)


class RestoreSchema(Schema):
    email = Email(required=True)
    code = Code(required=True)
    password = NewPassword(required=True)


class PasswordChangeSchema(Schema):
    oldPassword = Password(required=True)
    newPassword = NewPassword(required=True)


class RenameQuerySchema(Schema):
    name = Name(required=True)


class AcceptedSchema(Schema):
    message = fields.Str(required=True, metadata={"example": "Проверьте почту: мы отправили письмо с кодом"})


class SubscriptionSchema(Schema):
    id = fields.Int(required=True, metadata={"example": EXAMPLE_SUBSCRIPTION["id"]})
    plan = fields.Str(required=True, metadata={"example": EXAMPLE_SUBSCRIPTION["plan"]})
    status = fields.Enum(SubscriptionStatus, by_value=True, required=True,
                         metadata={"example": EXAMPLE_SUBSCRIPTION["status"]})
    createdAt = fields.DateTime(attribute="created_at", required=True,
                                metadata={"example": EXAMPLE_SUBSCRIPTION["createdAt"]})
    activeUntil = fields.DateTime(attribute="active_until", allow_none=True,
                                  metadata={"example": EXAMPLE_SUBSCRIPTION["activeUntil"]})


class UserSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 42})
    email = fields.Str(required=True, metadata={"example": "viewer@example.com"})
    name = fields.Str(required=True, metadata={"example": "Анна"})
    role = fields.Enum(Role, by_value=True, required=True, metadata={"example": Role.VIEWER.value})
    subscription = fields.Method("dump_subscription", allow_none=True, metadata={
        "description": "the latest subscription, or null", "example": EXAMPLE_SUBSCRIPTION})
    confirmed = fields.Bool(metadata={"example": True})
    blocked = fields.Bool(metadata={"example": False})
    createdAt = fields.DateTime(attribute="created_at", metadata={"example": "2026-10-01T09:30:00+00:00"})

    def dump_subscription(self, account: object) -> object:
        latest = next(iter(getattr(account, "subscriptions", [])), None)
        return SubscriptionSchema().dump(latest) if latest is not None else None


ADMIN_FIELDS = ("confirmed", "blocked", "createdAt")


class OwnUserSchema(UserSchema):
    """The account's own view (GET /user/details): without the administrators' fields."""

    class Meta:
        exclude = ADMIN_FIELDS


class SubscriptionQuerySchema(Schema):
    plan = fields.Str(required=True, validate=FullMatch(r"[a-z0-9-]{1,32}"),
                      metadata={"description": "a plan's name (SUBSCRIPTION_PLANS)", "example": "month"})


class PaymentEventSchema(Schema):
    eventId = fields.Str(required=True, validate=[validate.Length(min=1, max=128),
                                                  FullMatch(r"[\x21-\x7e]+")],
                         metadata={"example": "evt_2Nq8sK4dVb7Xc1Lm"})
    subscriptionId = fields.Int(required=True, strict=True, validate=validate.Range(min=1, max=2**31 - 1),
                                metadata={"example": EXAMPLE_SUBSCRIPTION["id"]})
    type = fields.Str(required=True, validate=validate.OneOf(["payment.succeeded", "subscription.cancelled"]),
                      metadata={"example": "payment.succeeded"})


class PaymentAckSchema(Schema):
    eventId = fields.Str(required=True, metadata={"example": "evt_2Nq8sK4dVb7Xc1Lm"})
    duplicate = fields.Bool(required=True, metadata={"description": "this event was handled before",
                                                     "example": False})
    subscription = fields.Nested(SubscriptionSchema, required=True)


class UserSearchSchema(Schema):
    query = Text(validate=validate.Length(max=MAX_EMAIL), metadata={"description": "part of the email or name",
                                                                     "example": "анна"})
    role = fields.Enum(Role, by_value=True, metadata={"example": Role.VIEWER.value})
    blocked = fields.Bool(metadata={"example": False})
    page = Count(load_default=1, validate=validate.Range(min=1, max=10_000), metadata={"example": 1})
    pageSize = Count(load_default=20, validate=validate.Range(min=1, max=100), metadata={"example": 20})


class UserPageSchema(Schema):
    items = fields.List(fields.Nested(UserSchema), required=True)
    total = fields.Int(required=True, metadata={"example": 1})
    page = fields.Int(required=True, metadata={"example": 1})
    pageSize = fields.Int(required=True, metadata={"example": 20})


class NewUserSchema(Schema):
    email = Email(required=True)
    name = Name(required=True)
    password = NewPassword(required=True)
    role = fields.Enum(Role, by_value=True, load_default=Role.VIEWER, metadata={"example": Role.EDITOR.value})


class SignOutSchema(Schema):
    refresh_token = Text(data_key="refreshToken", load_default=None, allow_none=True,
                         validate=validate.Length(min=1, max=MAX_TOKEN), metadata={
                             "description": "the session's refresh token; without it, the access token's session "
                                            "ends", "example": None})


class SessionSchema(Schema):
    id = fields.Str(attribute="session.id", required=True, metadata={"example": "0f4b9e2c6d1a4f3e8b7c5a9d2e1f0c3b"})
    device = fields.Str(required=True, metadata={
        "description": "the browser and system that signed in, as its User-Agent names them",
        "example": "Chrome 131 · Android 14"})
    created_at = fields.DateTime(attribute="session.created_at", data_key="createdAt", required=True,
                                 metadata={"example": "2026-11-25T18:42:07+00:00"})
    last_seen_at = fields.DateTime(attribute="session.last_seen_at", data_key="lastSeenAt", required=True,
                                   allow_none=True, metadata={
                                       "description": "the sign-in, then the last token refresh",
                                       "example": "2026-11-27T09:12:40+00:00"})
    current = fields.Bool(required=True, metadata={"description": "the session of this request", "example": True})


class EndedSessionsSchema(Schema):
    ended = fields.Int(required=True, metadata={"description": "how many sessions ended", "example": 2})
