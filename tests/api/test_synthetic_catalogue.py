"""`flask demo catalogue --titles N`: a synthetic catalogue beside the demo's, for benchmarks (app/demo/synthetic)."""

from __future__ import annotations

import random
from collections import Counter

from sqlalchemy import func, select

from app.demo import extras
from app.demo.labels import CATEGORIES, GENRES
from app.demo.names import feminine
from app.demo.synthetic import CATEGORY_SHARES, _name
from app.demo.words import ADJECTIVES, NOUNS, WHERE
from app.extensions import db
from app.models import Category, Content, ContentPerson, ContentType, Episode, Genre, Season
from app.models.taxonomy import content_genres
from app.services.search.text import stem, words


def test_the_command_adds_films_and_series_with_their_labels(app, demo_catalogue):
    result = app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "300"])
    assert result.exit_code == 0, result.output
    assert "300 / 300 titles" in result.output and "added 300 titles" in result.output
    with app.app_context():
        added = db.session.scalars(select(Content).where(Content.id > 5).order_by(Content.id)).all()
        assert [c.id for c in added] == list(range(6, 306))  # after the demo's, none lost
        slugs = [c.slug for c in added]
        assert len(set(slugs)) == 300 and all(s.isascii() and " " not in s for s in slugs)
        series = [c for c in added if c.has_multiple_episodes]
        assert 20 < len(series) < 100  # about a fifth
        for content in series[:10]:
            seasons = db.session.scalars(select(Season.order).where(Season.content_id == content.id)).all()
            assert sorted(seasons) == list(range(1, len(seasons) + 1))
            assert db.session.scalar(select(func.count()).where(Episode.content_id == content.id)) >= 4 * len(seasons)
        films = [c for c in added if not c.has_multiple_episodes]
        assert all(len(c.episodes) == 1 and c.episodes[0].master_file_path for c in films[:10])
        genres = db.session.execute(select(content_genres.c.content_id, func.count()).where(
            content_genres.c.content_id > 5).group_by(content_genres.c.content_id)).all()
        assert len(genres) == 300 and all(1 <= count <= 3 for _, count in genres)
        assert db.session.scalar(select(func.count()).select_from(ContentPerson).where(ContentPerson.content_id > 5)) \
            >= 300 * 3
        # Its labels beside the demo's, whose own kept their titles and places
        assert db.session.scalar(select(func.count()).select_from(Genre)) == len(GENRES)
        assert {g.slug: g.title for g in db.session.scalars(select(Genre).where(Genre.slug.in_(extras.GENRES)))} \
            == extras.GENRES
        for type_slug, entries in CATEGORIES.items():
            type_id = db.session.scalar(select(ContentType.id).where(ContentType.slug == type_slug))
            rows = db.session.scalars(select(Category).where(Category.content_type_id == type_id)).all()
            assert len(rows) == len(entries) and sum(row.main_mart for row in rows) <= 4  # a handful on the mart
            demo = {(slug, title, position) for position, (kind, slug, title, _parent, _mart)
                    in enumerate(extras.CATEGORIES) if kind == type_slug}
            assert demo <= {(row.slug, row.title, row.position) for row in rows}
    # A second run adds more, after the first
    assert app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "10"]).exit_code == 0
    with app.app_context():
        assert db.session.scalar(select(func.max(Content.id))) == 315


def test_titles_inflect_and_come_with_an_english_original_the_same_for_a_seed():
    def sequence(seed):
        rng = random.Random(seed)
        return [_name(rng) for _ in range(20)]

    assert sequence(7) == sequence(7) and len(set(sequence(7))) > 10  # the same for a seed, and varied
    rng = random.Random(1)
    names = [_name(rng) for _ in range(2000)]
    title_words = set(" ".join(title for title, _ in names).lower().split())
    assert "дорога" in title_words and {"дороги", "дороге"} & title_words  # one word in more than one form
    assert all(original.isascii() and original[0].isupper() for _, original in names)
    assert sum(original.startswith("The ") for _, original in names) > 1000


def test_titles_are_mostly_distinct_and_no_word_is_on_many():
    """Of 100,000 titles, 88% are distinct and the commonest stem is on 0.9% (the first lists: 40% and 16%)."""
    rng = random.Random(1)
    titles = [_name(rng)[0] for _ in range(20_000)]
    assert len(set(titles)) > 0.85 * len(titles)
    stems = Counter(s for title in titles for s in {stem(word) for word in words(title)} - {""})
    assert stems.most_common(1)[0][1] < 0.015 * len(titles)


def test_the_word_lists_agree():
    assert len({noun[0] for noun in NOUNS}) == len(NOUNS) >= 200 and len(ADJECTIVES) >= 80
    assert all(len(noun) == 5 and noun[3] in "mfn" for noun in NOUNS)
    assert all(len(adjective) == 4 for adjective in ADJECTIVES)
    kept = {"дорога", "гавань", "маяк", "капитан", "граница", "тайна", "озеро", "сердце", "время"}
    assert kept <= {noun[0] for noun in NOUNS[:34]}  # the first lists, first
    forms = {noun[0]: noun[1:3] for noun in NOUNS}
    assert forms["путь"] == ("пути", "пути") and forms["мать"] == ("матери", "матери")
    assert forms["время"] == ("времени", "времени") and forms["сердце"] == ("сердца", "сердце")
    assert set(WHERE) <= set(forms) and WHERE["лес"] == "в лесу" and WHERE["сон"] == "во сне"
    assert [feminine(name) for name in ("Морозов", "Ильин", "Вишневский", "Толстой", "Черных")] == \
        ["Морозова", "Ильина", "Вишневская", "Толстая", "Черных"]


def test_category_sizes_fall_as_a_long_tail():
    """At 100,000 titles (a fifth of them series): a few categories of several thousand, the last of about 50."""
    for type_slug, titles in (("film", 80_000), ("series", 20_000)):
        top, exponent = CATEGORY_SHARES[type_slug]
        sizes = [titles * top / rank ** exponent for rank in range(1, len(CATEGORIES[type_slug]) + 1)]
        assert 30 <= len(sizes) <= 50 and sizes[0] > 3000 and 50 <= sizes[-1] < 100
        assert sum(50 <= size <= 1000 for size in sizes) > 0.7 * len(sizes)
