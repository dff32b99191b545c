"""A viewer's progress through a content's episodes (spec §7 "Catalogue: history and progress").

Every call needs a viewer (a bearer token or the X-Session-Context fingerprint); no answer may be cached.
"""

from __future__ import annotations

from typing import Any

from flask import g
from flask.views import MethodView
from flask_smorest import Blueprint

from app.api.docs import VIEWER, answers, id_parameter, never_stored
from app.errors import ApiError
from app.extensions import limiter
from app.http.rates import by_ip, by_viewer, configured
from app.http.viewer import viewer_key
from app.schemas.activity import LastWatchedSchema, TimeProgressSchema
from app.services.activity.progress import last_watched, record_time, set_completed

blp = Blueprint("activity", __name__, description="Where a viewer stopped in each episode and what they finished")
limiter.limit(configured("RATE_LIMIT_VIEWER"), key_func=by_viewer)(blp)
limiter.limit(configured("RATE_LIMIT_IP"), key_func=by_ip)(blp)

EPISODE_PATH = "/contents/<int:content_id>/episodes/<int:episode_id>"
CONTENT_ID = id_parameter("content_id", "a published content's id", 2)
EPISODE_IDS = [CONTENT_ID, id_parameter("episode_id", "the id of one of its episodes", 3)]


@blp.before_request
def identify_viewer() -> None:
    """Before the body is read: an anonymous caller gets 401, not a validation error."""
    g.viewer_key = viewer_key()
    if g.viewer_key is None:
        raise ApiError(401, "viewer_unknown", "X-Session-Context or a bearer token is required")


never_stored(blp)


@blp.route(f"{EPISODE_PATH}/time-progress", methods=["POST"], parameters=EPISODE_IDS)
@blp.arguments(TimeProgressSchema)
@blp.response(204)
@blp.doc(security=VIEWER)
@answers(blp, 401, 404, 422, 429, body=True)
def post_time_progress(body: dict[str, Any], content_id: int, episode_id: int) -> None:
    """Remember where the viewer stopped in the episode, in whole seconds."""
    record_time(g.viewer_key, content_id, episode_id, body["time"])


@blp.route(f"{EPISODE_PATH}/completed", parameters=EPISODE_IDS)
class Completed(MethodView):
    @blp.response(204)
    @blp.doc(security=VIEWER)
    @answers(blp, 401, 404, 429)
    def post(self, content_id: int, episode_id: int) -> None:
        """Mark the episode finished."""
        set_completed(g.viewer_key, content_id, episode_id, True)

    @blp.response(204)
    @blp.doc(security=VIEWER)
    @answers(blp, 401, 404, 429)
    def delete(self, content_id: int, episode_id: int) -> None:
        """Mark the episode not finished."""
        set_completed(g.viewer_key, content_id, episode_id, False)


@blp.route("/contents/<int:content_id>/episodes/watched/last", parameters=[CONTENT_ID])
@blp.response(200, LastWatchedSchema)
@blp.doc(security=VIEWER)
@answers(blp, 401, 404, 429)
def get_last_watched(content_id: int) -> Any:
    """The episode of the content the viewer saved last, and where they stopped in it."""
    last = last_watched(g.viewer_key, content_id)
    if last is None:
        raise ApiError(404, "nothing_watched", "Nothing of this content was watched yet", {"contentId": content_id})
    return last
