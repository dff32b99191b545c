"""Importing a catalogue from JSON Lines or CSV, and exporting it in the same format (docs/import.md; ``flask
catalogue import``/``export``, the admin's import job): ``import_catalogue`` and ``export_catalogue``.

An import is a job that owns its transactions (one per batch of lines, through app/transaction.py): call it outside
any ``transaction()``. Modules: lines (reading and checking a line), labels, people, media (posters, master paths),
state (what is stored), write (a batch's difference written), run (the whole import), export."""

from app.services.catalogue.imports.export import export_catalogue
from app.services.catalogue.imports.report import ImportReport, LineError
from app.services.catalogue.imports.run import import_catalogue

__all__ = ["ImportReport", "LineError", "export_catalogue", "import_catalogue"]
