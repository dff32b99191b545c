"""The catalogue in the admin: contents with their seasons, episodes and availability rules on one page, and the
lists that label them (types, categories, genres, tags, countries, languages, voice authors, persons)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import abort, current_app, request, url_for
from flask_admin import expose
from flask_admin.contrib.sqla.form import AdminModelConverter, InlineModelConverter
from flask_admin.model.form import InlineFormAdmin
from flask_admin.model.template import LinkRowAction
from sqlalchemy import inspect, select
from werkzeug.datastructures import FileStorage
from wtforms import ValidationError
from wtforms.fields import FileField, SelectField

from app.admin.base import EditorModelView, fits_integer_key
from app.admin.bulk import BulkActions
from app.admin.filters import FilterBar, content_filters
from app.admin.forms import Address
from app.admin.identify import IdentifyActions
from app.admin.labels import FIELDS
from app.admin.pictures import poster_thumbnail
from app.extensions import db
from app.models import Content, ContentPerson, Episode, Season
from app.models.catalogue import AvailabilityRule, RuleKind
from app.services.editorial.media_files import check_poster, master_problem, store_poster
from app.services.player.availability import Verdict, check_availability
from app.services.search.index import reindex

AGE_RATINGS = [("", "—"), ("0", "0+"), ("6", "6+"), ("12", "12+"), ("16", "16+"), ("18", "18+")]
RULE_KINDS = [(RuleKind.ALLOW_COUNTRY.value, "Показывать только в стране"),
              (RuleKind.BLOCK_COUNTRY.value, "Не показывать в стране"),
              (RuleKind.ALLOW_DOMAIN.value, "Показывать только на сайте"),
              (RuleKind.BLOCK_DOMAIN.value, "Не показывать на сайте")]
VERDICTS = {Verdict.AVAILABLE: "Будет показан.",
            Verdict.BLOCKED_COUNTRY: "Не будет показан: в этой стране показ закрыт.",
            Verdict.BLOCKED_DOMAIN: "Не будет показан: на этом сайте показ закрыт."}
EPISODE_COLUMNS = ("order", "title", "duration", "master_file_path", "poster_path", "description")


class EpisodeInline(InlineFormAdmin):
    form_columns = ("id", *EPISODE_COLUMNS)
    form_label = "Серия"
    column_labels = FIELDS
    form_widget_args = {"description": {"rows": 2}}
    form_args = {"poster_path": {"validators": [Address(site_path=True)]}}

    def on_model_change(self, form: Any, model: Episode, is_created: bool) -> None:
        if model.season is not None:
            model.content = model.season.content  # an episode belongs to its season's content
        check_master(model)


def check_master(episode: Episode) -> None:
    """A master path typed or changed here names a file that exists and that the player reads (an empty path: not
    ready yet, allowed; a path saved before is not checked again: a title's edit is not stopped by a file moved)."""
    path = (episode.master_file_path or "").strip()
    episode.master_file_path = path or None
    if path and inspect(episode).attrs.master_file_path.history.has_changes():
        config = current_app.config
        content = episode.content if episode.content is not None else (
            episode.season.content if episode.season is not None else None)
        problem = master_problem(path, config["MEDIA_URL_PATH"], Path(config["MEDIA_ROOT"]),
                                 content_id=content.id if content is not None else None)
        if problem:
            raise ValidationError(f"Мастер-файл серии «{episode.title}»: {problem}.")


class SeasonInline(InlineFormAdmin):
    """A season with its episodes nested in it (Flask-Admin's inline converter, applied once more)."""

    form_columns = ("id", "order", "title")
    form_label = "Сезон"
    column_labels = FIELDS

    def __init__(self, model: Any, view: EditorModelView, **kwargs: Any) -> None:
        super().__init__(model, **kwargs)
        self.view = view

    def postprocess_form(self, form_class: Any) -> Any:
        converter = InlineModelConverter(db, self.view, AdminModelConverter)
        return converter.contribute(Season, form_class, EpisodeInline(Episode))


class LooseEpisodesConverter(InlineModelConverter):
    """Content has two lists of episodes (all of them; those outside a season): the inline edits the second."""

    def _calculate_mapping_key_pair(self, model: Any, info: Any) -> dict[str, str]:
        return {"loose_episodes": "content"}


class LooseEpisodeInline(EpisodeInline):
    form_label = "Серия фильма"
    inline_converter = LooseEpisodesConverter


class RuleInline(InlineFormAdmin):
    form_columns = ("id", "kind", "value")
    form_label = "Правило"
    column_labels = FIELDS
    form_overrides = {"kind": SelectField}
    form_args = {"kind": {"choices": RULE_KINDS, "label": "Правило"},
                 "value": {"label": "Страна (код ISO, например ru) или домен сайта (example.ru)"}}

    def on_model_change(self, form: Any, model: AvailabilityRule, is_created: bool) -> None:
        model.kind = RuleKind(model.kind)
        model.value = (model.value or "").strip().lower()


class PersonInline(InlineFormAdmin):
    """Who is in it, as what (actor, director…), in the credits' order."""

    form_columns = ("id", "person", "person_type", "character", "position")
    form_label = "Участник"
    column_labels = FIELDS
    form_ajax_refs = {"person": {"fields": ("name", "original_name"), "page_size": 20, "placeholder": "Имя"}}


class ContentView(BulkActions, IdentifyActions, FilterBar, EditorModelView):
    list_template = "admin/model/content_list.html"
    column_list = ("id", "poster_url", "title", "content_type", "year", "published", "position", "updated_at")
    column_labels = {"id": "№", "poster_url": "Постер"}
    column_searchable_list = ("title", "original_title", "slug")
    column_filters = content_filters()
    column_sortable_list = ("id", "title", "year", "published", "position", "updated_at",
                            ("content_type", "content_type.title"))
    column_default_sort = ("updated_at", True)
    column_editable_list = ("position", "published")
    rule_kinds = RULE_KINDS
    column_formatters = {"poster_url": poster_thumbnail}
    form_columns = ("title", "original_title", "slug", "content_type", "published", "position", "description",
                    "year", "age_rating", "has_multiple_episodes", "poster_url", "poster", "genres", "countries",
                    "tags", "voice_authors", "languages", "subtitles", "kinopoisk_id", "kinopoisk_rating", "imdb_id",
                    "imdb_rating", "seasons", "loose_episodes", "availability_rules", "persons", "categories")
    form_overrides = {"age_rating": SelectField}
    form_args = {"age_rating": {"choices": AGE_RATINGS, "coerce": lambda value: int(value) if value else None},
                 "slug": {"description": "Латиница, цифры и дефисы. Пусто: составится из названия."},
                 "poster_url": {"validators": [Address(site_path=True)]}}
    form_widget_args = {"description": {"rows": 6}}
    form_extra_fields = {"poster": FileField(
        "Загрузить постер", description="JPEG, PNG или WebP, до 5 МБ. Заменит адрес постера выше.",
        render_kw={"accept": "image/jpeg,image/png,image/webp"})}
    file_limits = {"poster": "ADMIN_POSTER_BYTES"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.inline_models = (SeasonInline(Season, self), LooseEpisodeInline(Episode), RuleInline(AvailabilityRule),
                              PersonInline(ContentPerson))
        super().__init__(*args, **kwargs)

    column_extra_row_actions = [*EditorModelView.column_extra_row_actions, LinkRowAction(
        "fa fa-globe", lambda _action, row_id, _row: url_for(".availability", id=row_id),
        title="Где покажется: проверить страну и сайт"), LinkRowAction(
        "fa fa-magic", lambda _action, row_id, _row: url_for(".identify", id=row_id),
        title="Заполнить по id IMDb или Кинопоиска")]

    def on_model_change(self, form: Any, model: Content, is_created: bool) -> None:
        upload = form.poster.data if "poster" in form else None  # the list's inline edit has no upload
        if isinstance(upload, FileStorage) and upload.filename:
            try:
                poster = check_poster(upload.read(self.upload_limit("poster") + 1), self.upload_limit("poster"))
            except ValueError as problem:
                raise ValidationError(f"Постер: {problem}") from None
            stored = store_poster(poster, Path(current_app.config["MEDIA_ROOT"]))
            model.poster_url = f"{current_app.config['MEDIA_URL_PATH'].rstrip('/')}/{stored}"
        if not model.slug:
            if not is_created:
                raise ValidationError("Укажите адрес (slug): без него старые ссылки перестанут работать.")
            model.slug = None  # type: ignore[assignment]  # the column's default: the title's
        _no_repeats([season.order for season in model.seasons], "сезона")
        for season in model.seasons:
            _no_repeats([episode.order for episode in season.episodes], "серии", f" в сезоне «{season}»")
        _no_repeats([episode.order for episode in model.loose_episodes], "серии")
        if model.seasons:
            model.has_multiple_episodes = True

    def after_model_change(self, form: Any, model: Content, is_created: bool) -> None:
        reindex([model.id])  # search sees the new title at once

    def after_model_delete(self, model: Content) -> None:
        reindex([model.id])

    @expose("/availability/")
    def availability(self) -> Any:
        """Would this content play for a viewer in country X on a site at domain Y? The player's own rule."""
        row_id = request.args.get("id", "")
        content = db.session.get(Content, int(row_id)) if fits_integer_key(row_id) else None
        if content is None:
            abort(404)
        country = (request.args.get("country") or "").strip().lower()[:8] or None
        domain = (request.args.get("domain") or "").strip().lower()[:255] or None
        verdict = None
        if country or domain:
            verdict = check_availability([(rule.kind, rule.value) for rule in content.availability_rules],
                                         country=country, domain=domain)
        return self.render("admin/availability.html", content=content, country=country or "", domain=domain or "",
                           verdict=verdict, verdicts=VERDICTS, kinds=dict(RULE_KINDS))


def _no_repeats(orders: list[int | None], what: str, where: str = "") -> None:
    """Refuses the form when a number is missing or repeats (the database would refuse it less clearly)."""
    seen: set[int] = set()
    for order in orders:
        if order is None:
            raise ValidationError(f"Укажите номер {what}{where}.")
        if order in seen:
            raise ValidationError(f"Номер {what} {order} повторяется{where}.")
        seen.add(order)


class LabelView(EditorModelView):
    """A list of labels: a title and a slug."""

    column_list: tuple[str, ...] = ("title", "slug")
    column_searchable_list = ("title", "slug")
    column_sortable_list = ("title", "slug")
    column_default_sort = "title"
    form_columns: tuple[str, ...] = ("title", "slug")


class ContentTypeView(LabelView):
    column_list = ("title", "slug", "position")
    form_columns = ("title", "slug", "position")


class CategoryView(EditorModelView):
    column_list = ("title", "slug", "content_type", "parent", "position", "main_mart")
    column_searchable_list = ("title", "slug")
    column_filters = ("content_type", "main_mart")
    column_sortable_list = ("title", "position", "main_mart")
    column_default_sort = [("content_type_id", False), ("position", False)]
    form_columns = ("content_type", "parent", "title", "slug", "description", "position", "main_mart")


class CountryView(LabelView):
    form_args = {"slug": {"label": "Код ISO 3166-1 (две буквы)"}}


class LanguageView(EditorModelView):
    column_list = ("title", "code")
    column_searchable_list = ("title", "code")
    form_columns = ("title", "code")


class PersonTypeView(LabelView):
    column_list = ("title", "slug", "position")
    form_columns = ("title", "slug", "position")


class PersonView(EditorModelView):
    column_list = ("name", "original_name", "slug")
    column_searchable_list = ("name", "original_name", "slug")
    column_sortable_list = ("name",)
    column_default_sort = "name"
    form_columns = ("name", "original_name", "slug", "photo_url")
    form_args = {"photo_url": {"validators": [Address(site_path=True)]}}

    def after_model_change(self, form: Any, model: Any, is_created: bool) -> None:
        reindex(db.session.scalars(select(ContentPerson.content_id).where(ContentPerson.person_id == model.id)))

