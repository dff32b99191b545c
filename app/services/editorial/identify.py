"""Identify (issue 31): a title's metadata fetched by its IMDb or Kinopoisk id from a provider, for the editor to accept
field by field (app/admin/identify.py). Nothing here writes: ``lookup`` returns what the provider says, as the
fields of a content; ``Proposal.accept`` sets the fields chosen.

A provider says which ids it reads (``reads``) and answers ``find``; the first configured provider that reads an id
the title has is asked. TMDB is the first (its API v3: ``/find/{imdb_id}?external_source=imdb_id``, then the film's or
series' details, ``language=ru-RU``); it reads IMDb ids only. Every request has a timeout; a network error, a timeout
or an answer that is not TMDB's shape is ``ProviderFailed`` with a Russian message, and nothing is changed."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import requests
from sqlalchemy import func, select

from app.extensions import db
from app.models import Content, Country, Genre
from app.services.errors import DomainError

IMDB, KINOPOISK = "imdb", "kinopoisk"
FIELD_NAMES = {"title": "Название", "original_title": "Оригинальное название", "description": "Описание",
               "year": "Год", "genres": "Жанры", "countries": "Страны", "poster_url": "Постер", "imdb_id": "IMDb id"}
MAX_ANSWER_BYTES = 2_000_000


class ProviderFailed(DomainError):
    """The provider could not be asked or gave no usable answer; nothing was changed."""


@dataclass(frozen=True)
class Found:
    """What a provider says of a title, as a content's fields (genres by name, countries by ISO code)."""

    provider: str
    values: dict[str, Any]


class Provider(Protocol):
    name: str
    reads: frozenset[str]

    def find(self, kind: str, external_id: str) -> Found | None:
        """The title with this id, or None when the provider has none."""


@dataclass
class TmdbProvider:
    base_url: str
    api_key: str
    image_url: str = "https://image.tmdb.org/t/p/w500"
    timeout: float = 5.0
    name: str = "TMDB"
    reads: frozenset[str] = frozenset({IMDB})

    def find(self, kind: str, external_id: str) -> Found | None:
        found = self._get(f"/find/{external_id}", external_source="imdb_id")
        for results, path in (("movie_results", "movie"), ("tv_results", "tv")):
            hits = found.get(results)
            if isinstance(hits, list) and hits and isinstance(hits[0], dict) and isinstance(hits[0].get("id"), int):
                return Found(self.name, self._details(path, hits[0]["id"], external_id))
        return None

    def _details(self, path: str, tmdb_id: int, imdb_id: str) -> dict[str, Any]:
        details = self._get(f"/{path}/{tmdb_id}", language="ru-RU")
        film = path == "movie"
        date = _text(details.get("release_date" if film else "first_air_date"))
        year = int(date[:4]) if date[:4].isdigit() else None
        countries = ([_text(c.get("iso_3166_1")) for c in _dicts(details.get("production_countries"))] if film
                     else [_text(code) for code in details.get("origin_country") or [] if isinstance(code, str)])
        poster = _text(details.get("poster_path"))
        values = {"title": _text(details.get("title" if film else "name"))[:255],
                  "original_title": _text(details.get("original_title" if film else "original_name"))[:255],
                  "description": _text(details.get("overview")), "year": year,
                  "genres": [_text(g.get("name")) for g in _dicts(details.get("genres")) if g.get("name")],
                  "countries": [code.lower() for code in countries if len(code) == 2],
                  "poster_url": f"{self.image_url.rstrip('/')}/{poster.lstrip('/')}" if poster else "",
                  "imdb_id": imdb_id}
        return {name: value for name, value in values.items() if value not in ("", None, [])}

    def _get(self, path: str, **params: str) -> dict[str, Any]:
        headers = {"Accept": "application/json"}
        if self.api_key.startswith("eyJ"):  # a v4 read token: a bearer; a v3 key goes as api_key
            headers["Authorization"] = f"Bearer {self.api_key}"
        else:
            params["api_key"] = self.api_key
        try:
            with requests.get(f"{self.base_url.rstrip('/')}{path}", params=params, headers=headers,
                              timeout=self.timeout, stream=True) as answer:
                body = answer.raw.read(MAX_ANSWER_BYTES + 1, decode_content=True)
                status = answer.status_code
        except requests.Timeout:
            raise ProviderFailed("provider_timeout", f"{self.name} не ответил вовремя: попробуйте позже.") from None
        except requests.RequestException:
            raise ProviderFailed("provider_unreachable", f"Не удалось связаться с {self.name}: проверьте сеть "
                                 "или попробуйте позже.") from None
        if status == 401:
            raise ProviderFailed("provider_key", f"{self.name} не принял ключ API: проверьте настройки.")
        if status == 404:
            return {}
        if status != 200 or len(body) > MAX_ANSWER_BYTES:
            raise ProviderFailed("provider_error", f"{self.name} ответил ошибкой ({status}): попробуйте позже.")
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise ProviderFailed("provider_shape", f"{self.name} ответил не так, как ожидалось: попробуйте позже.")
        return data


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


@dataclass
class Proposal:
    """The provider's values beside the content's, field by field: (name, label, current, fetched, differs)."""

    provider: str
    rows: list[tuple[str, str, str, str, bool]] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)  # genres or countries the catalogue has no entry for


def lookup(content: Content, providers: Sequence[Provider]) -> Proposal:
    ids = {IMDB: (content.imdb_id or "").strip(), KINOPOISK: str(content.kinopoisk_id or "")}
    for provider in providers:
        for kind in (IMDB, KINOPOISK):
            if ids[kind] and kind in provider.reads:
                found = provider.find(kind, ids[kind])
                if found is None:
                    raise ProviderFailed("not_found", f"{provider.name} не знает тайтл с id {ids[kind]}.")
                return _proposal(content, found)
    if not providers:
        raise ProviderFailed("no_provider", "Поиск данных не настроен: нет ключа API поставщика (TMDB_API_KEY).")
    if not ids[IMDB] and not ids[KINOPOISK]:
        raise ProviderFailed("no_id", "Укажите id IMDb или Кинопоиска и сохраните запись, потом ищите.")
    names = ", ".join(p.name for p in providers)
    raise ProviderFailed("no_reader", f"{names} ищет только по id IMDb: укажите его (tt…) и сохраните запись.")


def _proposal(content: Content, found: Found) -> Proposal:
    proposal = Proposal(found.provider)
    for name, value in found.values.items():
        shown = value
        if name == "genres":
            value, missing = _known(Genre, func.lower(Genre.title), [v.lower() for v in value])
            shown = ", ".join(found.values[name])
            proposal.unknown += [f"жанр «{g}»" for g in missing]
        elif name == "countries":
            value, missing = _known(Country, Country.slug, value)
            shown = ", ".join(c.title for c in value) or ", ".join(found.values[name])
            proposal.unknown += [f"страна «{c}»" for c in missing]
        current = getattr(content, name)
        current_shown = ", ".join(str(item) for item in current) if isinstance(current, list) else (
            "" if current is None else str(current))
        proposal.values[name] = value
        proposal.rows.append((name, FIELD_NAMES[name], current_shown, str(shown), current_shown != str(shown)))
    return proposal


def _known(model: Any, key: Any, wanted: list[str]) -> tuple[list[Any], list[str]]:
    rows: list[Any] = list(db.session.scalars(select(model).where(key.in_(wanted)))) if wanted else []
    place = {name: index for index, name in enumerate(wanted)}  # in the provider's order

    def names(row: Any) -> tuple[str, str]:
        return str(getattr(row, "slug", "")).lower(), row.title.lower()

    rows.sort(key=lambda row: min(place.get(name, len(wanted)) for name in names(row)))
    have = {name for row in rows for name in names(row)}
    return rows, [w for w in wanted if w not in have]


def accept(content: Content, proposal: Proposal, chosen: Sequence[str]) -> list[str]:
    """Sets the fields ``chosen`` (of those proposed) on ``content``; returns their names. The caller's save records
    them in the audit trail like any form's."""
    applied = []
    for name in chosen:
        if name in proposal.values and name in FIELD_NAMES:
            value = proposal.values[name]
            setattr(content, name, list(value) if isinstance(value, list) else value)
            applied.append(name)
    db.session.flush()
    return applied

