"""The search index of the catalogue (app/services/search/query.py writes and reads it).

``search_documents``: each published content's searchable text, normalised (lower case, ё as е): its title, its
original title with the title's transliteration and its alternative titles (a Latin query finds «Тихая гавань» by
"tikhaya gavan" and by "Quiet Harbour", «Паразиты» by "Parasite"; ``latin`` holds them as every transliteration scheme
spells them alike), each name whole (``names``), the names of its people, its description; and its rating, for the
rank. ``search_words``: the words of titles, with their stem and folded spelling, for typo correction.

What each database adds (the migration makes it; no model can say it):
* PostgreSQL: each field's ``to_tsvector('russian', …)`` (``simple`` over ``latin`` for the original title) as a stored
  generated column ``<field>_tsv`` (Snowball russian's stems) with a GIN index; and a pg_trgm GIN index over
  ``search_words.latin``, trigrams of the transliterated word, so that typo correction uses its index whatever the
  database's LC_CTYPE (under C, Cyrillic letters give no trigrams).
* SQLite: ``search_fts``, an FTS5 table holding the same fields stemmed in Python (snowballstemmer, the same Snowball
  algorithm), its rowid the content's id.
"""

from __future__ import annotations

from sqlalchemy import ForeignKey, Integer, Numeric, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.extensions import db

SEARCH_FIELDS = ("title", "original", "people", "description")
# What the migration adds that no model states (above), for app/models/unmodelled.py.
UNMODELLED = frozenset({
    "search_fts", "search_fts_data", "search_fts_idx", "search_fts_content", "search_fts_docsize", "search_fts_config",
    *(f"ix_search_documents_{field}_tsv" for field in SEARCH_FIELDS), "ix_search_words_latin_trgm",
    *(f"{field}_tsv" for field in SEARCH_FIELDS),
})


class SearchDocument(db.Model):  # type: ignore[name-defined]
    __tablename__ = "search_documents"

    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), primary_key=True,
                                            autoincrement=False)
    title: Mapped[str] = mapped_column(Text, default="")
    # the original title, the title's transliteration and the alternative titles (app/models/titles.py)
    original: Mapped[str] = mapped_column(Text, default="")
    # ``original``'s words as every transliteration scheme spells them alike (app/services/search/text.py ``fold``):
    # what a Latin query is matched against (PostgreSQL's original_tsv is made of it).
    latin: Mapped[str] = mapped_column(Text, default="", server_default="")
    # Every name of the content whole, between bars: "|тихая гавань|quiet harbour|tihaia gavan|" (each title's words,
    # the Latin ones folded): a title equal to the query, or starting with it, ranks first.
    names: Mapped[str] = mapped_column(Text, default="", server_default="")
    people: Mapped[str] = mapped_column(Text, default="")
    description: Mapped[str] = mapped_column(Text, default="")
    # The content's Kinopoisk rating, the ranking's second key: ranking reads this table alone, never contents.
    rating: Mapped[float | None] = mapped_column(Numeric(3, 1, asdecimal=False))


class SearchWord(db.Model):  # type: ignore[name-defined]
    __tablename__ = "search_words"

    word: Mapped[str] = mapped_column(String(64), primary_key=True)
    stem: Mapped[str] = mapped_column(String(64), index=True)
    latin: Mapped[str] = mapped_column(String(128), index=True)  # folded (text.py ``fold``): a Latin word's key
    contents: Mapped[int] = mapped_column(Integer, default=0)  # documents with it: a correction prefers common words

