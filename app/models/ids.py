"""Ids: 32-bit integers in every database we run on. An id beyond that names no row, and must not reach PostgreSQL,
which refuses it (a 500): every id from outside (a path, a query, a body) is checked here or by ``schemas.common.Id``,
which uses the same bound."""

from __future__ import annotations

MAX_ID = 2**31 - 1


def storable_id(value: int) -> bool:
    """Whether ``value`` can name a row: a positive 32-bit integer."""
    return 0 < value <= MAX_ID
