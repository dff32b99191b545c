"""Acting on sets of contents (issue 31): the bulk edit of the rows ticked or of every content the filters find (more
than a page), one save recorded per content in the trail; a set that changed since it was counted is refused; the
list's values edited in place are saved and recorded like a form's."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, insert, select

from app.admin.bulk import SET_CHANGED
from app.extensions import db
from app.models import AuditEntry, Category, Content, ContentType, Genre, Role
from app.models.catalogue import AvailabilityRule, RuleKind
from app.models.taxonomy import ContentCategory
from app.transaction import transaction
from tests.admin.helpers import csrf_of, flashes, page

DRAFTS = 130  # more than a page (50)


@pytest.fixture
def editor(demo_catalogue: Flask, signed_in: Callable[[Role], FlaskClient]) -> FlaskClient:
    return signed_in(Role.EDITOR)


@pytest.fixture
def drafts(app: Flask, demo_catalogue: Flask) -> list[int]:
    with app.app_context(), transaction():
        film = db.session.scalar(select(ContentType.id).where(ContentType.slug == "film"))
        db.session.execute(insert(Content), [
            {"title": f"Черновик {n:03}", "slug": f"chernovik-{n:03}", "content_type_id": film, "published": False,
             "year": 1972, "description": ""} for n in range(DRAFTS)])
        return list(db.session.scalars(select(Content.id).where(Content.title.like("Черновик %"))))


def ids_of(app: Flask, model: type, **where: str) -> int:
    with app.app_context():
        return int(db.session.scalar(select(model.id).filter_by(**where)))


def test_a_bulk_edit_over_every_matching_content(app: Flask, editor: FlaskClient, drafts: list[int]):
    listing = "/admin/content/?flt0_published_equals=0&flt1_year_equals=1972"
    assert "Черновик" in editor.get(listing).get_data(as_text=True)
    token = csrf_of(editor, listing)
    form = editor.post("/admin/content/action/?flt0_published_equals=0&flt1_year_equals=1972", data={
        "action": "bulk_edit", "all_matching": str(DRAFTS), "url": listing, "csrf_token": token})
    assert form.status_code == 200
    shown = page(form)
    assert str(DRAFTS) in shown.xpath("string(//p[contains(@class, 'editorial-bulk-count')])")
    apply_to = shown.xpath("//form[contains(@class, 'editorial-bulk')]/@action")[0]
    comedy, drama = ids_of(app, Genre, slug="comedy"), ids_of(app, Category, slug="drama-films")
    done = editor.post(apply_to, data={
        "csrf_token": shown.xpath("//input[@name='csrf_token']/@value")[0], "count": str(DRAFTS),
        "all_matching": str(DRAFTS), "url": listing, "add_genres": [str(comedy)], "add_categories": [str(drama)],
        "rule_action": "add", "rule_kind": "block_country", "rule_value": "RU", "published": "1"})
    assert done.status_code == 302
    assert f"Изменено записей: {DRAFTS} из {DRAFTS}." in flashes(editor.get("/admin/content/"))
    with app.app_context():
        contents = db.session.scalars(select(Content).where(Content.id.in_(drafts))).all()
        assert all(c.published and [g.slug for g in c.genres] == ["comedy"] for c in contents)
        assert all([c.slug for c in c.categories] == ["drama-films"] for c in contents)
        rules = db.session.scalars(select(AvailabilityRule).where(AvailabilityRule.content_id.in_(drafts))).all()
        assert {(r.kind, r.value) for r in rules} == {(RuleKind.BLOCK_COUNTRY, "ru")} and len(rules) == DRAFTS
        recorded = db.session.scalars(select(AuditEntry.object_id).where(
            AuditEntry.object_type == "contents", AuditEntry.action == "update")).all()
        assert sorted(map(int, recorded)) == sorted(drafts)  # one entry per content, the untouched not among them
        positions = db.session.scalars(select(ContentCategory.position).where(
            ContentCategory.content_id.in_(drafts))).all()
        assert len(set(positions)) == DRAFTS  # each added at the end of the category, not all at one place


def test_a_set_that_changed_since_it_was_counted_is_left_alone(app: Flask, editor: FlaskClient, drafts: list[int]):
    listing = "/admin/content/?flt0_published_equals=0"
    token = csrf_of(editor, listing)
    answer = editor.post("/admin/content/action/?flt0_published_equals=0", data={
        "action": "publish", "all_matching": str(DRAFTS - 1), "url": listing, "csrf_token": token})
    assert answer.status_code == 302
    assert SET_CHANGED.format(now=DRAFTS, seen=DRAFTS - 1) in flashes(editor.get("/admin/content/"))
    with app.app_context():
        assert db.session.scalar(select(func.count()).where(Content.published.is_(False))) == DRAFTS


def test_ticked_rows_only_and_nothing_to_change_is_refused(app: Flask, editor: FlaskClient):
    token = csrf_of(editor, "/admin/content/")
    form = editor.post("/admin/content/action/", data={"action": "bulk_edit", "rowid": ["2", "3"],
                                                       "url": "/admin/content/", "csrf_token": token})
    shown = page(form)
    assert shown.xpath("//input[@name='rowid']/@value") == ["2", "3"]
    token = shown.xpath("//input[@name='csrf_token']/@value")[0]
    empty = editor.post("/admin/content/bulk/", data={"csrf_token": token, "count": "2", "rowid": ["2", "3"]})
    assert "Выберите, что изменить." in flashes(empty)
    editor.post("/admin/content/bulk/", data={"csrf_token": token, "count": "2", "rowid": ["2", "3"],
                                              "published": "0", "url": "/admin/content/"})
    with app.app_context():
        assert sorted(c.id for c in db.session.scalars(select(Content).where(Content.published.is_(False)))) == [2, 3]


def test_position_and_published_are_edited_in_the_list_and_recorded(app: Flask, editor: FlaskClient):
    token = csrf_of(editor, "/admin/content/")
    answer = editor.post("/admin/content/ajax/update/", data={"list_form_pk": "2", "position": "7",
                                                              "csrf_token": token})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    refused = editor.post("/admin/content/ajax/update/", data={"list_form_pk": "2", "position": "семь",
                                                               "csrf_token": token})
    assert refused.status_code == 422
    with app.app_context():
        assert db.session.get(Content, 2).position == 7
        changes = db.session.scalars(select(AuditEntry.changes).where(AuditEntry.object_type == "contents")).all()
        assert changes == [{"position": [0, 7]}]
