"""The site around the player: the home page's promo slides, the menu (a tree), and redirects of old addresses."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.extensions import db
from app.models.moments import Moment

MAX_PATH = 1024


class PromoSlide(db.Model):  # type: ignore[name-defined]
    """A slide of the home page's slider: a content, its image, its place, and when it shows (either end open)."""

    __tablename__ = "promo_slides"

    id: Mapped[int] = mapped_column(primary_key=True)
    content_id: Mapped[int] = mapped_column(ForeignKey("contents.id", ondelete="CASCADE"), index=True)
    title: Mapped[str | None] = mapped_column(String(255))  # the content's title when empty
    image_url: Mapped[str] = mapped_column(String(1024))
    position: Mapped[int] = mapped_column(Integer, default=0)
    active_from: Mapped[datetime | None] = mapped_column(Moment())
    active_until: Mapped[datetime | None] = mapped_column(Moment())

    content = relationship("Content")


class MenuItem(db.Model):  # type: ignore[name-defined]
    """An entry of the site menu: a title and an address (a path of the site or an http(s) URL), under its parent; and
    the list it opens, when it opens one: a content type's (all its titles) or, with a category, that category's.
    A type or category deleted leaves the entry with its address and no list."""

    __tablename__ = "menu_items"

    id: Mapped[int] = mapped_column(primary_key=True)
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("menu_items.id", ondelete="CASCADE"), index=True)
    title: Mapped[str] = mapped_column(String(255))
    url: Mapped[str] = mapped_column(String(MAX_PATH))
    position: Mapped[int] = mapped_column(Integer, default=0)
    content_type_id: Mapped[int | None] = mapped_column(ForeignKey("content_types.id", ondelete="SET NULL"))
    category_id: Mapped[int | None] = mapped_column(ForeignKey("categories.id", ondelete="SET NULL"))

    children: Mapped[list[MenuItem]] = relationship(order_by="MenuItem.position", back_populates="parent")
    parent: Mapped[MenuItem | None] = relationship(remote_side=[id], back_populates="children")
    content_type = relationship("ContentType")
    category = relationship("Category")

    def __str__(self) -> str:
        return self.title


class Redirect(db.Model):  # type: ignore[name-defined]
    """An old path (an old slug's page) and where it lives now. The one from ``/`` is the site's main redirect (the
    home page moved: a new domain)."""

    __tablename__ = "redirects"
    __table_args__ = (CheckConstraint("status in (301, 302, 307, 308)", name="redirect_status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    from_path: Mapped[str] = mapped_column(String(MAX_PATH), unique=True)
    to_path: Mapped[str] = mapped_column(String(MAX_PATH))
    status: Mapped[int] = mapped_column(Integer, default=301)
