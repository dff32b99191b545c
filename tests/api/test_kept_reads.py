"""What the catalogue keeps derived from itself so that two reads stay cheap uncached (issue 30, hole 13; issue 36):
each type's facets under the catalogue's generation (app/services/catalogue/facets.py) and each content's stored
relevance (app/services/catalogue/relevance.py). The tests show the kept answer is the counted one, and stays so after
a change to the catalogue (made at once by a command or a test, after a request's change by a background job), and
that the reads fall back to counting and ranking for themselves whenever what is kept is not current."""

from __future__ import annotations

from sqlalchemy import delete, select, update

from app.caching import invalidate_catalogue, store
from app.clock import now
from app.extensions import db
from app.http.background import drain_jobs
from app.models import CacheCounter, Content, ContentType, TypeFacets
from app.services.catalogue.categories import count_categories
from app.services.catalogue.facets import count_facets
from app.services.catalogue.relevance import RELEVANCE_YEAR, relevance
from tests.api.queries import statements


def type_id(app, slug):
    with app.app_context():
        return db.session.scalar(select(ContentType.id).where(ContentType.slug == slug))


def kept(app, content_type_id):
    """The kept row's generation and facets, the current generation, and the facets as counted now."""
    with app.app_context():
        row = db.session.get(TypeFacets, content_type_id)
        if row is None:
            return None
        facets = {facet: counts for facet, counts in row.facets.items() if facet != "categories"}
        return row.generation, facets, store().generation(), count_facets(content_type_id)


def kept_categories(app, content_type_id):
    """The categories' counts kept beside the facets, and as counted now."""
    with app.app_context():
        row = db.session.get(TypeFacets, content_type_id)
        return ({int(key): count for key, count in row.facets["categories"].items()},
                count_categories(content_type_id))


def test_the_categories_counts_are_kept_and_the_tree_counts_nothing(app, client, demo_catalogue):
    for slug in ("film", "series"):
        assert kept_categories(app, type_id(app, slug))[0] == kept_categories(app, type_id(app, slug))[1]
    with statements(app) as seen:
        tree = client.get("/categories/tree/content-type/1").get_json()
    assert [node["count"] for node in tree] == [1, 3, 1] and not [s for s in seen if "GROUP BY" in s]
    with app.app_context():
        db.session.execute(update(Content).where(Content.id == 1).values(published=False))
        db.session.commit()
        invalidate_catalogue()  # outside a request: at once
    kept_now, counted = kept_categories(app, 1)
    assert kept_now == counted == {2: 2, 3: 1}
    with app.app_context():  # kept under another generation: the read counts for itself
        db.session.execute(update(TypeFacets).values(generation=TypeFacets.generation - 1))
        db.session.commit()
    with statements(app) as seen:
        tree = client.get("/categories/tree/content-type/1?includeEmpty=true").get_json()
    assert [node["count"] for node in tree] == [0, 2, 1] and [s for s in seen if "GROUP BY" in s]


def facets_read(app, client, content_type_id):
    with statements(app) as seen:
        response = client.get(f"/categories/filters/{content_type_id}")
    assert response.status_code == 200
    return response.get_json(), [s for s in seen if "GROUP BY" in s]


def test_each_types_facets_are_kept_and_a_read_counts_nothing(app, client, demo_catalogue):
    for slug in ("film", "series"):
        generation, facets, current, counted = kept(app, type_id(app, slug))
        assert generation == current and facets == counted
        answer, counting = facets_read(app, client, type_id(app, slug))
        assert answer == counted and counting == []


def test_a_change_recounts_the_kept_facets(app, client, demo_catalogue):
    film = type_id(app, "film")
    before, _ = facets_read(app, client, film)
    with app.app_context():
        db.session.execute(update(Content).where(Content.id.in_((3, 4))).values(published=False))
        db.session.commit()
        invalidate_catalogue()  # outside a request: at once
    generation, facets, current, counted = kept(app, film)
    assert generation == current and facets == counted and facets != before
    answer, counting = facets_read(app, client, film)
    assert answer == counted and counting == []
    assert {g["slug"]: g["count"] for g in answer["genres"]} == {"drama": 1, "comedy": 1, "adventure": 1}


def test_a_requests_change_recounts_them_in_a_background_job(app, client, demo_catalogue):
    film = type_id(app, "film")
    with app.test_request_context("/admin/"), app.app_context():
        db.session.execute(update(Content).where(Content.id == 3).values(published=False))
        db.session.commit()
        invalidate_catalogue()
        answer, _ = facets_read(app, client, film)  # before the job or after it: the answer is the new one
        assert answer == count_facets(film)
    drain_jobs()
    generation, facets, current, counted = kept(app, film)
    assert generation == current and facets == counted
    assert facets_read(app, client, film) == (counted, [])


def test_facets_kept_under_another_generation_are_not_answered(app, client, demo_catalogue):
    film = type_id(app, "film")
    with app.app_context():
        row = db.session.get(TypeFacets, film)
        row.generation, row.facets = row.generation - 1, {"genres": [], "countries": [], "years": [], "ratings": [],
                                                          "voiceAuthors": []}
        db.session.commit()
        counted = count_facets(film)
    answer, counting = facets_read(app, client, film)
    assert answer == counted and answer["genres"] and counting


# --- the stored relevance ---------------------------------------------------------------------------------------


def ranked_by_expression(app):
    """The published contents in most-relevant's order, the score computed from the rule as before."""
    with app.app_context():
        score = relevance(now().year)
        return list(db.session.scalars(select(Content.id).where(Content.published)
                                       .order_by(Content.position, score.desc(), Content.id.desc())))


def most_relevant(app, client, query="pageSize=100"):
    """The ids of the page and the statement that ranked it (a query of its own: the store keeps answers)."""
    with statements(app) as seen:
        response = client.get(f"/contents/most-relevant?{query}")
    assert response.status_code == 200
    ranking = next(s for s in seen if "ORDER BY contents.position" in s)
    return [item["id"] for item in response.get_json()["items"]], ranking


def test_a_flush_scores_the_contents_it_changes_and_the_page_reads_the_stored_score(app, client, demo_catalogue):
    year = now().year
    with app.app_context():
        db.session.add(Content(id=61, title="Новинка", content_type_id=1, year=year, kinopoisk_rating=9.9))
        db.session.get(Content, 2).imdb_rating = 1.0  # the series sinks
        db.session.get(Content, 5).year = year  # a film gets younger
        db.session.commit()
        stored = {row[0]: row[1] for row in db.session.execute(select(Content.id, Content.relevance))}
        scored = {row[0]: row[1] for row in db.session.execute(select(Content.id, relevance(year)))}
        assert stored == scored
    ids, ranking = most_relevant(app, client)
    assert ids == ranked_by_expression(app) and ids[0] == 61
    assert "contents.relevance DESC" in ranking and "coalesce" not in ranking.lower()


def scored_last_year(app):
    with app.app_context():
        db.session.execute(update(CacheCounter).where(CacheCounter.name == RELEVANCE_YEAR)
                           .values(value=now().year - 1))
        db.session.execute(update(Content).values(relevance=0.0))  # as if scored in another year
        db.session.commit()


def scores_year(app):
    with app.app_context():
        return db.session.scalar(select(CacheCounter.value).where(CacheCounter.name == RELEVANCE_YEAR))


def test_scores_of_a_year_gone_are_not_used_and_the_read_has_them_made_again(app, client, demo_catalogue):
    scored_last_year(app)
    ids, ranking = most_relevant(app, client)  # ranked by the rule itself; a job scores every content meanwhile
    assert ids == ranked_by_expression(app) and "coalesce" in ranking.lower()
    drain_jobs()
    assert scores_year(app) == now().year
    ids, ranking = most_relevant(app, client, "pageSize=100&page=1")
    assert ids == ranked_by_expression(app) and "coalesce" not in ranking.lower()


def test_a_change_scores_every_content_again_when_the_year_has_turned(app, client, demo_catalogue):
    scored_last_year(app)
    with app.app_context():
        invalidate_catalogue()
    assert scores_year(app) == now().year
    ids, ranking = most_relevant(app, client)
    assert ids == ranked_by_expression(app) and "coalesce" not in ranking.lower()


def test_a_read_that_finds_no_kept_facets_has_them_kept(app, client, demo_catalogue):
    film = type_id(app, "film")
    with app.app_context():  # as the migration leaves them: none kept
        db.session.execute(delete(TypeFacets))
        db.session.commit()
    answer, counting = facets_read(app, client, film)
    assert counting and answer == kept_or_counted(app, film)
    drain_jobs()  # the read started the refresh
    generation, facets, current, counted = kept(app, film)
    assert generation == current and facets == counted == answer


def kept_or_counted(app, content_type_id):
    with app.app_context():
        return count_facets(content_type_id)


def test_the_total_is_kept_and_a_flush_of_contents_stops_it_being_answered(app, client, demo_catalogue):
    with statements(app) as seen:
        assert client.get("/contents/most-relevant?pageSize=2").get_json()["total"] == 5
    assert not [s for s in seen if "count(" in s.lower()]  # the kept total
    with app.app_context():  # a change that bumps no generation (a script's): what is kept is not answered
        db.session.add(Content(title="Без объявления", content_type_id=1))
        db.session.commit()
        assert {row.generation for row in db.session.scalars(select(TypeFacets))} == {-1}
    assert client.get("/contents/most-relevant?pageSize=3").get_json()["total"] == 6
    answer, counting = facets_read(app, client, type_id(app, "film"))
    assert counting and answer == kept_or_counted(app, type_id(app, "film"))
