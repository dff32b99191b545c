"""What a content card (app/schemas/cards.py) reads, loaded with the page's query: the type joined, the genres in one
more query for the whole page. Add these options to every query whose rows are dumped as cards."""

from __future__ import annotations

from sqlalchemy.orm import joinedload, selectinload

from app.models import Content

CARD_OPTIONS = (joinedload(Content.content_type), selectinload(Content.genres))
