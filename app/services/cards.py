"""What a content card (app/schemas/cards.py) reads, loaded with the page's query: the card's own columns only (not
the description, nor the rest), the type joined, the genres in one more query for the whole page. Add these options
to every query whose rows are dumped as cards. (Reading another column of such a row would load it row by row: the
lists' query-count tests would see it.)"""

from __future__ import annotations

from sqlalchemy.orm import joinedload, load_only, selectinload

from app.models import Content

CARD_COLUMNS = (Content.id, Content.slug, Content.title, Content.original_title, Content.year, Content.poster_url,
                Content.content_type_id, Content.has_multiple_episodes, Content.age_rating, Content.kinopoisk_rating,
                Content.imdb_rating, Content.imdb_id)
CARD_OPTIONS = (load_only(*CARD_COLUMNS), joinedload(Content.content_type), selectinload(Content.genres))
