"""app/services/accounts/passwords.py: argon2id at OWASP's parameters, rehash on changed parameters, the new-password
rules."""

import statistics
import time

from argon2 import PasswordHasher, Type, extract_parameters

from app.services.accounts import passwords
from app.services.accounts.passwords import (
    LIKE_EMAIL,
    TOO_COMMON,
    TOO_LONG,
    TOO_SHORT,
    hash_password,
    password_problem,
    verify_password,
)


def test_hashes_are_argon2id_at_owasps_parameters_and_salted():
    first, second = hash_password("correct horse battery"), hash_password("correct horse battery")
    parameters = extract_parameters(first)
    assert first.startswith("$argon2id$") and first != second
    assert (parameters.memory_cost, parameters.time_cost, parameters.parallelism) == (19 * 1024, 2, 1)
    assert "correct horse" not in first


def test_verification_answers_and_rehashes_a_hash_made_with_other_parameters():
    stored = hash_password("correct horse battery")
    assert verify_password(stored, "correct horse battery") == (True, None)
    assert verify_password(stored, "correct horse batterY") == (False, None)
    old = PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1, type=Type.ID).hash("correct horse battery")
    ok, rehashed = verify_password(old, "correct horse battery")
    assert ok and rehashed is not None and extract_parameters(rehashed).memory_cost == 19 * 1024
    assert verify_password("not a hash", "correct horse battery") == (False, None)


def test_an_unknown_account_costs_the_same_work_as_a_wrong_password():
    stored = hash_password("correct horse battery")
    wrong: list[float] = []
    unknown: list[float] = []
    for _ in range(7):  # interleaved, medians compared: the machine's other work falls on both alike
        for stored_hash, into in ((stored, wrong), (None, unknown)):
            started = time.perf_counter()
            verify_password(stored_hash, "guess")
            into.append(time.perf_counter() - started)
    assert verify_password(None, "an account that does not exist") == (False, None)  # the dummy never lets anyone in
    assert 0.5 < statistics.median(unknown) / statistics.median(wrong) < 2, (unknown, wrong)


def test_new_passwords_need_length_and_must_not_be_common_or_the_email():
    assert password_problem("short") == TOO_SHORT
    assert password_problem("x" * 129) == TOO_LONG
    assert password_problem("1234567890") == TOO_COMMON  # on the list
    assert password_problem("Qwertyuiop") == TOO_COMMON  # the list is lowercase; the check folds case
    assert password_problem("ivan.petrov@mail.example", email="Ivan.Petrov@mail.example") == LIKE_EMAIL
    assert password_problem("ivanpetrov7", email="ivanpetrov7@mail.example") == LIKE_EMAIL
    assert password_problem("тихая гавань на рассвете") is None
    assert len(passwords.common_passwords()) > 19_000
