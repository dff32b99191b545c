"""A viewer's progress through a content's episodes, their watched marks, and their history (spec §7 "Catalogue:
history and progress").

Every call needs a viewer: a signed-in account (a bearer token; or the authToken cookie, with X-CSRF-TOKEN on
writes), else the device identity in X-Session-Context. A token that is sent but expired or revoked is refused (401
token_expired, token_revoked), never taken for the device (app/http/viewer.py). No answer may be cached.
"""

from __future__ import annotations

from typing import Any

from flask import g, request
from flask.views import MethodView

from app.api.arguments import Blueprint
from app.api.docs import VIEWER, answers, id_parameter, never_stored
from app.errors import ApiError
from app.extensions import limiter
from app.http.rates import by_ip, by_viewer, configured
from app.http.viewer import viewer_key
from app.schemas.activity import (
    EpisodeProgressSchema,
    HistoryPageSchema,
    HistoryQuerySchema,
    HistorySearchPageSchema,
    HistorySearchSchema,
    LastWatchedSchema,
    TimeProgressSchema,
    ViewSchema,
)
from app.services.activity.history import history, record_view, search_history
from app.services.activity.progress import last_watched, progress_of, record_time, set_completed

blp = Blueprint("activity", __name__, description="Where a viewer stopped in each episode and what they finished")
limiter.limit(configured("RATE_LIMIT_VIEWER"), key_func=by_viewer)(blp)
limiter.limit(configured("RATE_LIMIT_IP"), key_func=by_ip)(blp)

EPISODE_PATH = "/contents/<int:content_id>/episodes/<int:episode_id>"
CONTENT_ID = id_parameter("content_id", "a published content's id", 2)
EPISODE_IDS = [CONTENT_ID, id_parameter("episode_id", "the id of one of its episodes", 3)]


@blp.before_request
def identify_viewer() -> None:
    """Before the body is read: an anonymous caller gets 401, not a validation error. A preflight (OPTIONS) carries no
    identity by design (a browser sends it without the request's headers): it is Flask's own answer, never a 401."""
    if request.method == "OPTIONS":
        return
    g.viewer_key = viewer_key()
    if g.viewer_key is None:
        raise ApiError(401, "viewer_unknown", "Нужен заголовок X-Session-Context или токен доступа")


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
        raise ApiError(404, "nothing_watched", "Из этого контента ещё ничего не смотрели", {"contentId": content_id})
    return last


@blp.route("/contents/<int:content_id>/episodes/progress", parameters=[CONTENT_ID])
@blp.response(200, EpisodeProgressSchema(many=True))
@blp.doc(security=VIEWER)
@answers(blp, 401, 404, 429)
def get_episodes_progress(content_id: int) -> Any:
    """The viewer's own marks on the content's episodes: where they stopped and which they finished, one item per
    episode they touched (the others: not started). The catalogue's ``/episodes`` and ``/episodes/{id}/resource``
    stay one shared, cacheable answer for everyone (their ``isCompleted`` is false there); a site shows a viewer's
    marks by joining this small private answer to them."""
    return progress_of(g.viewer_key, content_id)


@blp.route("/contents/<int:content_id>/history", methods=["POST"], parameters=[CONTENT_ID])
@blp.arguments(ViewSchema)
@blp.response(204)
@blp.doc(security=VIEWER)
@answers(blp, 401, 404, 422, 429, body=True)
def post_view(body: dict[str, Any], content_id: int) -> None:
    """Record that the viewer opened the content (and the episode, when ``episodeId`` says): it goes to the top of
    their history. Playing an episode (its time-progress) puts the content there too, without this call."""
    record_view(g.viewer_key, content_id, body["episode_id"])


@blp.route("/contents/history", methods=["POST"])
@blp.arguments(HistoryQuerySchema)
@blp.response(200, HistoryPageSchema)
@blp.doc(security=VIEWER)
@answers(blp, 401, 422, 429, body=True)
def post_history(body: dict[str, Any]) -> Any:
    """The viewer's history, the latest first: each published content they opened or played, with its card, the
    episode they were at and where they stopped, whether that episode and the whole content are finished, and where
    "continue watching" goes (``unfinished: true`` lists only those)."""
    return history(g.viewer_key, body["page"], body["pageSize"], body["unfinished"]).envelope()


@blp.route("/contents/history/search", methods=["POST"])
@blp.arguments(HistorySearchSchema)
@blp.response(200, HistorySearchPageSchema)
@blp.doc(security=VIEWER)
@answers(blp, 401, 422, 429, body=True)
def post_history_search(body: dict[str, Any]) -> Any:
    """The contents of the viewer's history that the catalogue's search finds for ``query`` (Russian in any form, a
    typo, transliterated, the original title), best match first, each as in ``POST /contents/history``."""
    page, corrected = search_history(g.viewer_key, body["query"], body["page"], body["pageSize"])
    return {**page.envelope(), "corrected": corrected}
