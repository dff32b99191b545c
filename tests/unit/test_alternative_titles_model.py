"""Alternative titles (app/models/titles.py, migration e2b6d9a4c7f1): a content's other names in the editor's order,
gone with their content; the database refuses an unknown kind, an empty title and a title twice for one content."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import downgrade, upgrade

from app import create_app
from app.extensions import db
from app.models import AlternativeTitle, Content, ContentType, TitleKind

BEFORE = "52224a595bfe"


def _content() -> Content:
    kind = ContentType(slug="film", title="Фильм")
    content = Content(title="Паразиты", content_type=kind, year=2019)
    db.session.add(content)
    return content


def test_a_content_keeps_its_other_names_in_order_and_loses_them_with_it(app: Flask) -> None:
    with app.app_context():
        content = _content()
        content.alternative_titles = [
            AlternativeTitle(title="Parasite", language="en", kind="international", position=1),
            AlternativeTitle(title="기생충", language="ko", kind=TitleKind.ORIGINAL, position=0),
            AlternativeTitle(title="Паразит", kind="misspelling", position=1),
        ]
        db.session.commit()
        content_id = content.id
        db.session.expire_all()
        read = db.session.get(Content, content_id)
        assert [(t.title, t.language, t.kind, t.shown) for t in read.alternative_titles] == [
            ("기생충", "ko", TitleKind.ORIGINAL, True), ("Parasite", "en", TitleKind.INTERNATIONAL, True),
            ("Паразит", None, TitleKind.MISSPELLING, False)]
        read.alternative_titles.pop(0)  # an orphan is deleted
        db.session.commit()
        assert db.session.scalar(sa.select(sa.func.count()).select_from(AlternativeTitle)) == 2
        db.session.delete(read)
        db.session.commit()
        assert db.session.scalar(sa.select(sa.func.count()).select_from(AlternativeTitle)) == 0


def test_an_unknown_kind_is_refused_before_the_database(app: Flask) -> None:
    with app.app_context():
        content = _content()
        content.alternative_titles = [AlternativeTitle(title="Parasite", kind="english")]
        with pytest.raises(sa.exc.StatementError):
            db.session.flush()
        db.session.rollback()


@pytest.mark.parametrize("values, refusal", [
    ({"title": "Parasite", "kind": "english"}, "alternative_title_kind"),
    ({"title": "", "kind": "international"}, "title_not_empty"),
    ({"title": "Parasite", "kind": "other"}, "alternative_titles"),  # the same title again for the content
])
def test_the_migrated_table_refuses_what_the_model_does_and_goes_back(make_database, values: dict[str, str],
                                                                      refusal: str) -> None:
    app = create_app({"TESTING": True, "DATABASE_URL": make_database("titles")})
    with app.app_context():
        upgrade(revision=BEFORE)
        with db.engine.begin() as connection:
            connection.execute(sa.text("INSERT INTO content_types (id, slug, title, position) "
                                       "VALUES (1, 'film', 'Фильм', 0)"))
            connection.execute(sa.text(
                "INSERT INTO contents (id, slug, title, title_sort, description, published, position, "
                "content_type_id, has_multiple_episodes, review_count, review_rating_sum, relevance, reach) "
                "VALUES (1, 'parazity', 'Паразиты', 'паразиты', '', true, 0, 1, false, 0, 0, 0, 'nowhere')"))
        upgrade()
        with db.engine.begin() as connection:
            connection.execute(sa.text("INSERT INTO alternative_titles (content_id, title, language, kind, position) "
                                       "VALUES (1, 'Parasite', 'en', 'international', 0)"))
        with db.engine.connect() as connection:
            with pytest.raises(sa.exc.IntegrityError) as refused:
                connection.execute(sa.text("INSERT INTO alternative_titles (content_id, title, language, kind, "
                                           "position) VALUES (1, :title, 'fr', :kind, 1)"), values)
            connection.rollback()
        assert refusal in str(refused.value)
        downgrade(revision=BEFORE)
        with db.engine.connect() as connection:
            assert "alternative_titles" not in sa.inspect(connection).get_table_names()
        db.engine.dispose()
