"""A TCP relay between the application and a store (PostgreSQL, Redis) that a test or the fault injection of
``bin/load-and-fault`` switches to an outage: ``through`` (bytes pass), ``gone`` (connections refused as by a port
nobody listens on, open ones cut) or ``black-hole`` (connections accepted and read, nothing ever answered, as a host
that vanished behind a firewall). The one relay of deploy/production.py, tests/test_database_outages.py and
tests/test_redis_outages.py."""

from __future__ import annotations

import contextlib
import socket
import threading

MODES = ("through", "gone", "black-hole")
_RESET = b"\x01\x00\x00\x00\x00\x00\x00\x00"  # SO_LINGER on, 0 s: close() sends a reset


class Relay:
    def __init__(self, upstream: tuple[str, int] | None, mode: str = "through") -> None:
        """``upstream``: where ``through`` passes the bytes to (None: a relay that is only ever an outage)."""
        self.upstream = upstream
        self.mode = mode
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=512)
        self.port = int(self.listener.getsockname()[1])
        threading.Thread(target=self._accept, daemon=True).start()

    def set(self, mode: str) -> None:
        """A black hole keeps the connections and stops answering; gone cuts them too."""
        if mode not in MODES:
            raise ValueError(f"a relay's mode is one of {MODES}, not {mode!r}")
        self.mode = mode
        if mode == "gone":
            with self._lock:
                ends, self._open = list(self._open), set()
            for end in ends:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.mode == "gone":
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
                client.close()  # a reset: as a port nothing listens on
                continue
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        if self.mode == "black-hole" or self.upstream is None:
            self._swallow(client)
            return
        try:
            server = socket.create_connection(self.upstream, timeout=5)
        except OSError:
            client.close()
            return
        server.settimeout(None)
        with self._lock:
            self._open.update((client, server))
        for source, target in ((client, server), (server, client)):
            threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    def _swallow(self, client: socket.socket) -> None:
        with self._lock:
            self._open.add(client)
        self._pump(client, None)

    def _pump(self, source: socket.socket, target: socket.socket | None) -> None:
        try:
            while data := source.recv(65536):
                if self.mode == "through" and target is not None:
                    target.sendall(data)
        except OSError:
            pass
        for end in (source, target):  # one side closed: so does the other, as a real connection would
            if end is None:
                continue
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            with self._lock:
                self._open.discard(end)
