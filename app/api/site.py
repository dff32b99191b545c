"""The site around the player (spec §7): its menu, redirects, the home page's promo slider. Anonymous, shared reads
(app/http/shared.py): kept under the catalogue's generation and labelled for CDNs."""

from __future__ import annotations

from typing import Any

from app.api.arguments import Blueprint
from app.api.decorators import shared_read
from app.http.shared import share
from app.http.viewer import viewer_country
from app.schemas.site import (
    MenuItemSchema,
    PromoQuerySchema,
    PromoSlideSchema,
    RedirectInfoSchema,
    RedirectQuerySchema,
)
from app.services.catalogue.reach import PlaysHere
from app.services.catalogue.site import main_redirect_info, menu, promo_slides, redirect_info

blp = Blueprint("site", __name__, description="The menu, redirects and the promo slider")


@blp.route("/menu")
@shared_read(blp, MenuItemSchema(many=True))
def get_menu() -> Any:
    """The site menu: a tree of entries, each level in order."""
    share()
    return menu()


@blp.route("/redirect-info")
@blp.arguments(RedirectQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, RedirectInfoSchema, 422)
def get_redirect_info(path: str) -> Any:
    """Where an old path now lives: the redirect whose old path is exactly ``path``'s (a trailing slash aside), with
    ``path``'s query appended to the new address; location and status null when it has not moved."""
    share()
    return redirect_info(path)


@blp.route("/main-redirect-info")
@shared_read(blp, RedirectInfoSchema)
def get_main_redirect_info() -> Any:
    """The site's main redirect (of ``/``: the home page moved), as ``GET /redirect-info``; nulls when there is none."""
    share()
    return main_redirect_info()


@blp.route("/contents/slider-promo")
@blp.arguments(PromoQuerySchema, location="query", as_kwargs=True)
@shared_read(blp, PromoSlideSchema(many=True), 422)
def get_slider_promo(available_here: bool = False) -> Any:
    """The promo slides active now, of published contents (``availableHere``: that play for the viewer's country),
    in order. Kept like every shared read: a slide starts or ends within ``SHARED_CACHE_SECONDS`` of its time."""
    share()
    return promo_slides(here=PlaysHere(viewer_country()) if available_here else None)
