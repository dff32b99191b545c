"""Lists of contents (spec §7): categories and their trees, the main mart, filtered and sorted lists, facets."""

from __future__ import annotations

from flask_smorest import Blueprint

blp = Blueprint("lists", __name__, description="Categories, the main mart, lists of contents with filters and sort")
