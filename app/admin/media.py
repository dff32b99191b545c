"""The media library in the admin (Каталог → Медиатека): every stored picture by kind, with its thumbnail, size and
where it is used; an upload by the poster's rule (app/services/editorial/media_library.py); a delete refused while the
picture is used; and the picker the forms' picture fields open (app/admin/static/media_library.js), which reads the
same list as JSON. Editors and administrators, like every admin view."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from flask import abort, current_app, flash, jsonify, redirect, request, send_file, url_for
from flask_admin import BaseView, expose
from werkzeug.datastructures import FileStorage
from wtforms import FileField, SelectField
from wtforms.validators import DataRequired

from app.admin.access import Guarded, signed_in
from app.admin.forms import EditorForm
from app.services.editorial.media_files import check_poster
from app.services.editorial.media_library import (
    KINDS,
    address_of,
    delete_picture,
    list_pictures,
    store_picture,
    thumbnail,
    uses,
)
from app.services.errors import DomainError, NotFound

log = logging.getLogger(__name__)
PAGE_SIZE = 60
PICKER_SIZE = 200
THUMB_CACHE_SECONDS = 365 * 24 * 3600  # a picture's name is the hash of its bytes: its thumbnail never changes
STALE_FORM = "Форма устарела: попробуйте ещё раз."


class UploadForm(EditorForm):
    kind = SelectField("Что это", choices=list(KINDS.items()), validators=[DataRequired()])
    picture = FileField("Картинка", description="JPEG, PNG или WebP, до 5 МБ.",
                        render_kw={"accept": "image/jpeg,image/png,image/webp"})


class DeleteForm(EditorForm):
    """Only its CSRF token: the picture is named by the form's kind and name."""


class MediaLibraryView(Guarded, BaseView):
    def _root(self) -> Path:
        return Path(current_app.config["MEDIA_ROOT"])

    def _media(self) -> str:
        return str(current_app.config["MEDIA_URL_PATH"])

    def _limit(self) -> int:
        return int(current_app.config["ADMIN_POSTER_BYTES"])

    @expose("/")
    def index(self) -> Any:
        kind = request.args.get("kind", "")
        kind = kind if kind in KINDS else ""
        asked = request.args.get("page", "0")
        page = int(asked) if asked.isdigit() and len(asked) < 7 else 0
        pictures = list_pictures(self._root(), self._media(), kind or None)
        pages = max((len(pictures) - 1) // PAGE_SIZE + 1, 1)
        page = min(page, pages - 1)
        shown = pictures[page * PAGE_SIZE:(page + 1) * PAGE_SIZE]
        form = UploadForm(kind=kind or None)
        form.picture.render_kw = {**form.picture.render_kw, "data-max-bytes": self._limit()}
        return self.render("admin/media_library.html", pictures=shown, uses=uses([p.address for p in shown]),
                           kinds=KINDS, kind=kind, page=page, pages=pages, total=len(pictures), form=form,
                           delete_form=DeleteForm())

    @expose("/upload", methods=("POST",))
    def upload(self) -> Any:
        form = UploadForm(request.form)
        form.picture.data = request.files.get("picture")
        if not form.validate():
            flash(STALE_FORM if form.csrf_token.errors else "Выберите, что это за картинка.", "error")
            return redirect(url_for(".index"))
        upload = form.picture.data
        if not isinstance(upload, FileStorage) or not upload.filename:
            flash("Выберите файл картинки.", "error")
            return redirect(url_for(".index", kind=form.kind.data))
        try:
            picture = check_poster(upload.read(self._limit() + 1), self._limit())
        except ValueError as problem:
            flash(f"Картинка не загружена: {problem}", "error")
            return redirect(url_for(".index", kind=form.kind.data))
        address = store_picture(picture, self._root(), self._media(), str(form.kind.data))
        log.info("a picture %s uploaded to the media library by account %s", address, _who())
        flash(f"Картинка загружена: {address}", "success")
        return redirect(url_for(".index", kind=form.kind.data))

    @expose("/delete", methods=("POST",))
    def delete(self) -> Any:
        kind, name = request.form.get("kind", ""), request.form.get("name", "")
        back = url_for(".index", kind=kind if kind in KINDS else None)
        if not DeleteForm(request.form).validate():
            flash(STALE_FORM, "error")
            return redirect(back)
        try:
            delete_picture(self._root(), self._media(), kind, name)
        except DomainError as refusal:
            flash(f"Картинка не удалена. {refusal.message}", "error")
            return redirect(back)
        log.info("a picture %s/%s deleted from the media library by account %s", kind, name, _who())
        flash(f"Картинка {address_of(self._media(), kind, name)} удалена.", "success")
        return redirect(back)

    @expose("/thumb/<kind>/<file>")
    def thumb(self, kind: str, file: str) -> Any:
        try:
            path = thumbnail(self._root(), kind, file)
        except NotFound:
            abort(404)  # the admin's own 404 page
        answer = send_file(path, mimetype="image/webp", max_age=THUMB_CACHE_SECONDS, conditional=True)
        answer.cache_control.private = True  # an editor's page: no shared cache keeps it
        answer.cache_control.immutable = True
        return answer

    @expose("/pick")
    def pick(self) -> Any:
        """The picker's list (JSON): the pictures of a kind, the newest first, each with its address and thumbnail."""
        kind = request.args.get("kind", "")
        pictures = list_pictures(self._root(), self._media(), kind if kind in KINDS else None)
        return jsonify({"total": len(pictures), "pictures": [
            {"address": picture.address, "name": picture.name, "kind": KINDS[picture.kind], "size": picture.size,
             "thumb": url_for(".thumb", kind=picture.kind, file=picture.name)}
            for picture in pictures[:PICKER_SIZE]]})


def library_thumb(address: str | None) -> str | None:
    """The library's thumbnail address for a picture address of the library (None for any other address)."""
    media = str(current_app.config["MEDIA_URL_PATH"]).rstrip("/") + "/"
    if not address or not address.startswith(media):
        return None
    parts = address[len(media):].split("/")
    if len(parts) != 2 or parts[0] not in KINDS:
        return None
    return url_for("media.thumb", kind=parts[0], file=parts[1])


def _who() -> int | None:
    account = signed_in()
    return account.id if account is not None else None
