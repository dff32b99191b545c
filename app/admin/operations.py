"""Operations, for administrators: the named caches with their sizes and a button to clear them, the sitemaps'
last generation and a button to regenerate them now (the catalogue issue's calls, from the admin)."""

from __future__ import annotations

import logging
from typing import Any

from flask import current_app, flash, redirect, request, url_for
from flask_admin import BaseView, expose
from flask_admin.form import SecureForm

from app.admin.access import Guarded, signed_in
from app.caching import NAMED_CACHES, store
from app.extensions import db
from app.http.urls import public_base
from app.jobs import sitemaps as sitemap_job
from app.models import Role
from app.services.seo import sitemaps

log = logging.getLogger(__name__)


class OperationForm(SecureForm):
    """Only its CSRF token: each operation is a POST."""


class OperationsView(Guarded, BaseView):
    required_role = Role.ADMIN

    @expose("/")
    def index(self) -> Any:
        return self.render("admin/operations.html", caches=store().sizes(), sitemap=sitemaps.generation(db.session),
                           form=OperationForm())

    @expose("/clear-caches", methods=("POST",))
    def clear_caches(self) -> Any:
        if OperationForm(request.form).validate():
            for name in NAMED_CACHES:
                store().clear(name)
            log.info("caches cleared from the admin by account %s", _who())
            flash("Кэши очищены: следующие запросы соберут ответы заново.", "success")
        else:
            flash("Форма устарела: нажмите кнопку ещё раз.", "error")
        return redirect(url_for(".index"))

    @expose("/generate-sitemaps", methods=("POST",))
    def generate_sitemaps(self) -> Any:
        if not OperationForm(request.form).validate():
            flash("Форма устарела: нажмите кнопку ещё раз.", "error")
            return redirect(url_for(".index"))
        try:
            sitemap_job.queue_generation(db.session, current_app._get_current_object(),  # type: ignore[attr-defined]
                                         public_base(), account_id=_who())
        except sitemaps.GenerationRunning as running:
            flash(f"Карта сайта не собрана: {running.message}", "error")
            return redirect(url_for(".index"))
        log.info("sitemaps' generation queued from the admin by account %s", _who())
        flash("Карта сайта собирается обработчиком задач: на большом каталоге это займёт до минуты. Ход и итог — в "
              "задачах; обновите страницу, чтобы увидеть новую карту.", "success")
        return redirect(url_for(".index"))


def _who() -> int | None:
    account = signed_in()
    return account.id if account is not None else None
