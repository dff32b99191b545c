"""`flask demo catalogue --titles N`: a synthetic catalogue beside the demo's, for benchmarks (app/demo/synthetic)."""

from __future__ import annotations

import random

from sqlalchemy import func, select

from app.demo.synthetic import _name
from app.extensions import db
from app.models import Content, ContentPerson, Episode, Season
from app.models.taxonomy import content_genres


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
    # A second run adds more, after the first
    assert app.test_cli_runner().invoke(args=["demo", "catalogue", "--titles", "10"]).exit_code == 0
    with app.app_context():
        assert db.session.scalar(select(func.max(Content.id))) == 315


def test_titles_inflect_and_come_with_an_english_original_the_same_for_a_seed():
    def sequence(seed):
        rng = random.Random(seed)
        return [_name(rng) for _ in range(20)]

    assert sequence(7) == sequence(7) and len(set(sequence(7))) > 10  # the same for a seed, and varied
    names = [_name(random.Random(seed)) for seed in range(200)]
    words = set(" ".join(title for title, _ in names).lower().split())
    assert "дорога" in words and {"дороги", "дороге"} & words  # one word in more than one form
    assert all(original.startswith("The ") and original.isascii() for _, original in names)
