"""The site around the player (spec §7): its menu, its redirects, the home page's promo slider."""

from __future__ import annotations

from flask_smorest import Blueprint

blp = Blueprint("site", __name__, description="The menu, redirects and the promo slider")
