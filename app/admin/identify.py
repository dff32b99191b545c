"""Identify in the admin (issue 31): a content's data as a provider has it (app/services/editorial/identify.py), beside
the content's own, field by field; the editor ticks the fields to take and accepts them. The accept asks the provider
again (what is saved is the provider's, never values the page sent back), sets the ticked fields through the ORM (the
trail records them like a form's save) and goes back to the content's form. A provider that cannot be reached, is
slow or answers oddly is said in Russian, and nothing is changed. Editors and administrators (the content view's)."""

from __future__ import annotations

from typing import Any

from flask import abort, current_app, flash, redirect, request
from flask_admin import expose

from app.admin.base import fits_integer_key
from app.admin.forms import EditorForm
from app.extensions import db
from app.models import Content
from app.services.editorial.identify import Provider, ProviderFailed, TmdbProvider, accept, lookup
from app.services.search.index import reindex


def providers() -> list[Provider]:
    """The configured providers, in the order they are asked (TMDB's only when it has a key)."""
    config = current_app.config
    if not config["TMDB_API_KEY"]:
        return []
    return [TmdbProvider(config["TMDB_API_URL"], config["TMDB_API_KEY"], config["TMDB_IMAGE_URL"],
                         float(config["IDENTIFY_TIMEOUT_SECONDS"]))]


class IdentifyActions:
    """Mixed into the content view (before its model view)."""

    def _content(self) -> Content:
        row_id = request.args.get("id", "")
        content = db.session.get(Content, int(row_id)) if fits_integer_key(row_id) else None
        if content is None:
            abort(404)
        return content

    @expose("/identify/", methods=("GET", "POST"))
    def identify(self) -> Any:
        content = self._content()
        form = EditorForm(request.form if request.method == "POST" else None)
        proposal, problem = None, None
        try:
            proposal = lookup(content, providers())
        except ProviderFailed as failure:
            problem = failure.message
        posted = request.method == "POST"
        if posted and not form.validate():
            flash("Страница устарела: отметьте поля и примите ещё раз.", "error")
        elif posted and proposal is not None:
            applied = accept(content, proposal, request.form.getlist("field"))
            if applied:
                reindex([content.id])
                names = ", ".join(label for name, label, *_ in proposal.rows if name in applied)
                flash(f"Принято из {proposal.provider}: {names}.", "success")
                return redirect(self.get_url(".edit_view", id=content.id))  # type: ignore[attr-defined]
            flash("Отметьте поля, которые нужно принять.", "error")
        elif posted and problem:
            flash(f"{problem} Ничего не изменено.", "error")
        return self.render("admin/identify.html", content=content, proposal=proposal,  # type: ignore[attr-defined]
                           problem=problem, form=form)
