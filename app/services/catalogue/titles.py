"""The rules of a content's alternative titles (app/models/titles.py), whoever gives them (the admin, an import): a
title is not empty, fits its column, and is neither the content's own title nor another alternative of it once case,
ё and spacing are set aside (search reads them so: a second spelling that differs only there finds nothing more); a
language is a BCP 47 primary tag, two or three Latin letters, stored in lower case."""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.models.titles import MAX_TITLE

LANGUAGE = re.compile(r"[a-z]{2,3}")
EMPTY = "Другое название не может быть пустым: впишите его или удалите строку."
TOO_LONG = f"Другое название длиннее {MAX_TITLE} знаков."
BAD_LANGUAGE = "Язык названия: код из двух-трёх латинских букв (en, ko, fr) или пусто."
OWN_TITLE = "Другое название «{title}» совпадает с названием фильма или сериала."
REPEATED = "Другое название «{title}» указано дважды."


def same_title_key(title: str) -> str:
    """What two titles are compared by: lower case, ё as е, spaces collapsed."""
    return " ".join(title.casefold().replace("ё", "е").split())


def cleaned_title(title: str | None) -> str:
    return " ".join((title or "").split())


def cleaned_language(language: str | None) -> str | None:
    return (language or "").strip().lower() or None


def title_problem(title: str | None) -> str | None:
    """One title's problem, in Russian; None when there is none."""
    text = cleaned_title(title)
    if not text:
        return EMPTY
    if len(text) > MAX_TITLE:
        return TOO_LONG
    return None


def language_problem(language: str | None) -> str | None:
    code = cleaned_language(language)
    return None if code is None or LANGUAGE.fullmatch(code) else BAD_LANGUAGE


def titles_problem(own_title: str | None, titles: Iterable[str | None]) -> str | None:
    """The first problem of a content's alternative ``titles`` beside its ``own_title``, in Russian; None when
    there is none."""
    own = same_title_key(own_title or "")
    seen: set[str] = set()
    for title in titles:
        problem = title_problem(title)
        if problem:
            return problem
        text = cleaned_title(title)
        key = same_title_key(text)
        if key == own:
            return OWN_TITLE.format(title=text)
        if key in seen:
            return REPEATED.format(title=text)
        seen.add(key)
    return None
