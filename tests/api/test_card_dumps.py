"""The pages' cards and facets are written out by hand for speed (issue 36: every uncached page of cards pays their
dump): each must be exactly what its marshmallow schema dumps, key order included (the body is sent in that order)."""

from __future__ import annotations

import json

from sqlalchemy import select, update

from app.extensions import db
from app.models import Content
from app.schemas.cards import ContentCardSchema, dump_card
from app.services.catalogue.cards import CARD_OPTIONS, load_cards


def _marshmallow(content: object) -> dict:
    """What marshmallow itself dumps of the card (the schema's own fields, bypassing the written-out dump)."""
    schema = ContentCardSchema()
    return super(ContentCardSchema, schema)._serialize(content, many=False)


def test_a_written_out_card_is_marshmallows_dump_byte_for_byte(app, demo_catalogue):
    assert app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "60", "--seed", "3"]).exit_code == 0
    with app.app_context():
        # odd values too: no year, no rating, no original title, reviews with an average, no genres
        db.session.execute(update(Content).where(Content.id == 7).values(year=None, kinopoisk_rating=None,
                                                                           imdb_rating=None, imdb_id=None,
                                                                           original_title=None, age_rating=None))
        db.session.execute(update(Content).where(Content.id == 8).values(review_count=3, review_rating_sum=22))
        db.session.commit()
        ids = list(db.session.scalars(select(Content.id)))
        cards = list(db.session.scalars(select(Content).options(*CARD_OPTIONS)))  # ORM rows, genres by relationship
        rows = load_cards(ids)  # plain rows, one statement (PostgreSQL) or two
        assert len(cards) == len(rows) == len(ids) > 60
        assert any(len(card.genres) > 1 for card in cards)
        for card in cards:
            slow = json.dumps(_marshmallow(card), ensure_ascii=False)
            assert json.dumps(dump_card(card), ensure_ascii=False) == slow, card.id
            assert json.dumps(dump_card(rows[card.id]), ensure_ascii=False) == slow, card.id
        assert ContentCardSchema(many=True).dump(cards) == [dump_card(card) for card in cards]
        assert load_cards(ids, Content.id > 7).keys() == set(ids) - {1, 2, 3, 4, 5, 6, 7}
        varied = {card.id: dump_card(card) for card in cards}
        assert varied[7]["year"] is None and varied[7]["rating"]["imdb"] == {"value": None, "url": None}
        assert varied[8]["reviews"] == {"count": 3, "averageRating": 7.3}


def test_a_limited_or_extended_card_schema_dumps_as_marshmallow_does(app, demo_catalogue):
    from app.schemas.reference import PersonContentSchema

    with app.app_context():
        card = db.session.scalars(select(Content).where(Content.id == 1).options(*CARD_OPTIONS)).one()
        assert ContentCardSchema(only=("id", "slug")).dump(card) == {"id": 1, "slug": card.slug}
        assert set(ContentCardSchema(exclude=("genres",)).dump(card)) == set(dump_card(card)) - {"genres"}
        card.parts = []  # type: ignore[attr-defined]
        assert PersonContentSchema().dump(card) == {**dump_card(card), "parts": []}


def test_written_out_facets_are_marshmallows_dump_byte_for_byte(app, demo_catalogue):
    from app.schemas.lists import FacetsSchema, dump_facets
    from app.services.catalogue.facets import category_facets, count_facets

    assert app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "60", "--seed", "3"]).exit_code == 0
    with app.app_context():
        for facets in (count_facets(1), count_facets(2), category_facets("film", "drama-films")):
            assert facets["genres"] and facets["years"] and facets["ratings"] and facets["ages"]
            slow = super(FacetsSchema, FacetsSchema())._serialize(facets, many=False)
            assert json.dumps(dump_facets(facets), ensure_ascii=False) == json.dumps(slow, ensure_ascii=False)
            assert FacetsSchema().dump(facets) == slow
        assert FacetsSchema(only=("years",)).dump(count_facets(1)) == {"years": count_facets(1)["years"]}
