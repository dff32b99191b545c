"""gunicorn as production runs it (bin/production), behind nginx (deploy/nginx.conf), which buffers every request
and response: a slow or idle client holds an nginx connection, never one of these threads. Each value is a decision;
docs/production.md says why.

Environment: ``BIND`` (default 127.0.0.1:8000), ``WEB_CONCURRENCY`` (workers, default two per core, at most 8),
``GUNICORN_THREADS`` (default 4).
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", min(2 * multiprocessing.cpu_count(), 8)))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))  # requests are short: the database's deadlines are 1.5 s

# A worker whose main loop stops (a request stuck past every deadline of app/database.py) is killed and replaced after
# this many seconds: far above the slowest answer (database statements 1.5 s, Redis 0.5 s), far below a client's
# patience. SIGTERM waits graceful_timeout for requests in flight.
timeout = 20
graceful_timeout = 15
keepalive = 5  # seconds an idle connection from nginx stays open (nginx's upstream keepalive reuses them)

# Request limits: the request line, header count and size as nginx lets them through (large_client_header_buffers
# 4 × 16k there), so that what is too long is refused by nginx, in the service's JSON error shape (deploy/nginx.conf),
# and never by gunicorn in HTML.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 16384

# Recycling: a worker is replaced after about this many requests (memory a long-lived process collects), staggered.
max_requests = 20000
max_requests_jitter = 2000

# One line per request from nginx (it has the client's): the application logs its own with the request id.
accesslog = None
errorlog = "-"
loglevel = "info"
forwarded_allow_ips = "127.0.0.1"  # the proxy's X-Forwarded-* (the application reads them through TRUSTED_PROXIES)
proxy_allow_ips = "127.0.0.1"
preload_app = False  # each worker opens its own database pool and Redis connections after fork


def post_worker_init(worker: Any) -> None:
    """A new worker starts making its suggestion index (app/suggestions.py) in the background at once,
    so that suggestions are answered from memory before the first one is asked; it says so in this log when made."""
    from app.suggestions import warm

    warm(worker.wsgi, worker.log.info)
