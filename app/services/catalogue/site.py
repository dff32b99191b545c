"""The site around the player (spec §7 "Catalogue: other"): its menu, where old addresses now live, and the home
page's promo slider. Each is a fixed number of queries, whatever the size of the menu or the slider."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import exists, or_, select
from sqlalchemy.orm import joinedload

from app.clock import now
from app.extensions import db
from app.models import Category, Content, MenuItem, PromoSlide, Redirect
from app.services.catalogue.cards import CARD_OPTIONS
from app.services.catalogue.publishing import public
from app.services.catalogue.reach import PlaysHere, plays_here

MAIN_PATH = "/"  # the redirect from here is the site's main redirect (the home page moved)
MAX_SLIDES = 100  # a slider of more is an editor's slip, not a slider: the first ones by position are shown


def menu() -> list[dict[str, Any]]:
    """The menu as a tree of ``{title, url, list, children}``, each level in position order: one query for the whole
    tree (the types and categories its entries open joined in), built here. An entry whose parents never lead to the
    top (a loop an edit made) is not shown."""
    by_parent: dict[int | None, list[MenuItem]] = {}
    entries = (select(MenuItem).order_by(MenuItem.position, MenuItem.id)
               .options(joinedload(MenuItem.content_type),
                        joinedload(MenuItem.category).joinedload(Category.content_type)))
    for item in db.session.scalars(entries):
        by_parent.setdefault(item.parent_id, []).append(item)  # in position order, so every level is too
    roots: list[dict[str, Any]] = []
    pending: list[tuple[int | None, list[dict[str, Any]]]] = [(None, roots)]
    while pending:  # from the top down: each entry is reached once, through its parent, and a loop never
        parent_id, siblings = pending.pop()
        for item in by_parent.get(parent_id, ()):
            node: dict[str, Any] = {"title": item.title, "url": item.url, "list": opened_list(item), "children": []}
            siblings.append(node)
            pending.append((item.id, node["children"]))
    return roots


def opened_list(item: MenuItem) -> dict[str, str | None] | None:
    """The list an entry opens, by slugs: ``{type, category}`` (category None: all the type's titles, the list
    ``/contents?type=…``; else ``/types/{type}/categories/{category}/contents``); None when it opens none. A category
    is of its own type, whatever type the entry names beside it."""
    if item.category is not None:
        return {"type": item.category.content_type.slug, "category": item.category.slug}
    if item.content_type is not None:
        return {"type": item.content_type.slug, "category": None}
    return None


@dataclass(frozen=True)
class RedirectInfo:
    path: str  # as asked
    location: str | None  # where it lives now, with the asked query; None: it has not moved
    status: int | None  # 301, 302, 307 or 308


def normalised(path: str) -> str:
    """The path as redirects are matched: without a trailing slash (``/`` stays ``/``)."""
    return path.rstrip("/") or "/"


def _located(target: str, query: str, fragment: str) -> str:
    """``target`` with the asked query appended to its own (before its fragment), and the asked fragment unless it
    has one of its own."""
    target, has_fragment, own_fragment = target.partition("#")
    if query:
        target += ("&" if "?" in target else "?") + query
    fragment = own_fragment if has_fragment else fragment
    return f"{target}#{fragment}" if fragment else target


def redirect_info(path: str) -> RedirectInfo:
    """Where ``path`` (a site path, perhaps with a query and a fragment) now lives: the redirect whose old path is
    exactly its path, a trailing slash aside; its query goes on to the new address."""
    rest, _, fragment = path.partition("#")
    base, _, query = rest.partition("?")
    wanted = normalised(base)
    rows = db.session.scalars(select(Redirect).where(Redirect.from_path.in_((wanted, wanted + "/")))).all()
    found = min(rows, key=lambda row: row.from_path != wanted, default=None)  # the normalised one first
    if found is None:
        return RedirectInfo(path, None, None)
    return RedirectInfo(path, _located(found.to_path, query, fragment), found.status)


def main_redirect_info() -> RedirectInfo:
    return redirect_info(MAIN_PATH)


@dataclass(frozen=True)
class Slide:
    id: int
    title: str  # the slide's, else its content's
    image_url: str
    content: Content  # loaded for a card (app/schemas/cards.py)


def promo_slides(at: datetime | None = None, here: PlaysHere | None = None) -> list[Slide]:
    """The slides active at ``at`` (``active_from ≤ at < active_until``, either end open) of published contents
    (``here``: that play there), in position order: one query for the slides with their contents and types, one for
    the contents' genres."""
    moment = at or now()
    playing = [plays_here(here)] if here is not None else []
    query = (
        select(PromoSlide)
        # EXISTS, not a join: SQLite would otherwise start from the contents' published index (every title) and probe
        # the slides for each; this way it reads the few slides and looks each content up by its key.
        .where(exists().where(Content.id == PromoSlide.content_id, public(), *playing),
               or_(PromoSlide.active_from.is_(None), PromoSlide.active_from <= moment),
               or_(PromoSlide.active_until.is_(None), PromoSlide.active_until > moment))
        .order_by(PromoSlide.position, PromoSlide.id)
        .limit(MAX_SLIDES)
        .options(joinedload(PromoSlide.content).options(*CARD_OPTIONS))
    )
    return [Slide(slide.id, slide.title or slide.content.title, slide.image_url, slide.content)
            for slide in db.session.scalars(query)]
