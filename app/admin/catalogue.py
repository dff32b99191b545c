"""The catalogue in the admin: contents with their seasons, episodes and availability rules on one page, and the
lists that label them (types, categories, genres, tags, countries, languages, voice authors, persons)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import abort, current_app, flash, request, url_for
from flask_admin import expose
from flask_admin.contrib.sqla.form import InlineModelConverter
from flask_admin.model.form import InlineFormAdmin
from flask_admin.model.template import LinkRowAction
from sqlalchemy import inspect, select
from werkzeug.datastructures import FileStorage
from wtforms import ValidationError
from wtforms.fields import FileField, SelectField

from app import clock
from app.admin.base import EditorModelView, fits_integer_key
from app.admin.bulk import BulkActions
from app.admin.filters import FilterBar, content_filters
from app.admin.forms import Address
from app.admin.identify import IdentifyActions
from app.admin.labels import FIELDS
from app.admin.markers import MarkerViews, SecondsField, markers_url
from app.admin.ordering import OrderedViews, OrderGroup, OrderRow, renumber
from app.admin.pictures import poster_thumbnail
from app.admin.publishing import (
    SCHEDULE_DESCRIPTIONS,
    MoscowDateTime,
    PreviewViews,
    media_status,
    preview_url,
    publishing_word,
    schedule,
    status,
)
from app.admin.titles import AlternativeTitleInline, check_alternative_titles
from app.extensions import db
from app.models import (
    AlternativeTitle,
    Category,
    Content,
    ContentCategory,
    ContentPerson,
    ContentType,
    Episode,
    Season,
)
from app.models.catalogue import AvailabilityRule, RuleKind
from app.services.editorial.markers import marker_problem
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


def _age_rating(value: object) -> int | None:
    """A choice's value as stored: 0+ is 0, never "none" (0 is a mark, defect 1 of issue 31)."""
    return None if value in ("", None) else int(str(value))


EPISODE_COLUMNS = ("order", "title", "duration", "master_file_path", "poster_path", "description", "intro_start",
                   "intro_end", "credits_start")


class EpisodeInline(InlineFormAdmin):
    compact_rows = True  # drawn as rows of a table (templates/admin/model/episode_rows.html)
    form_columns = ("id", *EPISODE_COLUMNS)
    form_label = "Серия"
    column_labels = FIELDS
    form_widget_args = {"description": {"rows": 2}, "poster_path": {"data-picture-kind": "frames"}}
    form_args = {"poster_path": {"validators": [Address(site_path=True)]}}
    # the markers (issue 35) are Float columns, which the number converter does not take (app/admin/markers.py)
    form_overrides = {"intro_start": SecondsField, "intro_end": SecondsField, "credits_start": SecondsField}

    def on_model_change(self, form: Any, model: Episode, is_created: bool) -> None:
        if model.season is not None:
            model.content = model.season.content  # an episode belongs to its season's content
        check_master(model)
        problem = marker_problem(model.intro_start, model.intro_end, model.credits_start, model.duration)
        if problem:
            raise ValidationError(f"Серия «{model.title}»: {problem}")


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

    collapsible = True  # each season folds (templates/admin/model/inline_list_base.html)
    form_columns = ("id", "order", "title")
    form_label = "Сезон"
    column_labels = FIELDS

    def __init__(self, model: Any, view: EditorModelView, **kwargs: Any) -> None:
        super().__init__(model, **kwargs)
        self.view = view

    def postprocess_form(self, form_class: Any) -> Any:
        converter = InlineModelConverter(db, self.view, self.view.model_form_converter)
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


class ContentView(PreviewViews, MarkerViews, BulkActions, IdentifyActions, FilterBar, EditorModelView):
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
    form_columns = ("title", "original_title", "alternative_titles", "slug", "content_type", "published",
                    "publish_at", "unpublish_at", "position", "description",
                    "year", "age_rating", "has_multiple_episodes", "poster_url", "poster", "genres", "countries",
                    "tags", "voice_authors", "languages", "subtitles", "kinopoisk_id", "kinopoisk_rating", "imdb_id",
                    "imdb_rating", "seasons", "loose_episodes", "availability_rules", "persons", "categories")
    form_overrides = {"age_rating": SelectField, "publish_at": MoscowDateTime, "unpublish_at": MoscowDateTime}
    form_args = {"age_rating": {"choices": AGE_RATINGS, "coerce": _age_rating},
                 "published": {"description": SCHEDULE_DESCRIPTIONS["published"]},
                 "publish_at": {"label": "Опубликовать в", "description": SCHEDULE_DESCRIPTIONS["publish_at"]},
                 "unpublish_at": {"label": "Снять с публикации в",
                                  "description": SCHEDULE_DESCRIPTIONS["unpublish_at"]},
                 "slug": {"description": "Латиница, цифры и дефисы. Пусто: составится из названия."},
                 "poster_url": {"validators": [Address(site_path=True)]}}
    form_widget_args = {"description": {"rows": 6}, "poster_url": {"data-picture-kind": "posters"}}
    form_extra_fields = {"poster": FileField(
        "Загрузить постер", description="JPEG, PNG или WebP, до 5 МБ. Заменит адрес постера выше.",
        render_kw={"accept": "image/jpeg,image/png,image/webp"})}
    file_limits = {"poster": "ADMIN_POSTER_BYTES"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.inline_models = (SeasonInline(Season, self), LooseEpisodeInline(Episode), RuleInline(AvailabilityRule),
                              PersonInline(ContentPerson), AlternativeTitleInline(AlternativeTitle))
        super().__init__(*args, **kwargs)

    column_extra_row_actions = [*EditorModelView.column_extra_row_actions, LinkRowAction(
        "fa fa-globe", lambda _action, row_id, _row: url_for(".availability", id=row_id),
        title="Где покажется: проверить страну и сайт"), LinkRowAction(
        "fa fa-magic", lambda _action, row_id, _row: url_for(".identify", id=row_id),
        title="Заполнить по id IMDb или Кинопоиска"), LinkRowAction(
        "fa fa-eye", lambda _action, row_id, _row: preview_url(row_id),
        title="Предпросмотр в плеере (черновик тоже)")]

    edit_template = "admin/content_edit.html"
    create_template = "admin/content_create.html"

    def create_form(self, obj: Any = None) -> Any:
        form = super().create_form(obj)
        if not request.form:
            form.published.data = False  # a new title is a draft (the column's default is for the seeder's)
        return form

    def markers_url(self, content_id: int, episode_id: int) -> str:
        return markers_url(content_id, episode_id)

    def media_status(self, path: str | None) -> tuple[str, str]:
        """An episode's video as its row says it: (the badge's kind, the words)."""
        return media_status(path, current_app.config["MEDIA_URL_PATH"], Path(current_app.config["MEDIA_ROOT"]))

    def publishing_status(self, content: Content) -> str:
        return status(content)

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
        kept = [season for season in model.seasons if season not in db.session.deleted]  # not those deleted now
        _no_repeats([season.order for season in kept], "сезона")
        for season in kept:
            _no_repeats([e.order for e in season.episodes if e not in db.session.deleted], "серии",
                        f" в сезоне «{season}»")
        _no_repeats([e.order for e in model.loose_episodes if e not in db.session.deleted], "серии")
        if model.seasons:
            model.has_multiple_episodes = True
        check_alternative_titles(model)
        park_renumbered(model)
        if "publish_at" in form:  # (the list's inline edit of one column has no schedule)
            scheduled = schedule(model, form)
            if scheduled:
                flash(scheduled, "info")

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


def park_renumbered(content: Content) -> None:
    """Seasons and episodes whose number changes (a swap, a drag that renumbers a season) are first moved out of the
    way, at numbers no row has (minus their id), so that the save's UPDATEs, one row at a time, never meet a number
    another row still holds: both databases check the unique (season, number) per row. Done with plain UPDATEs
    the ORM does not see: its UPDATEs then write the new numbers, and the trail records each change once, from the
    old number to the new."""
    session = db.session
    for model, rows in ((Season, content.seasons),
                        (Episode, [e for s in content.seasons for e in s.episodes] + list(content.loose_episodes))):
        moved = [row.id for row in rows if row.id is not None and inspect(row).persistent
                 and inspect(row).attrs.order.history.has_changes()]
        moved += [row.id for row in session.deleted if isinstance(row, model)]  # a deleted row's number is free
        if moved:
            with session.no_autoflush:
                session.connection().execute(model.__table__.update().where(model.__table__.c.id.in_(moved))
                                             .values(order=-model.__table__.c.id))


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


class CategoryView(OrderedViews, EditorModelView):
    """Categories; their order pages: a category's titles (group=<its id>) and the main mart's rows of a content
    type (group=mart-<type id>)."""

    column_list = ("title", "slug", "content_type", "parent", "position", "main_mart")
    column_searchable_list = ("title", "slug")
    column_filters = ("content_type", "main_mart")
    column_sortable_list = ("title", "position", "main_mart")
    column_default_sort = [("content_type_id", False), ("position", False)]
    form_columns = ("content_type", "parent", "title", "slug", "description", "position", "main_mart")
    column_extra_row_actions = [*EditorModelView.column_extra_row_actions, LinkRowAction(
        "fa fa-sort", lambda _action, row_id, _row: url_for(".order_view", group=row_id),
        title="Порядок тайтлов в категории")]
    order_heading = "Порядок: витрина и категории"
    list_template = "admin/ordered_list.html"

    def order_groups(self) -> list[OrderGroup]:
        types = db.session.execute(select(ContentType.id, ContentType.title).order_by(ContentType.position)).all()
        marts = [OrderGroup(f"mart-{type_id}", f"Витрина: {title}") for type_id, title in types]
        requested = request.values.get("group", "")
        if fits_integer_key(requested):
            category = db.session.get(Category, int(requested))
            if category is not None:
                marts.append(OrderGroup(requested, f"Тайтлы категории «{category.title}»", listed=False))
        return marts

    def order_rows(self, group: str) -> list[OrderRow]:
        if group.startswith("mart-"):
            return [OrderRow(category.id, category.title, category.parent.title if category.parent else "")
                    for category in self._mart(int(group[5:]))]
        now = clock.now()
        return [OrderRow(link.content_id, link.content.title,
                         " · ".join(str(part) for part in (link.content.year, publishing_word(link.content, now))
                                    if part))
                for link in self._links(int(group))]

    def keep_order(self, group: str, ids: list[int]) -> None:
        if group.startswith("mart-"):
            renumber(self._mart(int(group[5:])), ids)
        else:
            renumber(self._links(int(group)), ids, key=lambda link: link.content_id)

    def _mart(self, type_id: int) -> list[Category]:
        return list(db.session.scalars(select(Category).where(Category.main_mart, Category.content_type_id == type_id)
                                       .order_by(Category.position, Category.id)))

    def _links(self, category_id: int) -> list[ContentCategory]:
        return list(db.session.scalars(
            select(ContentCategory).join(Content, Content.id == ContentCategory.content_id)
            .where(ContentCategory.category_id == category_id)
            .order_by(ContentCategory.position, Content.id.desc())))  # the API's order (categories.py)


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
    form_widget_args = {"photo_url": {"data-picture-kind": "photos"}}

    def after_model_change(self, form: Any, model: Any, is_created: bool) -> None:
        reindex(db.session.scalars(select(ContentPerson.content_id).where(ContentPerson.person_id == model.id)))

