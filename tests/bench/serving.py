"""What the server benchmarks share (``make bench-auth``: tests/bench/auth.py, ``make bench-catalogue``:
tests/bench/catalogue.py): gunicorn as production configures it (deploy/gunicorn.conf.py) on a free 127.0.0.1 port,
a client on one keep-alive connection, and the summary of interleaved rounds (medians over rounds of each round's
p50 and p95)."""

from __future__ import annotations

import gzip
import http.client
import json
import os
import platform
import re
import secrets
import signal
import socket
import statistics
import string
import subprocess
import sys
import time
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import brotli

from app.config import PROJECT_ROOT

INDEX_LINE = re.compile(r"suggestion index of generation \d+ (made|read)\b.*?, ([0-9.]+) s")

VENV = PROJECT_ROOT / ".venv" / "bin"
FAILURES = (OSError, http.client.HTTPException)  # besides BenchError: what a run can meet on the wire


class BenchError(Exception):
    """The measurement could not run (an answer that is not a 200 or not what it should be, a server that never came
    up, a command that failed)."""


def random_secret() -> str:
    return "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(48))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Client:
    """Sequential requests on one keep-alive connection (reopened once if the server closed it while idle).
    ``headers`` go with every request (a request's own win)."""

    def __init__(self, port: int, headers: Mapping[str, str] | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Accept": "application/json", **(headers or {})}

    def fetch(self, method: str, path: str, body: Mapping[str, Any] | None = None,
              headers: Mapping[str, str] | None = None) -> tuple[float, http.client.HTTPResponse, bytes]:
        """Seconds from sending to the whole answer read, the response (its status and headers) and its bytes as
        sent (compressed, if it was)."""
        sent = {**self.headers, **(headers or {})}
        if body is not None:
            sent["Content-Type"] = "application/json"
        payload = json.dumps(body) if body is not None else None
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body=payload, headers=sent)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.connection.close()  # closed while idle (gunicorn's keepalive): once more on a new one, timed afresh
            started = time.perf_counter()
            self.connection.request(method, path, body=payload, headers=sent)
            response = self.connection.getresponse()
        raw = response.read()
        return time.perf_counter() - started, response, raw

    def call(self, method: str, path: str, body: Mapping[str, Any] | None = None,
             headers: Mapping[str, str] | None = None) -> tuple[float, Any]:
        """Seconds (as ``fetch``) and the JSON body, decompressed after the clock stopped; raises BenchError unless
        it is a 200 with a JSON body."""
        elapsed, response, raw = self.fetch(method, path, body, headers)
        return elapsed, json_answer(f"{method} {path}", response, raw)

    def close(self) -> None:
        self.connection.close()


def json_answer(request: str, response: http.client.HTTPResponse, raw: bytes) -> Any:
    """The JSON body of a response (decompressed); BenchError unless it is a 200 with a JSON body. ``request`` names
    it in the error."""
    text = decoded(response, raw)
    if response.status != 200:
        raise BenchError(f"{request} answered {response.status}, not 200: {text[:300].decode(errors='replace')}")
    try:
        return json.loads(text)
    except ValueError as error:
        raise BenchError(f"{request} answered a body that is not JSON: {text[:300]!r}") from error


def decoded(response: http.client.HTTPResponse, raw: bytes) -> bytes:
    encoding = response.getheader("Content-Encoding", "identity")
    if encoding == "br":
        return bytes(brotli.decompress(raw))
    if encoding == "gzip":
        return gzip.decompress(raw)
    return raw


class Server:
    """gunicorn -c deploy/gunicorn.conf.py wsgi:app with ``env`` over this process's environment, ``workers``
    workers, on a free 127.0.0.1 port; ``flask`` runs the application's commands in the same environment first."""

    def __init__(self, folder: Path, workers: int, env: Mapping[str, str]) -> None:
        self.port = free_port()
        self.log_path = folder / "gunicorn.log"
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **env, "BIND": f"127.0.0.1:{self.port}",
                    "WEB_CONCURRENCY": str(workers)}
        self.process: subprocess.Popen[bytes] | None = None
        self.log: IO[str] | None = None

    def flask(self, *command: str) -> str:
        """``flask --app wsgi COMMAND`` in the server's environment; its output, or BenchError with it."""
        return flask(self.env, *command)

    def start(self, timeout: float = 30) -> None:
        self.log = self.log_path.open("w")
        self.process = subprocess.Popen(
            [str(VENV / "gunicorn"), "-c", str(PROJECT_ROOT / "deploy" / "gunicorn.conf.py"), "wsgi:app"],
            cwd=PROJECT_ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise BenchError(f"gunicorn did not listen within {timeout:.0f} s:\n{self.log_tail()}")

    def indexes(self) -> list[tuple[str, float]]:
        """Each suggestion index a worker got so far (app/suggestions.py's log line): "made" from the database or
        "read" from another's file (app/suggestion_files.py), and its seconds."""
        if not self.log_path.exists():
            return []
        return [(how, float(seconds)) for how, seconds in INDEX_LINE.findall(self.log_path.read_text(errors="replace"))]

    def boots(self) -> int:
        """How many workers gunicorn has started so far (more than ``workers``: some were replaced, as
        deploy/gunicorn.conf.py's max_requests has it, or died)."""
        if not self.log_path.exists():
            return 0
        return self.log_path.read_text(errors="replace").count("Booting worker with pid")

    def log_tail(self) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-20:])

    def stop(self) -> None:
        """SIGTERM to gunicorn's process group (the arbiter and its workers), SIGKILL if it outlasts the wait."""
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            except ProcessLookupError:
                pass
        if self.log is not None:
            self.log.close()


def flask(env: Mapping[str, str], *command: str) -> str:
    """``flask --app wsgi COMMAND`` with ``env``; its output, or BenchError with it."""
    done = subprocess.run([str(VENV / "flask"), "--app", "wsgi", *command], cwd=PROJECT_ROOT, env=dict(env),
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BenchError(f"flask {' '.join(command)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def failed(name: str, error: Exception, server: Server | None) -> int:
    """Says why the run stopped, with the end of gunicorn's log; the exit code."""
    print(f"{name}: FAILED: {error}", file=sys.stderr)
    tail = server.log_tail() if server is not None else ""
    if tail:
        print(f"gunicorn's log, last lines:\n{tail}", file=sys.stderr)
    return 1


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18] if len(values) > 1 else values[0]


def summarise(rounds: Mapping[str, list[list[float]]]) -> dict[str, dict[str, float]]:
    """Per measure, in ms: the median over rounds of each round's p50 and p95, and the spread of the round p50s."""
    summary = {}
    for name, per_round in rounds.items():
        p50s = [statistics.median(times) * 1000 for times in per_round]
        summary[name] = {"p50": statistics.median(p50s), "p95": statistics.median([p95(t) * 1000 for t in per_round]),
                         "min": min(p50s), "max": max(p50s)}
    return summary


def machine_line(elapsed: float) -> str:
    return (f"{platform.python_implementation()} {platform.python_version()}, {platform.platform()}; load average "
            f"at the end {'/'.join(f'{x:.1f}' for x in os.getloadavg())} (1/5/15 min; other work skews the "
            f"figures); elapsed {elapsed:.0f} s")


def write_results(folder: Path, name: str, started: datetime, text: str) -> Path:
    """``text`` printed and written to ``folder``/NAME-<start time>.txt."""
    print("\n" + text)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}-{started.strftime('%Y-%m-%dT%H-%M-%S')}.txt"
    path.write_text(text + "\n")
    print(f"wrote {path.relative_to(PROJECT_ROOT) if path.is_relative_to(PROJECT_ROOT) else path}")
    return path
