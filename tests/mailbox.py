"""A real SMTP server for the tests (aiosmtpd on a free local port): the application sends its mails over SMTP to
it, and the tests read the codes from what it received."""

from __future__ import annotations

import re
import socket
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


class Mailbox:
    """What the server received, in order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self._lock = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        with self._lock:
            self.messages.append(message)  # type: ignore[arg-type]
            self._lock.notify_all()
        return "250 Message accepted for delivery"

    def wait_for(self, to: str, count: int = 1, timeout: float = 10.0) -> list[EmailMessage]:
        """The first ``count`` mails to ``to``, waiting for them (mail leaves after the answer)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                found = [m for m in self.messages if to.lower() in str(m["To"]).lower()]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no mail #{count} to {to} within {timeout} s: {len(found)} came")
                self._lock.wait(left)

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.messages if address.lower() in str(m["To"]).lower()]

    def code_for(self, to: str, count: int = 1) -> str:
        """The six-digit code of the ``count``-th mail to ``to``."""
        body = self.wait_for(to, count)[count - 1].get_content()
        match = re.search(r"\b(\d{6})\b", body)
        assert match, body
        return match.group(1)


def start_smtp() -> tuple[Controller, Mailbox]:
    mailbox = Mailbox()
    with socket.socket() as probe:  # a free port (aiosmtpd's controller needs one named)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    return controller, mailbox
