"""The catalogue's reference lists (spec §7): content types, genres, tags, languages, countries, voice authors,
subtitles, person types and persons."""

from __future__ import annotations

from flask_smorest import Blueprint

blp = Blueprint("reference", __name__, description="Content types, genres, tags, languages, countries, voice authors, "
                "subtitles, persons")
