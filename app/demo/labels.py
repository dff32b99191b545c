"""The synthetic catalogue's labels (``synthetic.py``): countries, genres, tags and categories, each list in order of
how common its entries are."""

from __future__ import annotations

COUNTRIES = {"ru": "Россия", "us": "США", "fr": "Франция", "gb": "Великобритания", "de": "Германия",
             "it": "Италия", "es": "Испания", "jp": "Япония", "kr": "Южная Корея", "cn": "Китай", "in": "Индия",
             "se": "Швеция", "no": "Норвегия", "dk": "Дания", "pl": "Польша", "tr": "Турция", "br": "Бразилия",
             "mx": "Мексика", "ca": "Канада", "au": "Австралия", "by": "Беларусь", "kz": "Казахстан",
             "fi": "Финляндия", "nl": "Нидерланды", "be": "Бельгия", "at": "Австрия", "ch": "Швейцария",
             "cz": "Чехия", "hu": "Венгрия", "ie": "Ирландия", "ar": "Аргентина", "nz": "Новая Зеландия",
             "ge": "Грузия", "am": "Армения", "il": "Израиль"}

# (slug, title, how common: about the percentage of titles with it); a title has one to three.
GENRES = (
    ("drama", "Драма", 30), ("comedy", "Комедия", 22), ("thriller", "Триллер", 12), ("detective", "Детектив", 9),
    ("melodrama", "Мелодрама", 9), ("action", "Боевик", 8), ("crime", "Криминал", 8),
    ("adventure", "Приключения", 7), ("sci-fi", "Фантастика", 6), ("family", "Семейный", 6), ("horror", "Ужасы", 5),
    ("fantasy", "Фэнтези", 4), ("cartoon", "Мультфильм", 4), ("history", "Исторический", 4), ("war", "Военный", 3.5),
    ("documentary", "Документальный", 3.5), ("biography", "Биография", 3), ("mystic", "Мистика", 3),
    ("psychological", "Психологический", 3), ("anime", "Аниме", 2), ("musical", "Мюзикл", 1.5),
    ("sport", "Спорт", 1.5), ("short", "Короткометражка", 1.5), ("noir", "Нуар", 1), ("western", "Вестерн", 1),
)

TAGS = (  # (slug, title), the commonest first
    ("based-on-book", "По книге"), ("true-story", "По реальным событиям"), ("love-story", "Про любовь"),
    ("festival", "Фестивальное кино"), ("friendship", "О дружбе"), ("family-secrets", "Семейные тайны"),
    ("small-town", "Маленький город"), ("big-city", "Большой город"), ("moscow", "Москва"), ("ussr", "СССР"),
    ("sea", "Море"), ("road-movie", "Роуд-муви"), ("ww2", "Вторая мировая"), ("police", "Полиция"),
    ("school", "Школа"), ("teenagers", "Подростки"), ("revenge", "Месть"), ("heist", "Ограбление"),
    ("serial-killer", "Маньяк"), ("mafia", "Мафия"), ("spies", "Шпионы"), ("survival", "Выживание"),
    ("petersburg", "Петербург"), ("village", "Деревня"), ("nineties", "90-е"), ("new-year", "Новый год"),
    ("wedding", "Свадьба"), ("divorce", "Развод"), ("childhood", "Детство"), ("animals", "Животные"),
    ("dogs", "Собаки"), ("space", "Космос"), ("time-travel", "Путешествия во времени"),
    ("post-apocalypse", "Постапокалипсис"), ("dystopia", "Антиутопия"), ("superheroes", "Супергерои"),
    ("comics", "По комиксам"), ("artificial-intelligence", "Искусственный интеллект"), ("robots", "Роботы"),
    ("aliens", "Инопланетяне"), ("disaster", "Катастрофа"), ("desert-island", "Необитаемый остров"),
    ("mountains", "Горы"), ("arctic", "Арктика"), ("siberia", "Сибирь"), ("caucasus", "Кавказ"),
    ("submarine", "Подводная лодка"), ("aviation", "Авиация"), ("prison", "Тюрьма"), ("courtroom", "Суд"),
    ("hospital", "Больница"), ("students", "Студенты"), ("middle-ages", "Средневековье"),
    ("antiquity", "Древний мир"), ("vikings", "Викинги"), ("pirates", "Пираты"), ("knights", "Рыцари"),
    ("samurai", "Самураи"), ("dragons", "Драконы"), ("magic", "Магия"), ("witches", "Ведьмы"),
    ("ghosts", "Призраки"), ("haunted-house", "Дом с привидениями"), ("vampires", "Вампиры"), ("zombies", "Зомби"),
    ("racing", "Гонки"), ("football", "Футбол"), ("hockey", "Хоккей"), ("boxing", "Бокс"), ("music", "Музыка"),
    ("dance", "Танцы"), ("cooking", "Кулинария"), ("fashion", "Мода"), ("journalism", "Журналистика"),
    ("politics", "Политика"), ("business", "Бизнес"), ("hackers", "Хакеры"), ("remake", "Ремейк"),
    ("sequel", "Продолжение"), ("cult", "Культовое кино"), ("black-and-white", "Чёрно-белое кино"),
    ("silent", "Немое кино"), ("arthouse", "Артхаус"), ("sitcom", "Ситком"), ("miniseries", "Мини-сериал"),
)

# Per content type, (slug, title, parent slug, on the main mart), the largest first: the demo's own slugs among them
# (app/demo/extras.py), which keep their titles and places. The sizes fall off as a long tail (synthetic.py).
CATEGORIES = {
    "film": (
        ("popular", "Популярное", None, True), ("new", "Новинки", None, True), ("drama-films", "Драмы", None, True),
        ("comedies", "Комедии", None, False), ("top-rated", "С высоким рейтингом", None, True),
        ("classics", "Классика", None, False), ("russian", "Российское кино", None, False),
        ("family-films", "Для всей семьи", None, False), ("thrillers", "Триллеры", None, False),
        ("soviet", "Советское кино", "classics", False), ("action-films", "Боевики", None, False),
        ("detectives", "Детективы", None, False), ("melodramas", "Мелодрамы", None, False),
        ("sci-fi-films", "Фантастика", None, False), ("horror-films", "Ужасы", None, False),
        ("adventures", "Приключения", None, False), ("cartoons", "Мультфильмы", None, False),
        ("war-films", "Фильмы о войне", None, False), ("based-on-books", "Экранизации", None, False),
        ("true-stories", "По реальным событиям", None, False), ("festival-films", "Фестивальное кино", None, False),
        ("new-year", "Новогодние фильмы", None, False),
        ("romantic-comedies", "Романтические комедии", "comedies", False),
        ("documentaries", "Документальные фильмы", None, False), ("biopics", "Биографии", None, False),
        ("crime-films", "Криминал", None, False), ("fantasy-films", "Фэнтези", None, False),
        ("anime-films", "Аниме", "cartoons", False), ("musicals", "Мюзиклы", None, False),
        ("sport-films", "Спорт", None, False), ("cult", "Культовое кино", "classics", False),
        ("oscar", "Оскар", "festival-films", False), ("cannes", "Каннский фестиваль", "festival-films", False),
        ("eighties", "Кино 80-х", "classics", False), ("nineties", "Кино 90-х", "classics", False),
        ("noir", "Нуар", None, False), ("westerns", "Вестерны", None, False), ("arthouse", "Артхаус", None, False),
        ("short-films", "Короткий метр", None, False), ("silent", "Немое кино", "classics", False),
    ),
    "series": (
        ("popular", "Популярные сериалы", None, True), ("new", "Новые сериалы", None, True),
        ("detective-series", "Детективные сериалы", None, False), ("russian-series", "Российские сериалы", None, False),
        ("top-rated", "С высоким рейтингом", None, True), ("comedy-series", "Комедийные сериалы", None, False),
        ("drama-series", "Драматические сериалы", None, False), ("crime-series", "Криминальные сериалы", None, False),
        ("foreign-series", "Зарубежные сериалы", None, False), ("melodrama-series", "Мелодрамы", None, False),
        ("thriller-series", "Триллеры", None, False), ("sci-fi-series", "Фантастические сериалы", None, False),
        ("miniseries", "Мини-сериалы", None, False), ("sitcoms", "Ситкомы", "comedy-series", False),
        ("family-series", "Семейные сериалы", None, False), ("historical-series", "Исторические сериалы", None, False),
        ("war-series", "Военные сериалы", None, False), ("mystic-series", "Мистика", None, False),
        ("turkish-series", "Турецкие сериалы", "foreign-series", False),
        ("korean-series", "Корейские дорамы", "foreign-series", False),
        ("british-series", "Британские сериалы", "foreign-series", False),
        ("animated-series", "Мультсериалы", None, False), ("anime-series", "Аниме", "animated-series", False),
        ("documentary-series", "Документальные сериалы", None, False),
        ("medical-series", "Медицинские сериалы", None, False), ("police-series", "Про полицию", None, False),
        ("teen-series", "Подростковые сериалы", None, False), ("fantasy-series", "Фэнтези", None, False),
        ("horror-series", "Ужасы", None, False), ("soviet-series", "Советские сериалы", None, False),
        ("sport-series", "Спорт", None, False), ("based-on-books", "Экранизации", None, False),
    ),
}
