"""Acting on a set of contents (issue 31): the rows ticked on the page, or every content the list's filters and
search find ("select all N matching", app/admin/static/lists.js); publish, unpublish, and the bulk edit of genres,
categories, an availability rule and publishing (app/services/editorial/bulk.py), one transaction for the whole set,
each content recorded in the audit trail as a form's save would be.

The whole set travels as the list's address (its filters and search) with the count the editor saw and confirmed; the
server finds the set again, and refuses when it is no longer that many (a title added or changed meanwhile), so that
nothing is changed that the editor did not count. The views are the content view's: editors and administrators only
(app/admin/access.py)."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request
from flask_admin import expose
from flask_admin.actions import action
from flask_admin.helpers import get_redirect_target
from sqlalchemy import select
from wtforms import HiddenField, SelectField, SelectMultipleField, StringField
from wtforms.validators import Optional

from app.admin.base import fits_integer_key
from app.admin.forms import EditorForm
from app.extensions import db
from app.models import Category, Genre
from app.models.catalogue import RuleKind
from app.services.editorial.bulk import BulkChange, apply_bulk
from app.services.errors import Invalid
from app.services.search.index import reindex

SET_CHANGED = "Подходящих записей теперь {now}, а не {seen}: проверьте выбор и повторите."
RULE_ACTIONS = [("", "не менять"), ("add", "добавить правило"), ("remove", "убрать правило")]
PUBLISHING = [("", "не менять"), ("1", "опубликовать"), ("0", "снять с публикации")]


class BulkForm(EditorForm):
    add_genres = SelectMultipleField("Добавить жанры", coerce=int, validators=[Optional()])
    remove_genres = SelectMultipleField("Убрать жанры", coerce=int, validators=[Optional()])
    add_categories = SelectMultipleField("Добавить в категории", coerce=int, validators=[Optional()])
    remove_categories = SelectMultipleField("Убрать из категорий", coerce=int, validators=[Optional()])
    # Left unsent, these mean "no change": their values are checked in change()
    rule_action = SelectField("Правило показа", choices=RULE_ACTIONS, validate_choice=False)
    rule_kind = SelectField("Какое", choices=[], validate_choice=False)
    rule_value = StringField("Страна (код ISO) или домен сайта", validators=[Optional()])
    published = SelectField("Публикация", choices=PUBLISHING, validate_choice=False)
    count = HiddenField()

    def fill_choices(self, rule_kinds: list[tuple[str, str]]) -> BulkForm:
        genres = [(g.id, g.title) for g in db.session.scalars(select(Genre).order_by(Genre.title))]
        categories = [(c.id, f"{c.content_type.title} / {c.title}")
                      for c in db.session.scalars(select(Category).order_by(Category.content_type_id, Category.title))]
        self.add_genres.choices = self.remove_genres.choices = genres
        self.add_categories.choices = self.remove_categories.choices = categories
        self.rule_kind.choices = rule_kinds
        return self

    def change(self) -> BulkChange:
        rule = None
        if self.rule_action.data not in (None, "", "add", "remove") or self.published.data not in (None, "", "0", "1"):
            raise Invalid("bulk_choice", "Выберите изменение из списка.")
        if self.rule_action.data:
            value = (self.rule_value.data or "").strip().lower()
            if not value or len(value) > 255 or self.rule_kind.data not in {kind.value for kind in RuleKind}:
                raise Invalid("bulk_rule", "Укажите вид правила и страну или домен.")
            rule = (RuleKind(self.rule_kind.data), value)
        return BulkChange(add_genres=self.add_genres.data or (), remove_genres=self.remove_genres.data or (),
                          add_categories=self.add_categories.data or (),
                          remove_categories=self.remove_categories.data or (),
                          add_rule=rule if self.rule_action.data == "add" else None,
                          remove_rule=rule if self.rule_action.data == "remove" else None,
                          published=None if not self.published.data else self.published.data == "1")


class BulkActions:
    """Mixed into the content view (before its model view)."""

    model: Any
    rule_kinds: list[tuple[str, str]] = []

    def selection(self, ids: list[str]) -> list[int] | None:
        """The ticked rows, or with ``all_matching`` every row the list's address finds, if still as many as the
        editor saw (None, and a message, when not)."""
        if "all_matching" not in request.form:
            return sorted({int(row_id) for row_id in ids if fits_integer_key(row_id)})
        seen = request.form["all_matching"]
        found = self.matching_ids()
        if not seen.isdigit() or int(seen) != len(found):
            flash(SET_CHANGED.format(now=len(found), seen=seen[:12]), "error")
            return None
        return found

    def matching_ids(self) -> list[int]:
        args = self._get_list_extra_args()  # type: ignore[attr-defined]
        _, query = self.get_list(0, None, False, args.search, args.filters,  # type: ignore[attr-defined]
                                 execute=False, page_size=0)
        return [row_id for (row_id,) in query.with_entities(self.model.id).order_by(None).all()]

    def _back(self) -> Any:
        return redirect(get_redirect_target() or self.get_url(".index_view"))  # type: ignore[attr-defined]

    @action("publish", "Опубликовать", "Опубликовать выбранные?")
    def publish(self, ids: list[str]) -> Any:
        return self._bulk_now(ids, BulkChange(published=True), "Опубликовано")

    @action("unpublish", "Снять с публикации", "Снять выбранные с публикации?")
    def unpublish(self, ids: list[str]) -> Any:
        return self._bulk_now(ids, BulkChange(published=False), "Снято с публикации")

    def _bulk_now(self, ids: list[str], change: BulkChange, done: str) -> Any:
        chosen = self.selection(ids)
        if chosen is not None:
            apply_bulk(chosen, change)
            reindex(chosen)
            flash(f"{done}: {len(chosen)}.", "success")
        return self._back()

    @action("bulk_edit", "Изменить выбранные…")
    def bulk_edit(self, ids: list[str]) -> Any:
        chosen = self.selection(ids)
        if chosen is None:
            return self._back()
        if not chosen:
            flash("Ничего не выбрано.", "error")
            return self._back()
        form = BulkForm(count=str(len(chosen))).fill_choices(self.rule_kinds)
        return self._bulk_page(form, chosen)

    def _bulk_page(self, form: BulkForm, chosen: list[int]) -> Any:
        matching = "all_matching" in request.form
        return self.render("admin/bulk_edit.html", form=form, count=len(chosen),  # type: ignore[attr-defined]
                           matching=matching, ids=[] if matching else chosen,
                           action_url=self.get_url(".bulk_apply", **request.args),  # type: ignore[attr-defined]
                           return_url=get_redirect_target() or self.get_url(".index_view"))  # type: ignore[attr-defined]

    @expose("/bulk/", methods=("POST",))
    def bulk_apply(self) -> Any:
        form = BulkForm(request.form).fill_choices(self.rule_kinds)
        chosen = self.selection(request.form.getlist("rowid"))
        if chosen is None:
            return self._back()
        if not form.validate():
            flash("Проверьте поля формы.", "error")
            return self._bulk_page(form, chosen)
        if form.count.data != str(len(chosen)):
            flash(SET_CHANGED.format(now=len(chosen), seen=(form.count.data or "")[:12]), "error")
            return self._back()
        try:
            changed = apply_bulk(chosen, form.change())
        except Invalid as refusal:
            flash(refusal.message, "error")
            return self._bulk_page(form, chosen)
        reindex(chosen)
        flash(f"Изменено записей: {changed} из {len(chosen)}.", "success")
        return self._back()
