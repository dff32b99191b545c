"""Sets of contents as the in-memory search index keeps them (app/services/search/suggest.py, memory_filters.py): each
content is a bit at its position in the index, a set a Python integer; a rare value's set is kept as its positions
instead (smaller), and made a mask when it is asked."""

from __future__ import annotations

from array import array
from collections.abc import Iterable

DENSE = 32  # a set of more than 1/DENSE of the contents is kept as a bit mask (no larger than its positions)

Posting = int | array  # a bit mask, or the positions of a rare value's contents


def positions_mask(positions: Iterable[int], size: int, into: bytearray | None = None) -> bytearray:
    bits = into if into is not None else bytearray((size + 7) // 8)
    for position in positions:
        bits[position >> 3] |= 1 << (position & 7)
    return bits


def mask(positions: Iterable[int], size: int) -> int:
    """The bit mask of ``positions``."""
    return int.from_bytes(positions_mask(positions, size), "little")


def union(postings: Iterable[Posting], size: int) -> int:
    """The contents of any of ``postings``."""
    dense = 0
    sparse: bytearray | None = None
    for posting in postings:
        if isinstance(posting, int):
            dense |= posting
        else:
            sparse = positions_mask(posting, size, sparse)
    return dense | (int.from_bytes(sparse, "little") if sparse is not None else 0)


def posting(positions: array, size: int) -> Posting:
    """``positions`` (sorted) as kept: a mask when they are many, else themselves."""
    return mask(positions, size) if len(positions) * DENSE > size else positions
