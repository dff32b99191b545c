"""The admin for editors (Flask-Admin, in Russian through Flask-Babel): the catalogue, the site, the accounts, and the
audit trail of every change made here. ``init_admin`` builds a new Admin with new views for each application (a view
is bound to one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, current_app, request
from flask_admin import Admin, AdminIndexView, expose
from flask_admin.theme import Bootstrap4Theme
from flask_babel import Babel
from sqlalchemy import func, select

from app.admin import access, audit
from app.admin.accounts import AccountView, role_label
from app.admin.ads import AdCreativeView, AdPlacementView, AdTrackingHitView
from app.admin.audit import AuditView
from app.admin.catalogue import (
    CategoryView,
    ContentTypeView,
    ContentView,
    CountryView,
    LabelView,
    LanguageView,
    PersonTypeView,
    PersonView,
)
from app.admin.imports import CatalogueImportView
from app.admin.jobs import JobsView
from app.admin.media import MediaLibraryView
from app.admin.moderation import AbuseQueueView, AbuseReportView, ReviewView
from app.admin.moments import shown
from app.admin.operations import OperationsView
from app.admin.playlists import EditorialPlaylistView
from app.admin.site import MenuItemView, PromoSlideView, RedirectView
from app.admin.uploads import VideoUploadView, episode_jobs
from app.extensions import db
from app.models import (
    AbuseReport,
    Account,
    AdCreative,
    AdPlacement,
    AdTrackingHit,
    AuditEntry,
    Category,
    Content,
    ContentType,
    Country,
    Episode,
    Genre,
    Language,
    MenuItem,
    Person,
    PersonType,
    Playlist,
    PromoSlide,
    Redirect,
    Review,
    Tag,
    VoiceAuthor,
)

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"  # ours, before Flask-Admin's own
FILES = Path(__file__).resolve().parent / "static"  # the admin's own style and script, beside Flask-Admin's
CATALOGUE = "Каталог"
LABELS = "Справочники"
SITE = "Сайт"
ADS = "Реклама"
MANAGEMENT = "Управление"
MODERATION = "Модерация"


class IndexView(access.Guarded, AdminIndexView):
    def is_visible(self) -> bool:
        return False  # the brand ("Редакция") leads here; the menu fits one line at 1024 px

    @expose("/")
    def index(self) -> Any:
        counted = ((Content, "Фильмы и сериалы", "content.index_view"), (Episode, "Серии", None),
                   (Category, "Категории", "category.index_view"))
        summary = [(title, db.session.scalar(select(func.count()).select_from(model)), endpoint)
                   for model, title, endpoint in counted]
        summary.append(("Изменения в журнале", audit.readable_count(), "audit.index_view"))  # those this role reads
        return self.render("admin/dashboard.html", summary=summary)


ADMIN_FORM_PARTS = 20_000  # a long series' page: ~8 fields per episode, hundreds of episodes


def body_limits() -> None:
    """An admin form may be larger than an API call (MAX_REQUEST_BYTES): a series' page, an upload."""
    if request.path.startswith("/admin/"):
        request.max_content_length = int(current_app.config["ADMIN_MAX_REQUEST_BYTES"])
        request.max_form_memory_size = int(current_app.config["ADMIN_MAX_REQUEST_BYTES"])
        request.max_form_parts = ADMIN_FORM_PARTS


def init_admin(app: Flask) -> Admin:
    app.before_request(body_limits)
    app.jinja_env.globals["episode_jobs"] = episode_jobs  # an episode's row says its job (app/admin/uploads.py)
    app.register_blueprint(Blueprint("editorial_files", __name__, static_folder=str(FILES),
                                     static_url_path="/admin/files"))
    Babel(app, locale_selector=lambda: "ru", timezone_selector=lambda: "UTC")
    admin = Admin(app, name="Редакция", url="/admin", theme=Bootstrap4Theme(base_template="admin/editorial_base.html"),
                  index_view=IndexView(name="Главная", url="/admin"), translations_path=str(TRANSLATIONS))
    session = db
    for view in (
        ContentView(Content, session, name="Фильмы и сериалы", category=CATALOGUE, endpoint="content"),
        CategoryView(Category, session, name="Категории", category=CATALOGUE, endpoint="category"),
        ContentTypeView(ContentType, session, name="Типы", category=CATALOGUE, endpoint="content_type"),
        MediaLibraryView(name="Медиатека", category=CATALOGUE, endpoint="media", url="/admin/media"),
        CatalogueImportView(name="Импорт каталога", category=CATALOGUE, endpoint="catalogue_import",
                            url="/admin/import"),
        JobsView(name="Задачи", category=CATALOGUE, endpoint="jobs", url="/admin/jobs"),
        VideoUploadView(name="Загрузка видео", endpoint="video_upload", url="/admin/uploads"),
        LabelView(Genre, session, name="Жанры", category=LABELS, endpoint="genre"),
        LabelView(Tag, session, name="Теги", category=LABELS, endpoint="tag"),
        CountryView(Country, session, name="Страны", category=LABELS, endpoint="country"),
        LanguageView(Language, session, name="Языки", category=LABELS, endpoint="language"),
        LabelView(VoiceAuthor, session, name="Озвучка", category=LABELS, endpoint="voice_author"),
        PersonView(Person, session, name="Персоны", category=LABELS, endpoint="person"),
        PersonTypeView(PersonType, session, name="Роли персон", category=LABELS, endpoint="person_type"),
        PromoSlideView(PromoSlide, session, name="Промо-слайды", category=SITE, endpoint="promo_slide"),
        MenuItemView(MenuItem, session, name="Меню", category=SITE, endpoint="menu_item"),
        RedirectView(Redirect, session, name="Перенаправления", category=SITE, endpoint="redirect"),
        EditorialPlaylistView(Playlist, session, name="Подборки", category=SITE, endpoint="playlist"),
        AdCreativeView(AdCreative, session, name="Ролики", category=ADS, endpoint="ad_creative"),
        AdPlacementView(AdPlacement, session, name="Размещения", category=ADS, endpoint="ad_placement"),
        AdTrackingHitView(AdTrackingHit, session, name="События показов", category=ADS, endpoint="ad_hit"),
        AbuseQueueView(AbuseReport, session, name="Жалобы: очередь", category=MODERATION, endpoint="abuse_queue"),
        AbuseReportView(AbuseReport, session, name="Жалобы: все", category=MODERATION, endpoint="abuse_report"),
        ReviewView(Review, session, name="Рецензии", category=MODERATION, endpoint="review"),
        AccountView(Account, session, name="Учётные записи", category=MANAGEMENT, endpoint="account"),
        AuditView(AuditEntry, session, name="Журнал изменений", category=MANAGEMENT, endpoint="audit"),
        OperationsView(name="Обслуживание", category=MANAGEMENT, endpoint="operations", url="/admin/operations"),
        access.SignInView(name="Вход", url="/admin/session", endpoint="sign_in"),
    ):
        admin.add_view(view)
    app.jinja_env.globals.update(admin_signed_in=access.signed_in, admin_sign_out_form=access.sign_out_form,
                                 admin_role_label=role_label, admin_time=shown)
    audit.listen()
    return admin
