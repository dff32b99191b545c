"""Ads in the admin: house creatives (an MP4 uploaded, or the files' addresses), placements (pre- or mid-roll, order,
on or off, a house creative or an outside VAST URL, targeting), a preview of the VAST document the player will fetch,
and the tracking hits, read only, with their counts per creative and event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import abort, current_app, g, url_for
from flask_admin import expose
from flask_admin.model.form import InlineFormAdmin
from flask_admin.model.template import LinkRowAction
from sqlalchemy import func, select
from werkzeug.datastructures import FileStorage
from wtforms import ValidationError
from wtforms.fields import FileField, SelectField
from wtforms.validators import InputRequired, NumberRange, Optional

from app.admin.base import EditorModelView, fits_integer_key
from app.admin.forms import Address
from app.extensions import db
from app.http.urls import absolute_url
from app.models import AdCreative, AdMediaFile, AdPlacement, AdPosition, AdTrackingHit
from app.services.ads import vast
from app.services.ads.placements import creative_for_vast
from app.services.editorial.media_files import check_video, store_video

POSITIONS = [(AdPosition.PREROLL.value, "Перед фильмом"), (AdPosition.MIDROLL.value, "В середине фильма")]
AD_FIELDS = {
    "advertiser": "Рекламодатель", "duration": "Длительность, с",
    "skip_offset": "Пропуск через (ЧЧ:ММ:СС или n%; пусто: без пропуска)", "click_through_url": "Ссылка по клику",
    "media_files": "Файлы", "url": "Адрес файла", "mime_type": "Тип", "width": "Ширина", "height": "Высота",
    "bitrate": "Битрейт, кбит/с", "codec": "Кодек", "enabled": "Включено", "creative": "Ролик",
    "vast_url": "Внешний VAST (адрес http(s)://)", "wrapper_depth": "Обёрток перед роликом (0–5)",
    "content_type": "Только для типа", "event": "Событие", "error_code": "Код ошибки", "source": "Документ",
    "playhead": "Время в ролике", "creative_id": "Ролик",
}


class MediaFileInline(InlineFormAdmin):
    form_columns = ("id", "url", "mime_type", "width", "height", "bitrate", "codec")
    form_label = "Файл"
    column_labels = AD_FIELDS
    form_args = {"url": {"validators": [Address(site_path=True)]}}


class AdCreativeView(EditorModelView):
    column_list = ("title", "advertiser", "duration", "skip_offset")
    column_searchable_list = ("title", "advertiser")
    column_labels = AD_FIELDS
    form_columns = ("title", "advertiser", "duration", "skip_offset", "click_through_url", "video", "media_files")
    form_extra_fields = {"video": FileField("Загрузить ролик MP4", description="H.264 в MP4. Длительность, размер и "
                                            "кодек прочитаются из файла.", render_kw={"accept": "video/mp4"})}
    inline_models = (MediaFileInline(AdMediaFile),)
    form_args = {"duration": {"validators": [Optional(), NumberRange(min=1)],
                              "description": "Пусто: прочитается из загруженного файла."},
                 "click_through_url": {"validators": [Address()]}}

    file_limits = {"video": "ADMIN_AD_VIDEO_BYTES"}
    column_extra_row_actions = [*EditorModelView.column_extra_row_actions, LinkRowAction(
        "fa fa-upload", lambda _action, row_id, _row: url_for("video_upload.page", target="creative", target_id=row_id),
        title="Загрузить исходное видео: файлы MP4 360p и 720p приготовятся из него (app/admin/uploads.py)")]

    def shape_form(self, form: Any) -> Any:
        # the column is NOT NULL, so Flask-Admin adds InputRequired (and its asterisk) after our Optional: the
        # length may come from the file instead
        form.duration.validators = [v for v in form.duration.validators if not isinstance(v, InputRequired)]
        form.duration.flags.required = False  # its flag, set by InputRequired, would make the page require it
        return super().shape_form(form)

    def on_model_change(self, form: Any, model: AdCreative, is_created: bool) -> None:
        if model.skip_offset and not vast.valid_skip_offset(model.skip_offset):
            raise ValidationError("Пропуск: время ЧЧ:ММ:СС (или ЧЧ:ММ:СС.ммм) или процент, например 25%.")
        model.skip_offset = model.skip_offset or ""
        upload = form.video.data
        if isinstance(upload, FileStorage) and upload.filename:
            try:
                video = check_video(upload.stream, self.upload_limit("video"))
            except ValueError as problem:
                raise ValidationError(f"Ролик: {problem}") from None
            stored = store_video(video, Path(current_app.config["MEDIA_ROOT"]))
            model.duration = max(1, round(video.duration))
            model.media_files.append(AdMediaFile(
                url=f"{current_app.config['MEDIA_URL_PATH'].rstrip('/')}/{stored}", mime_type="video/mp4",
                width=video.width, height=video.height, bitrate=video.bitrate, codec=video.codec))
        if not model.duration or model.duration <= 0:
            raise ValidationError("Укажите длительность ролика в секундах или загрузите файл.")


def _preview_url(_action: Any, row_id: Any, _row: Any) -> str:
    return url_for("ad_placement.vast_preview", id=row_id)


class AdPlacementView(EditorModelView):
    column_list = ("title", "position", "order", "enabled", "creative", "vast_url", "content", "content_type")
    column_filters = ("position", "enabled")
    column_sortable_list = ("position", "order", "enabled")
    column_default_sort = [("position", False), ("order", False)]
    column_labels = {**AD_FIELDS, "position": "Место", "order": "Порядок", "content": "Только для тайтла"}
    column_choices = {"position": POSITIONS}  # the list's and the filter's words, never "preroll"
    form_columns = ("title", "position", "order", "enabled", "creative", "vast_url", "wrapper_depth", "content",
                    "content_type")
    form_overrides = {"position": SelectField}
    form_args = {"position": {"choices": POSITIONS, "label": "Место"}, "vast_url": {"validators": [Address()]}}
    form_ajax_refs = {"content": {"fields": ("title",), "page_size": 20, "placeholder": "Название"}}
    column_extra_row_actions = [*EditorModelView.column_extra_row_actions,
                                LinkRowAction("fa fa-file-code-o", _preview_url, title="Документ VAST для плеера")]

    def on_model_change(self, form: Any, model: AdPlacement, is_created: bool) -> None:
        model.position = AdPosition(model.position)
        model.vast_url = (model.vast_url or "").strip() or None
        if (model.creative is None) == (model.vast_url is None):
            raise ValidationError("Выберите ролик или укажите внешний VAST: одно из двух.")
        if model.vast_url is not None:
            model.wrapper_depth = 0
        if not 0 <= (model.wrapper_depth or 0) <= 5:
            raise ValidationError("Обёрток: от 0 до 5.")

    @expose("/vast/")
    def vast_preview(self) -> Any:
        """The first document the player fetches for this placement: ours (shown), or the outside address."""
        from flask import request

        row_id = request.args.get("id", "")
        placement = db.session.get(AdPlacement, int(row_id)) if fits_integer_key(row_id) else None
        if placement is None:
            abort(404)
        document = None
        if placement.creative_id is not None:
            tracking_url = absolute_url(url_for("ads.track"))
            if placement.wrapper_depth:
                target = absolute_url(url_for("ads.vast_document", creative=placement.creative_id,
                                              depth=placement.wrapper_depth - 1))
                body = vast.wrapper(target, placement.creative_id, tracking_url,
                                    source=f"wrapper-{placement.wrapper_depth}")
            else:
                found = creative_for_vast(placement.creative_id, absolute_url)
                body = vast.inline(found, tracking_url) if found is not None else vast.empty()
            document = body.decode("utf-8")
        address = placement.vast_url or absolute_url(
            url_for("ads.vast_document", creative=placement.creative_id, depth=placement.wrapper_depth)
            if placement.wrapper_depth else url_for("ads.vast_document", creative=placement.creative_id))
        return self.render("admin/vast_preview.html", placement=placement, document=document, address=address)


class AdTrackingHitView(EditorModelView):
    can_create = False
    can_edit = False
    can_delete = False
    action_disallowed_list = ["delete"]
    column_list = ("created_at", "creative_id", "event", "source", "playhead", "error_code")
    column_filters = ("event", "creative_id", "source")
    column_default_sort = ("created_at", True)
    column_labels = {**AD_FIELDS, "created_at": "Когда"}
    column_extra_row_actions: list[Any] = []
    column_formatters = {"creative_id": lambda view, _c, hit, _n: view.creative_title(hit.creative_id)}

    def creative_title(self, creative_id: int | None) -> str:
        """The creative's title (hits outlive creatives: then its number), the page's titles read once."""
        titles = g.get("ad_titles")
        if titles is None:
            titles = g.ad_titles = {row.id: row.title for row in db.session.execute(
                select(AdCreative.id, AdCreative.title))}
        return titles.get(creative_id, f"Ролик №{creative_id} (удалён)")

    @expose("/counts/")
    def counts(self) -> Any:
        """Hits per creative and event (a creative deleted since keeps its number)."""
        rows = db.session.execute(
            select(AdTrackingHit.creative_id, AdTrackingHit.event, func.count())
            .group_by(AdTrackingHit.creative_id, AdTrackingHit.event)
            .order_by(AdTrackingHit.creative_id, AdTrackingHit.event)).all()
        return self.render("admin/ad_counts.html", rows=rows, title_of=self.creative_title)
