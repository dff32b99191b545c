"""Abuse reports (spec §7 ``POST /abuse/new``): any viewer, signed in or by their device identity
(X-Session-Context, as the progress calls), reports a review or a content for a reason of the fixed list
(``GET /abuse/reasons``: codes, Russian labels, what each may be about), with an optional comment. A token that comes
with the request must hold: an expired or revoked one is 401, never a report filed as the device. One report per
viewer and target: reporting again answers the first (200; a new one is 201). Limited per viewer and per address
(RATE_LIMIT_ABUSE_REPORTS, RATE_LIMIT_ABUSE_IP): 429. Editors work through them in the admin
(app/admin/moderation.py)."""

from __future__ import annotations

from typing import Any

from app.api.arguments import Blueprint
from app.api.decorators import shared_read
from app.api.docs import NO_STORE, VIEWER, answers
from app.errors import ApiError
from app.http.rates import limited_abuse_per_ip, limited_abuse_reports
from app.http.shared import shared
from app.http.viewer import viewer_key
from app.models import AbuseReason, AbuseTarget
from app.models.abuse import REASONS
from app.schemas.abuse import AbuseBodySchema, AbuseReasonSchema, AbuseReportSchema
from app.services.abuse.reports import file_report

blp = Blueprint("abuse", __name__, description="Viewers' reports of abusive reviews and broken contents")


@blp.route("/abuse/new", methods=["POST"])
@limited_abuse_per_ip
@limited_abuse_reports
@blp.arguments(AbuseBodySchema)
@blp.response(201, AbuseReportSchema, description="a new report")
@blp.alt_response(200, schema=AbuseReportSchema, success=True,
                  description="this viewer's report on this target, filed earlier: the same one")
@blp.doc(security=VIEWER)
@answers(blp, 401, 403, 404, 422, 429, body=True)
def report_abuse(body: dict[str, Any]) -> Any:
    """Reports a review or a content to the editors."""
    key, account_id = _reporter()
    filed = file_report(key, account_id, AbuseTarget(body["target"]), body["target_id"], AbuseReason(body["reason"]),
                        body.get("comment"))
    return filed.report, 201 if filed.created else 200, NO_STORE


def _reporter() -> tuple[str, int | None]:
    """The reporter's key and account (app/http/viewer.py ``viewer_key``: a token that comes with the request must
    hold, else 401; only a request with none reports as its device)."""
    key = viewer_key()
    if key is None:
        raise ApiError(401, "viewer_unknown", "Нужен X-Session-Context или вход в учётную запись")
    return key, int(key.removeprefix("user:")) if key.startswith("user:") else None


@blp.route("/abuse/reasons")
@shared_read(blp, AbuseReasonSchema(many=True))
def get_reasons() -> Any:
    """The reasons a report may give, in the order a form shows them: each one's code, Russian label, and what it may
    be about (review, content)."""
    return shared([{"code": reason.value, "label": label, "targets": sorted(target.value for target in targets)}
                   for reason, (label, targets) in REASONS.items()])
