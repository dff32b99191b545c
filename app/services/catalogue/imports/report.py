"""What an import says of itself: counts, and every line it did not write with why."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LineError:
    line: int  # 1-based line (JSON Lines) or row (CSV, the header is line 1) of the file
    field: str | None  # the field's name in the file's schema, e.g. "genres" or "seasons[1].episodes[3].media"
    message: str  # Russian, e.g. «Неизвестный жанр: «драмма»»


@dataclass(frozen=True)
class ImportReport:
    lines: int  # contents read (blank lines aside)
    created: int
    updated: int
    unchanged: int
    errors: list[LineError]  # every bad line reported, the good lines still imported

    @property
    def failed(self) -> int:
        """The lines not written for their errors: with ``created``, ``updated`` and ``unchanged``, every line read
        (a line may have several errors: ``errors`` has each)."""
        return len({error.line for error in self.errors})

    @property
    def changed(self) -> bool:
        """Whether the catalogue changed (then the edge regenerates the sitemaps: app/cli.py ``generate_sitemaps``)."""
        return self.created + self.updated > 0
