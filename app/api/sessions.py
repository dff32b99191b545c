"""An account's sign-in sessions: signing out, and the list of its sessions with "end this one" and "end all
others" (not in spec §7; a site's account page needs them). Each session is one sign-in and the family of its
refresh tokens (app/services/accounts/sessions.py); ending one revokes that family and every access token naming it
at once, on every worker (the revocation list)."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask_jwt_extended import unset_jwt_cookies, verify_jwt_in_request

from app import registry
from app.api.arguments import Blueprint
from app.api.decorators import require_role
from app.api.docs import BEARER, answers, never_stored
from app.extensions import limiter
from app.http.rates import by_ip, by_viewer, configured
from app.http.tokens import current_account_id, current_session_id
from app.http.user_agents import device_label
from app.models import Role
from app.schemas.accounts import EndedSessionsSchema, SessionSchema, SignOutSchema
from app.services.accounts import sessions

blp = Blueprint("sessions", __name__, description="An account's sessions: sign-out, the list, ending them")
limiter.limit(configured("RATE_LIMIT_VIEWER"), key_func=by_viewer)(blp)
limiter.limit(configured("RATE_LIMIT_IP"), key_func=by_ip)(blp)
never_stored(blp)

SESSION_ID = {"in": "path", "name": "session_id", "description": "a session's id, as the list gives it",
              "example": "0f4b9e2c6d1a4f3e8b7c5a9d2e1f0c3b"}


@blp.route("/authentication/sign-out", methods=["POST"])
@blp.arguments(SignOutSchema)
@blp.response(204)
@blp.doc(security=BEARER)
@answers(blp, 401, 422, 429, body=True)
def sign_out(body: dict[str, Any]) -> Response:
    """Signs out: the session of the refresh token in the body, else of the access token (the bearer header, or the
    cookie with X-CSRF-TOKEN), ends at once (its refresh tokens and access tokens are refused from now on), and the
    token cookies are cleared. With only an expired access token, send the refresh token."""
    # the token as the refresh call reads it (app/api/accounts.py), else the access token: expired, revoked or forged
    # is 401 with its code
    if body.get("refresh_token"):
        verify_jwt_in_request(refresh=True, locations=["json"])
    else:
        verify_jwt_in_request()
    session_id = current_session_id()
    sessions.revoke_sessions([session_id], "sign_out", registry.revocations())
    response = Response(status=204)
    unset_jwt_cookies(response)
    return response


@blp.route("/user/sessions")
@require_role(blp, Role.VIEWER)
@blp.response(200, SessionSchema(many=True))
@answers(blp, 401, 429)
def get_sessions() -> Any:
    """The account's live sessions, the last used first: the browser and system that signed in, when, when last
    used (the sign-in, then each token refresh), and which one is this."""
    current = current_session_id()
    return [{"session": row, "device": device_label(row.user_agent), "current": row.id == current}
            for row in sessions.live_sessions(current_account_id())]


@blp.route("/user/sessions/<session_id>", methods=["DELETE"], parameters=[SESSION_ID])
@require_role(blp, Role.VIEWER)
@blp.response(204)
@answers(blp, 401, 404, 429)
def end_session(session_id: str) -> None:
    """Ends one of the account's sessions (this one too: then as a sign-out without the cookies cleared)."""
    sessions.end_session(current_account_id(), session_id, "ended_by_owner", registry.revocations())


@blp.route("/user/sessions/end-others", methods=["POST"])
@require_role(blp, Role.VIEWER)
@blp.response(200, EndedSessionsSchema)
@answers(blp, 401, 429)
def end_other_sessions() -> Any:
    """Ends every session of the account but this one."""
    ended = sessions.revoke_account_sessions(current_account_id(), "ended_by_owner", registry.revocations(),
                                             keep=current_session_id())
    return {"ended": len(ended)}

