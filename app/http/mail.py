"""Mail (Flask-Mailman): sent after the answer, never in it, so that no answer waits on the mail server or is faster
for an email that gets none (account enumeration by time). Over SMTP when MAIL_SERVER is set; otherwise
``EmailBackend`` here writes each mail to the log and to MAIL_OUTBOX, so the demo works with nothing installed."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

from flask import Flask, current_app
from flask_mailman import EmailMessage
from flask_mailman.backends.file import EmailBackend as FileBackend

_SENDER = ThreadPoolExecutor(max_workers=2, thread_name_prefix="mail")
_PENDING: set[Future[None]] = set()
log = logging.getLogger(__name__)


class EmailBackend(FileBackend):
    """The embedded default: a file per mail in MAIL_OUTBOX, and the mail in the log."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        outbox = Path(current_app.config["MAIL_OUTBOX"])
        outbox.mkdir(parents=True, exist_ok=True)
        super().__init__(*args, file_path=str(outbox), **kwargs)

    def write_message(self, message: Any) -> None:
        super().write_message(message)
        current_app.logger.info("mail (no MAIL_SERVER: kept in %s):\n%s", self.file_path,
                                message.message().as_string())


def send_later(to: str, subject: str, body: str) -> Future[None]:
    """Queues the mail; a failure is logged, never raised into a request."""
    return after_the_answer(lambda: send_now(to, subject, body))


def send_now(to: str, subject: str, body: str) -> None:
    EmailMessage(subject=subject, body=body, to=[to]).send()


def after_the_answer(work: Callable[[], None]) -> Future[None]:
    """Runs ``work`` (in an application context of its own) on the mail's pool, after the answer: what only some
    emails need (a code written, a mail sent) then costs no answer any time; a failure is logged, never raised."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]

    def run() -> None:
        with app.app_context():
            try:
                work()
            except Exception:
                app.logger.exception("work after an answer failed (a mail to a viewer, its code)")

    future = _SENDER.submit(run)
    _PENDING.add(future)
    future.add_done_callback(_PENDING.discard)
    return future


def drain(timeout: float = 10.0) -> None:
    """Waits for the mails queued so far (a worker's shutdown, the tests' SMTP server stopping)."""
    wait(list(_PENDING), timeout=timeout)
