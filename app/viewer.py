"""Who is watching, as far as the request tells: the viewer's country."""

from __future__ import annotations

from flask import current_app, request

from app.services.availability import normalise_country


def viewer_country() -> str | None:
    """COUNTRY_HEADER as a CDN or proxy set it (the demo's override parameter first, when enabled),
    else DEFAULT_COUNTRY."""
    config = current_app.config
    param = config["COUNTRY_QUERY_PARAM"]
    override = request.args.get(param) if param else None
    header = request.headers.get(config["COUNTRY_HEADER"])
    return normalise_country(override) or normalise_country(header) or normalise_country(config["DEFAULT_COUNTRY"])
