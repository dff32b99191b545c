"""Ordering by dragging (issue 31): wherever order matters, a page that lists the rows in their order, lets the editor
drag them (SortableJS, app/admin/static/vendor/) or move them with the keyboard (the up and down buttons), and saves
the order they stand in as positions 1, 2, 3…: a category's titles (the membership's position, which the API's
category lists read for their editorial sort and the main mart for its leading titles), the main mart's rows (the
categories shown there, per content type), the menu (one level at a time) and the promo slides.

Each view says what its groups are (``order_groups``: a category, a menu's level…), what one group holds in order
(``order_rows``) and how an order is kept (``keep_order``); the page, its CSRF token and its checks are here. Every
change goes through the ORM, so that the trail records each position changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import abort, flash, redirect, request, url_for
from flask_admin import expose

from app.admin.forms import EditorForm
from app.extensions import db

MAX_ROWS = 2000  # what one page orders at most (a category's titles)
ORDER_SAVED = "Порядок сохранён."
ORDER_STALE = "Список изменился, пока вы его упорядочивали: вот он заново, расставьте ещё раз."


@dataclass(frozen=True)
class OrderGroup:
    key: str  # the query's group= ("" for a view with one group)
    title: str
    listed: bool = True  # named in the page's list of groups (a category's titles are reached from its row)


@dataclass(frozen=True)
class OrderRow:
    id: int
    title: str
    note: str = ""  # what else tells rows apart (a year, a type, "черновик")


class OrderForm(EditorForm):
    """Only its CSRF token (SecureForm's): the ids come as the list ``ids``, in the order they stand."""


class OrderedViews:
    """Mixed into a model view (before it): GET/POST order/?group=… (see the module's docstring)."""

    order_heading = "Порядок"
    order_hint = "Перетащите строки за ⠿ или переставьте их кнопками ↑ ↓, затем сохраните."

    def order_groups(self) -> list[OrderGroup]:
        return [OrderGroup("", self.order_heading)]

    def order_rows(self, group: str) -> list[OrderRow]:
        raise NotImplementedError

    def keep_order(self, group: str, ids: list[int]) -> None:
        raise NotImplementedError

    @expose("/order/", methods=("GET", "POST"))
    def order_view(self) -> Any:
        group = request.values.get("group", "")[:64]
        groups = self.order_groups()
        if not group and groups and all(found.key for found in groups):
            group = groups[0].key  # the view's first group (the list's "order" tab names none)
        title = next((found.title for found in groups if found.key == group), None)
        if title is None:
            abort(404)
        rows = self.order_rows(group)[:MAX_ROWS]
        form = OrderForm(request.form if request.method == "POST" else None)
        if request.method == "POST" and form.validate():
            sent = request.form.getlist("ids")
            ids = [int(value) for value in sent if value.isdigit() and len(value) <= 10]
            if len(ids) != len(sent) or sorted(ids) != sorted(row.id for row in rows):
                flash(ORDER_STALE, "error")
            else:
                self.keep_order(group, ids)
                flash(ORDER_SAVED, "success")
                return redirect(url_for(".order_view", group=group or None))
        elif request.method == "POST":
            flash("Страница устарела: порядок не сохранён. Расставьте ещё раз и сохраните.", "error")
        return self.render("admin/order.html", form=form, rows=rows, group=group, title=title,  # type: ignore[attr-defined]
                           groups=groups, hint=self.order_hint, heading=self.order_heading)


def renumber(rows: list[Any], ids: list[int], key: Any = lambda row: row.id) -> None:
    """Gives the rows positions 1, 2, 3… in the order of ``ids``, through the ORM (a row already there keeps its
    value, so that the trail records only what moved)."""
    place = {row_id: index + 1 for index, row_id in enumerate(ids)}
    for row in rows:
        wanted = place.get(key(row))
        if wanted is not None and row.position != wanted:
            row.position = wanted
    db.session.flush()
