"""Device identities for anonymous viewers (spec §3 device_fp, §7 X-Session-Context): handed out here, one per
browser profile, signed so that no other value counts (app/http/viewer.py). The player asks once, after its first
frame, and keeps the answer in the device_fp cookie (or in memory where cookies are blocked)."""

from __future__ import annotations

from typing import Any

from app.api.arguments import Blueprint
from app.api.docs import NO_STORE, answers
from app.extensions import limiter
from app.http.rates import by_ip, configured
from app.http.viewer import issue_device_identity
from app.schemas.activity import SessionContextRequestSchema, SessionContextSchema

blp = Blueprint("devices", __name__, description="Device identities for viewers without an account")



@blp.route("/session-context", methods=["POST"])
@limiter.limit(configured("RATE_LIMIT_SESSION_CONTEXT"), key_func=by_ip)
@blp.arguments(SessionContextRequestSchema)
@blp.response(201, SessionContextSchema)
@answers(blp, 422, 429, body=True)
def create_session_context(body: dict[str, Any]) -> Any:
    """A new device identity for the browser whose signals hash to ``fingerprint``."""
    return {"sessionContext": issue_device_identity(body["fingerprint"])}, NO_STORE
