"""The demo catalogue's labels and site data beside its five titles (``catalogue.py``): genres, tags, persons, voice
authors, subtitles, categories (a tree per type, some on the home page's showcase), promo slides, the menu and a
redirect. Fixed slugs, so that the docs (docs/demo.md) and the tests can name them."""

from __future__ import annotations

from dataclasses import dataclass

GENRES = {"drama": "Драма", "thriller": "Триллер", "comedy": "Комедия", "adventure": "Приключения",
          "detective": "Детектив"}
TAGS = {"sea": "Море", "road-movie": "Роуд-муви", "festival": "Фестивальное кино", "based-on-book": "По книге"}
VOICE_AUTHORS = {"dubliazh": "Дубляж", "original": "Оригинал"}  # the labels of the demo's master JSON sources
PERSON_TYPES = (("director", "Режиссёр"), ("actor", "Актёр"), ("writer", "Сценарист"))


@dataclass(frozen=True)
class DemoLabels:
    """What labels a demo content (by id): its slug, original title, description, age mark and labels."""

    slug: str
    original_title: str
    description: str
    age_rating: int
    genres: tuple[str, ...]
    tags: tuple[str, ...] = ()
    voices: tuple[str, ...] = ("dubliazh",)
    subtitles: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()


LABELS: dict[int, DemoLabels] = {
    1: DemoLabels("dolgaya-doroga-domoy", "The Long Way Home",
                  "Отец и сын едут через всю страну, чтобы успеть домой к зиме.", 12, ("drama", "adventure"),
                  ("road-movie",), ("dubliazh", "original"), ("ru", "en"), ("new", "drama-films")),
    2: DemoLabels("tikhaya-gavan", "Quiet Harbour",
                  "В рыбацком посёлке на севере пропадает смотритель маяка.", 16, ("drama", "detective"),
                  ("sea", "based-on-book"), ("dubliazh", "original"), ("ru", "en"), ("new", "detective-series")),
    3: DemoLabels("zakrytyy-pokaz", "Private Screening",
                  "Фестивальная драма, которую не показывают в России.", 18, ("drama", "thriller"),
                  ("festival",), categories=("drama-films",)),
    4: DemoLabels("poteryannaya-plenka", "The Lost Reel", "Фильм, файл которого так и не загрузили.", 12,
                  ("thriller",), categories=("drama-films",)),
    5: DemoLabels("tolko-dlya-partnerov", "Partners Only", "Комедия, которую показывают только у партнёров.", 6,
                  ("comedy",), categories=("comedies",)),
}

# Other names (app/models/titles.py) by content id: (title, language or None, kind), in their order on the page
ALTERNATIVE_TITLES: dict[int, tuple[tuple[str, str | None, str], ...]] = {
    1: (("The Long Road Home", "en", "international"), ("Северная трасса", "ru", "former")),
    2: (("Silent Harbor", "en", "international"),),
    3: (("Huis clos", "fr", "original"), ("Закрытый паказ", "ru", "misspelling")),  # the last: searched, not shown
}

# (type, slug, title, parent slug, on the main mart)
CATEGORIES = (
    ("film", "new", "Новинки", None, True),
    ("film", "drama-films", "Драмы", None, True),
    ("film", "comedies", "Комедии", None, False),
    ("series", "new", "Новые сериалы", None, True),
    ("series", "detective-series", "Детективные сериалы", None, False),
)

# (person slug, name, original name, [(content id, person type slug, character)])
PERSONS = (
    ("anna-morozova", "Анна Морозова", "Anna Morozova", ((1, "director", None), (2, "writer", None))),
    ("ivan-petrov", "Иван Петров", "Ivan Petrov", ((1, "actor", "Отец"), (2, "actor", "Смотритель маяка"))),
    ("olga-belova", "Ольга Белова", "Olga Belova", ((2, "actor", "Следователь"), (5, "actor", "Мария"))),
    ("pierre-laurent", "Пьер Лоран", "Pierre Laurent", ((3, "director", None),)),
)

PROMO_SLIDES = ((2, "Новый сезон «Тихой гавани»"), (1, None))  # (content id, title or the content's)
# (title, site path, the list it opens: (type slug, category slug or None), children as entries without children)
MENU = (("Фильмы", "/films", ("film", None), (("Новинки", "/films/new", ("film", "new")),
                                              ("Драмы", "/films/drama-films", ("film", "drama-films")))),
        ("Сериалы", "/series", ("series", None), ()))
REDIRECTS = (("/film/1-dolgaya-doroga", "/films/dolgaya-doroga-domoy", 301),)
