"""Publishing in the admin: a title starts a draft, is published now or at a time the editor types in Moscow time
(kept in UTC), withdrawn at one, and previewed in the real player before and after (app/http/previews.py).

``MoscowDateTime``: the browser's own date-and-time control (no script), read and shown in Moscow time.
``PreviewViews``: the address that hands a signed-in editor a fresh preview of a title or one of its episodes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import abort, redirect, request, url_for
from flask_admin import expose
from wtforms import ValidationError
from wtforms.fields import DateTimeLocalField

from app import clock
from app.admin.base import SHOWN_ZONE, fits_integer_key
from app.extensions import db
from app.http.media import safe_file
from app.http.previews import page_mark, preview_expiry
from app.models import Content, Episode

FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%d.%m.%Y %H:%M"]
NOT_A_MOMENT = "Дата и время в виде ДД.ММ.ГГГГ ЧЧ:ММ (московское время)."
SCHEDULE_DESCRIPTIONS = {
    "published": "Снят: черновик, виден только здесь. Отмечен: виден всем (с даты публикации, если она задана).",
    "publish_at": "Московское время. Пусто: сразу. Дата в будущем отметит «Опубликован»: тайтл появится в это время.",
    "unpublish_at": "Московское время. Пусто: без срока. В это время тайтл перестанет показываться.",
}


class MoscowDateTime(DateTimeLocalField):
    """A moment typed and shown in Moscow time (``<input type=datetime-local>``), kept aware in UTC."""

    def __init__(self, label: Any = None, validators: Any = None, **kwargs: Any) -> None:
        kwargs.setdefault("format", FORMATS)
        super().__init__(label, validators, **kwargs)

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = " ".join(valuelist).strip() if valuelist else ""
        if not text:
            self.data = None
            return
        for shape in FORMATS:
            try:
                typed = datetime.strptime(text, shape)  # naive: Moscow time, made aware below
            except ValueError:
                continue
            self.data = typed.replace(tzinfo=SHOWN_ZONE).astimezone(UTC)
            return
        self.data = None
        raise ValueError(NOT_A_MOMENT)

    def _value(self) -> str:
        if self.raw_data:
            return " ".join(self.raw_data)
        if isinstance(self.data, datetime):
            moment = self.data if self.data.tzinfo else self.data.replace(tzinfo=UTC)
            return moment.astimezone(SHOWN_ZONE).strftime(FORMATS[0])
        return ""


def schedule(content: Content, form: Any) -> str | None:
    """The schedule's rules on a save; what to tell the editor about it, if anything."""
    start, end = content.publish_at, content.unpublish_at
    if start and end and end <= start:
        raise ValidationError("«Снять с публикации» должно быть позже, чем «Опубликовать»: проверьте даты.")
    now = clock.now()
    if start and start > now and not content.published and form.publish_at.object_data != start:
        content.published = True  # a time to publish at: published then (a draft until it comes)
    if content.published and start and start > now:
        return f"Запланировано: «{content.title}» появится {shown(start)} (МСК)."
    return None


def shown(moment: datetime) -> str:
    return moment.astimezone(SHOWN_ZONE).strftime("%d.%m.%Y %H:%M")


def status(content: Content) -> str:
    """What the public sees of it now, in the editors' words."""
    now = clock.now()
    if not content.published:
        return "Черновик: не опубликован"
    if content.publish_at and content.publish_at > now:
        return f"Запланирован на {shown(content.publish_at)} (МСК)"
    if content.unpublish_at and content.unpublish_at <= now:
        return f"Снят с публикации {shown(content.unpublish_at)} (МСК)"
    if content.unpublish_at:
        return f"Опубликован до {shown(content.unpublish_at)} (МСК)"
    return "Опубликован"


def media_status(path: str | None, media_url_path: str, media_root: Path) -> tuple[str, str]:
    """Whether an episode has its video: a path of ours whose file is there, an outside address, or nothing."""
    if not path:
        return "secondary", "Нет видео"
    base = media_url_path.rstrip("/") + "/"
    if not path.startswith(base):
        return "info", "Видео: внешний адрес"
    found = safe_file(media_root, path[len(base):].split("?")[0])
    return ("success", "Видео есть") if found is not None else ("warning", "Видео: файл не найден")


def publishing_word(content: Content, now: datetime) -> str:
    """A title's state in a word, for the lists that are not about publishing ("" for one shown now)."""
    if not content.published:
        return "черновик"
    if content.publish_at and content.publish_at > now:
        return f"с {shown(content.publish_at)}"
    if content.unpublish_at and content.unpublish_at <= now:
        return "снят с публикации"
    return ""


def preview_url(content_id: int, episode_id: int | None = None) -> str:
    """The admin's address that hands out a fresh preview (a signed address is made only when it is asked for)."""
    return url_for("content.preview", id=content_id, episode=episode_id)


class PreviewViews:
    """Mixed into the contents' view: GET preview/?id=N[&episode=M] sends a signed-in editor to the player page of
    that title (its episode) at a signed address that lasts a quarter of an hour, a draft included."""

    @expose("/preview/")
    def preview(self) -> Any:
        row_id, episode_id = request.args.get("id", ""), request.args.get("episode", "")
        content = db.session.get(Content, int(row_id)) if fits_integer_key(row_id) else None
        if content is None:
            abort(404)
        episode = db.session.get(Episode, int(episode_id)) if fits_integer_key(episode_id) else None
        if episode_id and (episode is None or episode.content_id != content.id):
            abort(404)
        expires = preview_expiry()
        return redirect(url_for("player.preview", movie_id=content.id, episode_id=episode.id if episode else None,
                                preview_exp=expires, preview_sig=page_mark(content.id, expires)))
