"""What the demo catalogue holds, as data.

The seeder (``seed.py``) writes these rows with fixed ids, so that the docs (docs/demo.md) and the tests can name them;
the media generator (``media.py``) encodes one HLS title per ``media`` slug below. Durations are whole
multiples of ``SEGMENT_SECONDS`` so every title ends on a segment boundary.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SEGMENT_SECONDS = 4


@dataclass(frozen=True)
class DemoTitle:
    """One playable title: an HLS ladder with its master JSON under ``titles/<slug>/``."""

    slug: str
    duration: int  # seconds, a multiple of SEGMENT_SECONDS
    voices: tuple[str, ...] = ("Дубляж",)  # one master JSON source per voice author, the first is the default


@dataclass(frozen=True)
class DemoEpisode:
    id: int
    order: int
    title: str
    media: str | None  # a DemoTitle slug; None for a media file that was never uploaded
    season: int | None = None  # season order; None for a film's single episode
    description: str = ""


@dataclass(frozen=True)
class DemoContent:
    id: int
    title: str
    type: str  # content type slug: film or series
    year: int
    countries: tuple[str, ...]
    languages: tuple[str, ...]
    kinopoisk_id: int
    kinopoisk_rating: float
    imdb_id: str
    imdb_rating: float
    episodes: tuple[DemoEpisode, ...]
    blocked_countries: tuple[str, ...] = ()
    allowed_domains: tuple[str, ...] = ()
    seasons: tuple[int, ...] = field(default=())


TITLES: tuple[DemoTitle, ...] = (
    DemoTitle("film-long", 1860, voices=("Дубляж", "Оригинал")),
    DemoTitle("series-s1e1", 52, voices=("Дубляж", "Оригинал")),
    DemoTitle("series-s1e2", 60, voices=("Дубляж", "Оригинал")),
    DemoTitle("series-s1e3", 68, voices=("Дубляж", "Оригинал")),
    DemoTitle("series-s2e1", 76, voices=("Дубляж", "Оригинал")),
    DemoTitle("series-s2e2", 84, voices=("Дубляж", "Оригинал")),
    DemoTitle("series-s2e3", 92, voices=("Дубляж", "Оригинал")),
    DemoTitle("film-short", 120),
    DemoTitle("film-partner", 120),  # its own folder: a signed address reaches one title's files (app/http/media.py)
)

TITLE_BY_SLUG = {title.slug: title for title in TITLES}

CONTENTS: tuple[DemoContent, ...] = (
    DemoContent(
        id=1, title="Долгая дорога домой", type="film", year=2021,
        countries=("ru",), languages=("ru", "en"),
        kinopoisk_id=1000001, kinopoisk_rating=7.4, imdb_id="tt0000001", imdb_rating=7.1,
        episodes=(DemoEpisode(1, 1, "Долгая дорога домой", "film-long",
                              description="Фильм длиннее получаса: здесь показывается мид-ролл."),),
    ),
    DemoContent(
        id=2, title="Тихая гавань", type="series", year=2023,
        countries=("ru",), languages=("ru", "en"),
        kinopoisk_id=1000002, kinopoisk_rating=8.2, imdb_id="tt0000002", imdb_rating=7.9,
        seasons=(1, 2),
        episodes=(
            DemoEpisode(2, 1, "Прибытие", "series-s1e1", season=1),
            DemoEpisode(3, 2, "Шторм", "series-s1e2", season=1),
            DemoEpisode(4, 3, "Маяк", "series-s1e3", season=1),
            DemoEpisode(5, 1, "Возвращение", "series-s2e1", season=2),
            DemoEpisode(6, 2, "Туман", "series-s2e2", season=2),
            DemoEpisode(7, 3, "Рассвет", "series-s2e3", season=2),
        ),
    ),
    DemoContent(
        id=3, title="Закрытый показ", type="film", year=2019,
        countries=("fr",), languages=("fr",),
        kinopoisk_id=1000003, kinopoisk_rating=6.8, imdb_id="tt0000003", imdb_rating=6.5,
        blocked_countries=("ru",),
        episodes=(DemoEpisode(8, 1, "Закрытый показ", "film-short"),),
    ),
    DemoContent(
        id=4, title="Потерянная плёнка", type="film", year=2018,
        countries=("ru",), languages=("ru",),
        kinopoisk_id=1000004, kinopoisk_rating=5.9, imdb_id="tt0000004", imdb_rating=5.5,
        episodes=(DemoEpisode(9, 1, "Потерянная плёнка", None,
                              description="Файл этого фильма так и не загрузили: путь ошибки."),),
    ),
    DemoContent(
        id=5, title="Только для партнёров", type="film", year=2022,
        countries=("ru",), languages=("ru",),
        kinopoisk_id=1000005, kinopoisk_rating=7.0, imdb_id="tt0000005", imdb_rating=6.9,
        allowed_domains=("partner.example",),
        episodes=(DemoEpisode(10, 1, "Только для партнёров", "film-partner"),),
    ),
)
