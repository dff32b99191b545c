"""Who sent a request, as far as it can be believed. A reverse proxy in front (the production nginx, a CDN) says who
the client is (X-Forwarded-For) and where it is (COUNTRY_HEADER); those headers are believed only when the request
came from one of ``TRUSTED_PROXIES``, which the proxy sets and strips from what clients send. From anyone else a
client could claim any address or country: then the peer's own address counts, and DEFAULT_COUNTRY."""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from flask import current_app, request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def parse_networks(raw: str) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES``: comma-separated addresses or networks (``127.0.0.1, 10.0.0.0/8, ::1``); ValueError for a
    bad entry (checked once at start, app/config.py)."""
    networks = []
    for entry in raw.split(","):
        if entry.strip():
            try:
                networks.append(ipaddress.ip_network(entry.strip(), strict=False))
            except ValueError:
                raise ValueError(f"TRUSTED_PROXIES: {entry.strip()!r} is not an address or a network") from None
    return tuple(networks)


def _trusted(address: str | None) -> bool:
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return False
    return any(ip in network for network in parse_networks(current_app.config["TRUSTED_PROXIES"]))


def from_trusted_proxy() -> bool:
    """Whether the request's direct peer is one of the configured proxies."""
    return _trusted(request.remote_addr)


def client_ip() -> str:
    """The client's address: the peer's, or behind trusted proxies the last X-Forwarded-For entry that is not one."""
    peer = request.remote_addr or ""
    if not _trusted(peer):
        return peer
    for hop in reversed(request.headers.get("X-Forwarded-For", "").split(",")):
        hop = hop.strip()
        if hop and not _trusted(hop):
            return hop
    return peer
