"""Issue 30 (F): production seeds no account, so an operator needed SQL to get in. ``flask accounts create-admin``
makes the first administrator (app/cli.py), and ``flask accounts set-role`` gives an account a role; run here with
Flask's CliRunner against the test database, then proved through the API an operator would use."""

from __future__ import annotations

import pytest

from app.extensions import db
from app.models import Account, Role
from tests.api.accounts_helpers import bearer, make_account, sign_in
from tests.api.test_catalogue_api import assert_error

EMAIL = "root@example.com"
PASSWORD = "the operator's own passphrase"


def run(app, *args: str, input: str | None = None):
    return app.test_cli_runner().invoke(args=["accounts", *args], input=input)


def accounts(app) -> list[tuple[str, str, str, bool]]:
    with app.app_context():
        return [(row.email, row.name, row.role.value, row.confirmed)
                for row in db.session.scalars(db.select(Account).order_by(Account.id))]


def can_administer(client, email: str, password: str) -> bool:
    tokens = sign_in(client, email, password)
    return client.post("/administration/users", json={}, headers=bearer(tokens)).status_code == 200


def test_create_admin_asks_for_the_password_twice_without_echo_and_the_admin_gets_in(app, client):
    result = run(app, "create-admin", "Root@Example.com", input=f"{PASSWORD}\n{PASSWORD}\n")
    assert result.exit_code == 0, result.output
    assert PASSWORD not in result.output  # a hidden prompt: nothing echoed
    assert "Repeat the password" in result.output
    assert accounts(app) == [(EMAIL, "root", "admin", True)]  # confirmed, committed, named after the email
    assert can_administer(client, EMAIL, PASSWORD)


def test_create_admin_reads_the_password_from_standard_input(app, client):
    result = run(app, "create-admin", EMAIL, "--name", "Операционист", "--password-stdin", input=f"{PASSWORD}\r\n")
    assert result.exit_code == 0, result.output
    assert accounts(app) == [(EMAIL, "Операционист", "admin", True)]
    assert can_administer(client, EMAIL, PASSWORD)  # the line's end is not part of it


@pytest.mark.parametrize(("password", "message"), [
    ("short", "Пароль должен быть не короче 10 символов"),
    ("password123", "Этот пароль слишком распространён, выберите другой"),
    ("root@example.com", "Пароль не должен совпадать с адресом почты"),
    ("x" * 129, "Пароль должен быть не длиннее 128 символов"),
])
def test_create_admin_refuses_a_password_the_api_would_refuse(app, password, message):
    for args, typed in (((), f"{password}\n{password}\n"), (("--password-stdin",), f"{password}\n")):
        result = run(app, "create-admin", EMAIL, *args, input=typed)
        assert result.exit_code == 1, result.output
        assert message in result.output
    assert accounts(app) == []  # nothing written


def test_create_admin_refuses_a_taken_email_and_changes_nothing(app):
    make_account(app, "root@example.com", Role.VIEWER)
    result = run(app, "create-admin", "ROOT@example.com", "--password-stdin", input=f"{PASSWORD}\n")
    assert result.exit_code == 1
    assert "Этот адрес почты уже занят" in result.output and "set-role" in result.output
    assert accounts(app) == [(EMAIL, "root", "viewer", True)]


def test_create_admin_refuses_what_it_cannot_use(app):
    mismatch = run(app, "create-admin", EMAIL, input=f"{PASSWORD}\nanother passphrase\n")  # then no more input
    assert mismatch.exit_code != 0 and "do not match" in mismatch.output
    empty = run(app, "create-admin", EMAIL, "--password-stdin", input="")
    assert empty.exit_code == 1 and "no password" in empty.output
    assert run(app, "create-admin", "not-an-email", "--password-stdin", input=f"{PASSWORD}\n").exit_code == 2
    assert run(app, "create-admin", EMAIL, "--name", "  ", "--password-stdin", input=f"{PASSWORD}\n").exit_code == 2
    assert accounts(app) == []


def test_the_password_is_never_an_argument_nor_an_option(app, monkeypatch):
    on_the_line = run(app, "create-admin", EMAIL, "--password", PASSWORD)
    assert on_the_line.exit_code == 2 and "No such option" in on_the_line.output
    assert run(app, "create-admin", EMAIL, PASSWORD, "--password-stdin", input="").exit_code == 2  # no second argument
    command = app.cli.commands["accounts"].commands["create-admin"]  # type: ignore[attr-defined]
    assert {param.name for param in command.params} == {"email", "name", "password_stdin"}
    monkeypatch.setenv("FLASK_ACCOUNTS_CREATE_ADMIN_PASSWORD", PASSWORD)  # nor the environment
    assert run(app, "create-admin", EMAIL, "--password-stdin", input="").exit_code == 1
    assert accounts(app) == []


def test_set_role_changes_the_role_and_ends_the_accounts_sessions(app, client):
    make_account(app, "anna@example.com", Role.VIEWER)
    old = bearer(sign_in(client, "anna@example.com"))
    result = run(app, "set-role", "Anna@example.com", "admin")
    assert result.exit_code == 0, result.output
    assert accounts(app)[0][2] == "admin"
    assert_error(client.get("/user/details", headers=old), 401, "token_revoked")  # its tokens named the old role
    assert client.post("/administration/users", json={},
                       headers=bearer(sign_in(client, "anna@example.com"))).status_code == 200
    again = run(app, "set-role", "anna@example.com", "admin")
    assert again.exit_code == 0 and "already" in again.output


def test_set_role_refuses_an_unknown_email_or_role(app):
    unknown = run(app, "set-role", "nobody@example.com", "admin")
    assert unknown.exit_code == 1 and "Учётная запись не найдена" in unknown.output
    make_account(app, "anna@example.com", Role.VIEWER)
    assert run(app, "set-role", "anna@example.com", "root").exit_code == 2
    assert accounts(app)[0][2] == "viewer"


def test_the_group_is_listed_with_its_commands(app):
    result = app.test_cli_runner().invoke(args=["accounts", "--help"])
    assert result.exit_code == 0 and "create-admin" in result.output and "set-role" in result.output
