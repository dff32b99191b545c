"""Accounts on the wire (spec §7 "Authenticator"): camelCase like the spec's own ``refreshToken``, ``accessToken``.

One ``UserSchema`` serves the account's own details and the administrators' lists (``ADMIN_FIELDS`` are theirs).
Passwords are load-only everywhere: no schema dumps one."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.models.accounts import MAX_EMAIL, MAX_NAME, Role, SubscriptionStatus
from app.models.accounts import PASSWORD_MAX_LENGTH as MAX_LENGTH
from app.models.accounts import PASSWORD_MIN_LENGTH as MIN_LENGTH
from app.schemas.common import Count, Text

MAX_PASSWORD_INPUT = 1024  # the rules (app/services/passwords.py) say more; this bounds what is read at all
MAX_TOKEN = 4096


def Email(**kwargs: object) -> fields.Email:
    return fields.Email(validate=validate.Length(max=MAX_EMAIL), metadata={"example": "viewer@example.com"},
                        **kwargs)  # type: ignore[arg-type]


def Password(**kwargs: object) -> Text:
    return Text(load_only=True, validate=validate.Length(min=1, max=MAX_PASSWORD_INPUT), **kwargs)


def NewPassword(**kwargs: object) -> Text:
    """A password to be set: its length is a rule of app/services/passwords.py (a weak_password error, in Russian,
    like its other rules); the document states it."""
    return Text(load_only=True, validate=validate.Length(min=1, max=MAX_PASSWORD_INPUT),
                metadata={"minLength": MIN_LENGTH, "maxLength": MAX_LENGTH,
                          "description": f"{MIN_LENGTH} to {MAX_LENGTH} characters, not a common password"},
                **kwargs)


NAME_PATTERN = r"^[^\u0000-\u001f\u007f]*[^\s\u0000-\u001f\u007f][^\u0000-\u001f\u007f]*$"  # Text's, and not blank


def Name(**kwargs: object) -> Text:
    return Text(validate=[validate.Length(min=1, max=MAX_NAME), validate.Regexp(r".*\S", error="Укажите имя")],
                metadata={"example": "Анна", "pattern": NAME_PATTERN}, **kwargs)


def Code(**kwargs: object) -> fields.String:
    return fields.Str(validate=validate.Regexp(r"\A[0-9]{6}\Z"), metadata={"description": "the six digits mailed",
                                                                            "example": "123456"},
                      **kwargs)  # type: ignore[arg-type]


class SignUpSchema(Schema):
    email = Email(required=True)
    password = NewPassword(required=True)
    name = Name(required=True)


class SignUpCompleteSchema(Schema):
    email = Email(required=True)
    code = Code(required=True)


class CredentialsSchema(Schema):
    email = Email(required=True)
    password = Password(required=True)


class RefreshRequestSchema(Schema):
    refreshToken = Text(validate=validate.Length(min=1, max=MAX_TOKEN), metadata={
        "description": "the refresh token; without it, the refreshToken cookie (with X-CSRF-TOKEN)"})
    accessToken = Text(validate=validate.Length(max=MAX_TOKEN), metadata={
        "description": "the expired access token (spec §7); accepted and not needed"})


class TokensSchema(Schema):
    accessToken = fields.Str(required=True)
    refreshToken = fields.Str(required=True)
    expiresAt = fields.DateTime(required=True, metadata={"description": "when the access token expires"})


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
    message = fields.Str(required=True)


class SubscriptionSchema(Schema):
    id = fields.Int(required=True)
    plan = fields.Str(required=True)
    status = fields.Enum(SubscriptionStatus, by_value=True, required=True)
    createdAt = fields.DateTime(attribute="created_at", required=True)
    activeUntil = fields.DateTime(attribute="active_until", allow_none=True)


class UserSchema(Schema):
    id = fields.Int(required=True)
    email = fields.Str(required=True)
    name = fields.Str(required=True)
    role = fields.Enum(Role, by_value=True, required=True)
    subscription = fields.Method("dump_subscription", allow_none=True, metadata={
        "description": "the latest subscription, or null"})
    confirmed = fields.Bool()
    blocked = fields.Bool()
    createdAt = fields.DateTime(attribute="created_at")

    def dump_subscription(self, account: object) -> object:
        latest = next(iter(getattr(account, "subscriptions", [])), None)
        return SubscriptionSchema().dump(latest) if latest is not None else None


ADMIN_FIELDS = ("confirmed", "blocked", "createdAt")


class OwnUserSchema(UserSchema):
    """The account's own view (GET /user/details): without the administrators' fields."""

    class Meta:
        exclude = ADMIN_FIELDS


class SubscriptionQuerySchema(Schema):
    plan = fields.Str(required=True, validate=validate.Regexp(r"\A[a-z0-9-]{1,32}\Z"),
                      metadata={"description": "a plan's name (SUBSCRIPTION_PLANS)", "example": "month"})


class PaymentEventSchema(Schema):
    eventId = fields.Str(required=True, validate=[validate.Length(min=1, max=128),
                                                  validate.Regexp(r"\A[\x21-\x7e]+\Z")])
    subscriptionId = fields.Int(required=True, strict=True, validate=validate.Range(min=1, max=2**31 - 1))
    type = fields.Str(required=True, validate=validate.OneOf(["payment.succeeded", "subscription.cancelled"]))


class PaymentAckSchema(Schema):
    eventId = fields.Str(required=True)
    duplicate = fields.Bool(required=True, metadata={"description": "this event was handled before"})
    subscription = fields.Nested(SubscriptionSchema, required=True)


class UserSearchSchema(Schema):
    query = Text(validate=validate.Length(max=MAX_EMAIL), metadata={"description": "part of the email or name"})
    role = fields.Enum(Role, by_value=True)
    blocked = fields.Bool()
    page = Count(load_default=1, validate=validate.Range(min=1, max=10_000))
    pageSize = Count(load_default=20, validate=validate.Range(min=1, max=100))


class UserPageSchema(Schema):
    items = fields.List(fields.Nested(UserSchema), required=True)
    total = fields.Int(required=True)
    page = fields.Int(required=True)
    pageSize = fields.Int(required=True)


class NewUserSchema(Schema):
    email = Email(required=True)
    name = Name(required=True)
    password = NewPassword(required=True)
    role = fields.Enum(Role, by_value=True, load_default=Role.VIEWER)
