"""A fake Sentry ingest: a real HTTP endpoint on 127.0.0.1 that keeps every envelope posted to it.

Both SDKs (sentry-sdk on the server, @sentry/browser in Chromium) post to ``/api/{project}/envelope/`` of their DSN's
host; nothing of either SDK is mocked. ``events()`` reads the error events out of what arrived.
"""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import brotli
from flask import Flask, Response, request
from werkzeug.serving import make_server

Item = tuple[dict[str, Any], bytes]


def parse_envelope(body: bytes) -> tuple[dict[str, Any], list[Item]]:
    """Sentry's envelope format: a header line, then items (a header line, a payload of ``length`` bytes or a line)."""
    header_line, _, rest = body.partition(b"\n")
    items: list[Item] = []
    while rest:
        line, _, rest = rest.partition(b"\n")
        if not line.strip():
            continue
        item_header = json.loads(line)
        length = item_header.get("length")
        if length is None:
            payload, _, rest = rest.partition(b"\n")
        else:
            payload, rest = rest[:length], rest[length:].removeprefix(b"\n")
        items.append((item_header, payload))
    return json.loads(header_line or b"{}"), items


class Ingest:
    def __init__(self) -> None:
        self.envelopes: list[tuple[str, bytes]] = []  # (project id, body)
        self._lock = threading.Lock()
        self.app = Flask("fake_ingest")
        self.app.add_url_rule("/api/<project>/envelope/", view_func=self._envelope, methods=["POST", "OPTIONS"])

    def _envelope(self, project: str) -> Response:
        if request.method == "POST":
            body = request.get_data()
            encoding = request.headers.get("Content-Encoding", "")
            if encoding == "gzip":
                body = gzip.decompress(body)
            elif encoding == "br":
                body = brotli.decompress(body)
            with self._lock:
                self.envelopes.append((project, body))
        response = Response("{}", mimetype="application/json")
        response.headers["Access-Control-Allow-Origin"] = "*"  # the browser SDK reads the answer cross-origin
        response.headers["Access-Control-Allow-Headers"] = "*"
        return response

    def items(self, kind: str) -> list[dict[str, Any]]:
        """The JSON payloads of every item of this type (``event``, ``transaction``, ``replay_event``, …)."""
        with self._lock:
            bodies = [body for _, body in self.envelopes]
        found = []
        for body in bodies:
            for header, payload in parse_envelope(body)[1]:
                if header.get("type") == kind:
                    found.append(json.loads(payload))
        return found

    def events(self) -> list[dict[str, Any]]:
        return self.items("event")

    def wait_for_events(self, done: Callable[[list[dict[str, Any]]], bool], seconds: float = 10) -> list[dict]:
        return self.wait_for("event", done, seconds)

    def wait_for(self, kind: str, done: Callable[[list[dict[str, Any]]], bool], seconds: float = 10) -> list[dict]:
        """The items of this type once ``done`` holds for them (SDKs send in the background), or after ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            found = self.items(kind)
            if done(found) or time.monotonic() > deadline:
                return found
            time.sleep(0.1)


@contextmanager
def serve_ingest() -> Iterator[tuple[Ingest, str]]:
    """A fake ingest on a free port; yields it and its origin (``http://127.0.0.1:{port}``)."""
    ingest = Ingest()
    server = make_server("127.0.0.1", 0, ingest.app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield ingest, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
