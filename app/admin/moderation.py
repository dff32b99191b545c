"""Moderation in the admin: viewers' abuse reports as a queue editors work through, and the reviews themselves.

* "Жалобы: очередь" lists the open reports, oldest first. On a report's page the editor chooses what to do (hide the
  review, which closes every open report about it; dismiss the report; or leave it open) and may write a note; the
  list's actions do the same for the reports ticked. A report handled leaves the queue for "Жалобы: все".
* "Рецензии" lists the reviews, newest first: hide one, show it again, or delete it (its counts follow).

Every change goes through the rules (app/services/abuse/reports.py, app/services/reviews) and the ORM, so the audit
trail records who did what. Viewers' text (a review, a comment) is shown as text: escaped by the templates, never
marked safe, and a link in it is never made one."""

from __future__ import annotations

from typing import Any

from flask import flash
from flask_admin.actions import action
from flask_admin.contrib.sqla.filters import DateTimeBetweenFilter, FilterEmpty
from sqlalchemy import select
from wtforms import SelectField, TextAreaField
from wtforms.validators import Length, Optional

from app.admin.access import signed_in
from app.admin.base import EditorModelView
from app.extensions import db
from app.models import AbuseReport, AbuseStatus, Review
from app.models.abuse import MAX_NOTE, REASONS, STATUS_LABELS, TARGET_LABELS
from app.services.abuse.reports import dismiss, hide_reported_review
from app.services.errors import DomainError
from app.services.reviews.moderation import set_hidden
from app.services.reviews.reviews import delete_review

SHOWN_TEXT = 300  # characters of a review or comment in a list; the whole on the report's page
DECISIONS = [("", "Оставить открытой"), ("hide", "Скрыть рецензию"), ("dismiss", "Отклонить жалобу")]


def _shortened(text: str | None) -> str:
    """Plain text (the template escapes it)."""
    if not text:
        return ""
    return text if len(text) <= SHOWN_TEXT else text[:SHOWN_TEXT] + "…"


def _editor_id() -> int:
    account = signed_in()  # every view here is Guarded: there is one
    return account.id if account is not None else 0


REPORT_FORMATTERS = {
    "target": lambda _v, _c, report, _n: TARGET_LABELS[report.target],
    "reason": lambda _v, _c, report, _n: REASONS[report.reason][0],
    "status": lambda _v, _c, report, _n: STATUS_LABELS[report.status],
    "content": lambda _v, _c, report, _n: report.content.title if report.content else "",
    "review_text": lambda _v, _c, report, _n: _shortened(report.review_text),
    "comment": lambda _v, _c, report, _n: _shortened(report.comment),
    "account": lambda _v, _c, report, _n: report.account.name if report.account else "анонимный зритель",
    "handled_by": lambda _v, _c, report, _n: report.handled_by.name if report.handled_by else "",
}
REPORT_LABELS = {"target": "На что", "target_id": "Номер", "content": "Фильм или сериал",
                 "review_text": "Текст рецензии (при жалобе)", "reason": "Причина", "comment": "Комментарий",
                 "status": "Состояние", "note": "Заметка редактора", "created_at": "Поступила",
                 "handled_at": "Рассмотрена", "handled_by": "Кем", "account": "Кто пожаловался",
                 "decision": "Решение"}


class AbuseReportView(EditorModelView):
    """Every report, newest first (the queue's closed ones among them)."""

    can_create = False
    can_delete = False
    can_view_details = True
    action_disallowed_list = ["delete"]
    column_list: tuple[str, ...] = ("created_at", "target", "content", "review_text", "reason", "comment", "status",
                                    "handled_by", "note")
    column_details_list = ("created_at", "account", "target", "target_id", "content", "review_text", "reason",
                           "comment", "status", "handled_at", "handled_by", "note")
    column_filters = ("status", "reason", "target", DateTimeBetweenFilter(AbuseReport.created_at, "Поступила"))
    column_sortable_list = ("created_at", "status", "reason")
    column_default_sort = ("created_at", True)
    column_formatters = REPORT_FORMATTERS
    column_formatters_detail = {**REPORT_FORMATTERS, "review_text": lambda _v, _c, r, _n: r.review_text or "",
                                "comment": lambda _v, _c, r, _n: r.comment or ""}
    column_labels = REPORT_LABELS
    form_columns = ("decision", "note")
    form_extra_fields = {"decision": SelectField("Решение", choices=DECISIONS, default="")}
    form_args = {"note": {"validators": [Optional(), Length(max=MAX_NOTE)]}}
    form_overrides = {"note": TextAreaField}

    def on_model_change(self, form: Any, model: AbuseReport, is_created: bool) -> None:
        decision = form.decision.data if "decision" in form else ""
        if decision == "hide":
            hide_reported_review(model, _editor_id(), model.note)
        elif decision == "dismiss":
            dismiss(model, _editor_id(), model.note)

    def handle_view_exception(self, exc: Exception) -> bool:
        if isinstance(exc, DomainError):
            flash(exc.message, "error")
            return True
        return super().handle_view_exception(exc)

    @action("hide_review", "Скрыть рецензию",
            "Скрыть рецензии выбранных жалоб? Их не увидит никто, кроме авторов; жалобы на них закроются.")
    def hide_reviews(self, ids: list[str]) -> None:
        self._decide(ids, lambda report: hide_reported_review(report, _editor_id(), None))

    @action("dismiss", "Отклонить", "Отклонить выбранные жалобы?")
    def dismiss_reports(self, ids: list[str]) -> None:
        self._decide(ids, lambda report: dismiss(report, _editor_id(), None))

    def _decide(self, ids: list[str], decide: Any) -> None:
        done = 0
        for report in db.session.scalars(select(AbuseReport).where(AbuseReport.id.in_([int(i) for i in ids]))):
            try:
                decide(report)
                done += 1
            except DomainError as refusal:
                flash(f"Жалоба №{report.id}: {refusal.message}", "error")
        db.session.flush()
        if done:
            flash(f"Рассмотрено жалоб: {done}.", "success")


class AbuseQueueView(AbuseReportView):
    """The open reports, oldest first: what is left to do."""

    column_default_sort = ("created_at", False)
    column_list = ("created_at", "target", "content", "review_text", "reason", "comment")

    def get_query(self) -> Any:
        return super().get_query().filter(AbuseReport.status == AbuseStatus.OPEN)

    def get_count_query(self) -> Any:
        return super().get_count_query().filter(AbuseReport.status == AbuseStatus.OPEN)


REVIEW_FORMATTERS = {
    "content": lambda _v, _c, review, _n: review.content.title if review.content else "",
    "account": lambda _v, _c, review, _n: review.account.name if review.account else "",
    "text": lambda _v, _c, review, _n: _shortened(review.text),
}


class ReviewView(EditorModelView):
    """Viewers' reviews, newest first: hide, show again, delete."""

    can_create = False
    can_edit = False
    can_view_details = True
    column_list = ("created_at", "content", "account", "rating", "text", "score", "hidden_at")
    column_details_list = ("created_at", "edited_at", "content", "account", "rating", "text", "votes_up",
                           "votes_down", "hidden_at")
    column_filters = ("rating", FilterEmpty(Review.hidden_at, "Скрыта"),
                      DateTimeBetweenFilter(Review.created_at, "Написана"))
    column_sortable_list = ("created_at", "rating", "score")
    column_default_sort = ("created_at", True)
    column_formatters = REVIEW_FORMATTERS
    column_formatters_detail = {**REVIEW_FORMATTERS, "text": lambda _v, _c, review, _n: review.text}
    column_labels = {"created_at": "Написана", "edited_at": "Изменена автором", "content": "Фильм или сериал",
                     "account": "Автор", "rating": "Оценка", "text": "Текст", "score": "Полезность",
                     "votes_up": "Полезна", "votes_down": "Не полезна", "hidden_at": "Скрыта"}

    def delete_model(self, model: Review) -> bool:
        try:
            delete_review(_editor_id(), True, model.content_id, model.id)
        except DomainError as refusal:
            flash(refusal.message, "error")
            return False
        return True

    @action("hide", "Скрыть", "Скрыть выбранные рецензии? Их не увидит никто, кроме авторов.")
    def hide(self, ids: list[str]) -> None:
        self._set_hidden(ids, True)

    @action("show", "Показать снова", "Показать выбранные рецензии снова?")
    def show(self, ids: list[str]) -> None:
        self._set_hidden(ids, False)

    def _set_hidden(self, ids: list[str], hidden: bool) -> None:
        for review_id in ids:
            set_hidden(int(review_id), hidden)
        flash(f"{'Скрыто' if hidden else 'Показано снова'}: {len(ids)}.", "success")
