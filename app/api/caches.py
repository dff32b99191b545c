"""The named caches (spec §7 "Caches"; app/caching.py): their sizes, and clearing them, for administrators. A clear
makes the cache's entries unreachable in every process at once (a new epoch) and then deletes them; what is asked next
is made again, once per entry (single flight)."""

from __future__ import annotations

from typing import Any

from app.api.arguments import Blueprint
from app.api.decorators import require_role
from app.api.docs import answers, never_stored
from app.caching import NAMED_CACHES, store
from app.models import Role
from app.schemas.caches import CachesSchema
from app.services.errors import NotFound

blp = Blueprint("caches", __name__, description="Named caches: sizes and clearing (administrators)")
NAME = {"in": "path", "name": "name", "required": True, "description": "a named cache", "example": "responses",
        "schema": {"type": "string", "enum": list(NAMED_CACHES)}}


never_stored(blp)


def _sizes() -> dict[str, Any]:
    return {"caches": store().sizes()}


@blp.route("/caches")
@require_role(blp, Role.ADMIN)
@blp.response(200, CachesSchema)
@answers(blp, 401, 403)
def get_caches() -> Any:
    """The named caches and how many entries each holds."""
    return _sizes()


@blp.route("/caches", methods=["DELETE"])
@require_role(blp, Role.ADMIN)
@blp.response(200, CachesSchema)
@answers(blp, 401, 403)
def clear_caches() -> Any:
    """Clears every named cache; answers with their sizes after."""
    for name in NAMED_CACHES:
        store().clear(name)
    return _sizes()


@blp.route("/caches/<name>", methods=["DELETE"], parameters=[NAME])
@require_role(blp, Role.ADMIN)
@blp.response(200, CachesSchema)
@answers(blp, 401, 403, 404)
def clear_cache(name: str) -> Any:
    """Clears one named cache (an unknown name is a 404); answers with every cache's size after."""
    if name not in NAMED_CACHES:
        raise NotFound("cache_not_found", "Нет такого кэша", {"name": name, "caches": list(NAMED_CACHES)})
    store().clear(name)
    return _sizes()
