"""Contents, seasons and episodes as the player and the catalogue API see them (spec §3)."""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import Schema, fields, validate

from app.models.titles import TitleKind
from app.schemas.cards import LabelSchema, review_totals
from app.schemas.common import Id, Slug, Text
from app.schemas.lists import available_here
from app.schemas.paging import PageQuerySchema


class SlugSchema(Schema):
    slug = fields.Str(metadata={"example": "film"})


class LanguageRefSchema(Schema):
    code = fields.Str(metadata={"example": "ru"})


class PlayerContentSchema(Schema):
    """The spec §3 fields of a content that the player reads: the player page's context blob carries this dump (its
    first paint depends on the page's size: nothing else goes in), and ``GET /contents/{id}`` starts from it."""

    id = fields.Int(metadata={"example": 1})
    title = fields.Str(metadata={"example": "Долгая дорога домой"})
    has_multiple_episodes = fields.Bool(data_key="hasMultipleEpisodes", metadata={"example": False})
    poster_url = fields.Str(data_key="posterUrl", allow_none=True, metadata={"example": "/media/posters/film-long.jpg"})
    content_type = fields.Nested(SlugSchema, data_key="contentType")
    year = fields.Int(allow_none=True, metadata={"example": 2021})
    countries = fields.List(fields.Nested(SlugSchema), metadata={"example": [{"slug": "ru"}]})
    languages = fields.List(fields.Nested(LanguageRefSchema), metadata={"example": [{"code": "en"}, {"code": "ru"}]})
    kinopoisk_id = fields.Int(data_key="kinopoiskId", allow_none=True, metadata={"example": 1000001})
    imdb_id = fields.Str(data_key="imdbId", allow_none=True, metadata={"example": "tt0000001"})
    rating = fields.Method("dump_rating", metadata={"example": {
        "kinopoisk": {"value": 7.4}, "imdb": {"value": 7.1, "url": "https://www.imdb.com/title/tt0000001/"}}})

    def dump_rating(self, content: Any) -> dict[str, Any]:
        return {
            "kinopoisk": {"value": content.kinopoisk_rating},
            "imdb": {"value": content.imdb_rating, "url": content.imdb_url},
        }


class SubtitleRefSchema(Schema):
    code = fields.Str(required=True, metadata={"example": "en"})
    title = fields.Str(required=True, metadata={"example": "English"})


class CreditSchema(Schema):
    """A person in a content's credits."""

    id = fields.Int(required=True, attribute="person.id", metadata={"example": 2})
    slug = fields.Str(required=True, attribute="person.slug", metadata={"example": "ivan-petrov"})
    name = fields.Str(required=True, attribute="person.name", metadata={"example": "Иван Петров"})
    character = fields.Str(required=True, allow_none=True, metadata={"example": "Отец"})


class CreditGroupSchema(Schema):
    """The persons of one type (actors, directors…) in a content, in credits order."""

    type = fields.Nested(LabelSchema, required=True, metadata={"example": {"slug": "actor", "title": "Актёр"}})
    persons = fields.List(fields.Nested(CreditSchema), required=True)


class CreditGroups(fields.List):
    """A content's parts (``ContentPerson`` rows) grouped by person type: the types in their order, each one's
    persons in credits order."""

    def _serialize(self, value: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        groups: dict[int, tuple[Any, list[Any]]] = {}
        for part in sorted(value or (), key=lambda p: (p.position, p.id)):
            groups.setdefault(part.person_type_id, (part.person_type, []))[1].append(part)
        ordered = sorted(groups.values(), key=lambda group: (group[0].position, group[0].id))
        return super()._serialize([{"type": kind, "persons": parts} for kind, parts in ordered], attr, obj, **kwargs)


class LanguageLabelSchema(Schema):
    code = fields.Str(required=True, metadata={"example": "ru"})
    title = fields.Str(required=True, metadata={"example": "Русский"})


class CategoryCrumbSchema(Schema):
    id = fields.Int(required=True, metadata={"example": 2})
    slug = fields.Str(required=True, metadata={"example": "drama-films"})
    title = fields.Str(required=True, metadata={"example": "Драмы"})


class ContentCategorySchema(CategoryCrumbSchema):
    """A category a content is in, for breadcrumbs: its type (its list is ``/types/{type}/categories/{slug}/contents``)
    and its parents."""

    contentType = fields.Nested(LabelSchema, attribute="content_type", required=True,
                                metadata={"example": {"slug": "film", "title": "Фильм"}})
    parents = fields.List(fields.Nested(CategoryCrumbSchema), required=True, metadata={
        "description": "the categories above it, from the type's first level down; empty for a first-level one",
        "example": []})


SHOWN_TITLE_KINDS = [kind.value for kind in TitleKind if kind != TitleKind.MISSPELLING]  # that one: search only


class AlternativeTitleSchema(Schema):
    """Another name the content is known by («Также известен как»)."""

    title = fields.Str(required=True, metadata={"example": "The Long Way Home"})
    language = fields.Str(required=True, allow_none=True, metadata={
        "description": "its language, a BCP 47 primary tag; null when none is given", "example": "en"})
    kind = fields.Str(required=True, validate=validate.OneOf(SHOWN_TITLE_KINDS), metadata={
        "description": "international: the English or international title; original: in the film's own language; "
                       "former: a title it had before; other", "example": "international"})


class ContentDetailsSchema(Schema):
    """What ``GET /contents/{id}`` adds to the player's fields (apart in the snapshot: the page never carries it),
    and the labels it gives with their titles where the player's fields have their slugs or codes only."""

    slug = fields.Str(required=True, metadata={"example": "dolgaya-doroga-domoy"})
    originalTitle = fields.Str(attribute="original_title", required=True, allow_none=True,
                               metadata={"example": "The Long Way Home"})
    alternativeTitles = fields.List(fields.Nested(AlternativeTitleSchema), attribute="alternative_titles",
                                    required=True, metadata={
        "description": "the other names it is also known as, in the editors' order; empty when none (common "
                       "misspellings, which search finds it by, are not listed)",
        "example": [{"title": "The Long Road Home", "language": "en", "kind": "international"},
                    {"title": "Северная трасса", "language": "ru", "kind": "former"}]})
    description = fields.Str(required=True, metadata={
        "example": "Отец и сын едут через всю страну, чтобы успеть домой к зиме."})
    ageRating = fields.Int(attribute="age_rating", required=True, allow_none=True,
                           metadata={"example": 12, "description": "0, 6, 12, 16 or 18 (years)"})
    updatedAt = fields.AwareDateTime(attribute="updated_at", format="iso", required=True,
                                     metadata={"example": "2026-11-25T17:00:00+00:00"})
    reviews = review_totals()
    genres = fields.List(fields.Nested(LabelSchema), required=True, metadata={"example": [
        {"slug": "adventure", "title": "Приключения"}, {"slug": "drama", "title": "Драма"}]})
    tags = fields.List(fields.Nested(LabelSchema), required=True,
                       metadata={"example": [{"slug": "road-movie", "title": "Роуд-муви"}]})
    voiceAuthors = fields.List(fields.Nested(LabelSchema), attribute="voice_authors", required=True, metadata={
        "example": [{"slug": "dubliazh", "title": "Дубляж"}, {"slug": "original", "title": "Оригинал"}]})
    subtitles = fields.List(fields.Nested(SubtitleRefSchema), required=True, metadata={
        "example": [{"code": "en", "title": "English"}, {"code": "ru", "title": "Русский"}]})
    content_type = fields.Nested(LabelSchema, data_key="contentType", required=True,
                                 metadata={"example": {"slug": "film", "title": "Фильм"}})
    countries = fields.List(fields.Nested(LabelSchema), required=True,
                            metadata={"example": [{"slug": "ru", "title": "Россия"}]})
    languages = fields.List(fields.Nested(LanguageLabelSchema), required=True, metadata={
        "description": "its audio languages", "example": [{"code": "en", "title": "English"},
                                                          {"code": "ru", "title": "Русский"}]})
    categories = fields.List(fields.Nested(ContentCategorySchema), attribute="breadcrumbs", required=True, metadata={
        "example": [{"id": 2, "slug": "drama-films", "title": "Драмы",
                     "contentType": {"slug": "film", "title": "Фильм"}, "parents": []}]})
    runtime = fields.Int(required=True, allow_none=True, metadata={
        "description": "seconds: a film's length, a series' typical episode (the median of its episodes' durations); "
                       "null when no duration is known", "example": 1860})
    persons = CreditGroups(fields.Nested(CreditGroupSchema), required=True, metadata={"example": [
        {"type": {"slug": "director", "title": "Режиссёр"},
         "persons": [{"id": 1, "slug": "anna-morozova", "name": "Анна Морозова", "character": None}]},
        {"type": {"slug": "actor", "title": "Актёр"},
         "persons": [{"id": 2, "slug": "ivan-petrov", "name": "Иван Петров", "character": "Отец"}]}]})


class ContentSchema(ContentDetailsSchema, PlayerContentSchema):
    """A content as ``GET /contents/{id}`` (and its by-slug and Kinopoisk lookups) answer: the player's fields and
    the details (whose labels, with their titles, stand for the player's), and whether it plays for the caller."""

    playable = fields.Bool(required=True, metadata={
        "description": "whether it plays for the caller's country from the API: it has media, no rule blocks the "
                       "country, and it is not licensed to named sites only", "example": True})
    reason = fields.Str(required=True, allow_none=True, metadata={
        "description": "why it does not play: no_media, blocked_country or blocked_domain (it plays only in the "
                       "frames of the sites it is licensed to); null when it plays", "example": None})


class SeasonSchema(Schema):
    id = fields.Int(metadata={"example": 1})
    order = fields.Int(metadata={"example": 1})
    title = fields.Str(allow_none=True, metadata={"example": "Сезон 1"})


class SeasonRefSchema(Schema):
    id = fields.Int(metadata={"example": 1})
    order = fields.Int(metadata={"example": 1})


class EpisodeSchema(Schema):
    id = fields.Int(metadata={"example": 3})
    order = fields.Int(metadata={"example": 2})
    title = fields.Str(metadata={"example": "Шторм"})
    description = fields.Str(metadata={"example": "Шторм отрезает остров от большой земли."})
    duration = fields.Int(allow_none=True, metadata={"example": 2640})
    poster_path = fields.Str(data_key="posterPath", allow_none=True,
                             metadata={"example": "/media/posters/series-s1e2.jpg"})
    master_file_path = fields.Str(data_key="m3u8MasterFilePath", allow_none=True, metadata={
        "example": "/media/s/MavnMAFlLIphW4lrGG7-7g/1795642200/ru/titles/series-s1e2/master.json"})
    # Whether this viewer finished the episode; dump_episodes() fills it from the viewer's history.
    is_completed = fields.Bool(data_key="isCompleted", dump_default=False, metadata={"example": False})
    season = fields.Nested(SeasonRefSchema, allow_none=True)
    # The intro and the credits (issue 35, docs/video-player-markers.md): seconds from the start, null when not marked
    intro_start = fields.Float(data_key="introStart", allow_none=True, metadata={
        "example": 62.5, "description": "the intro's start, seconds (the player offers «Пропустить заставку» in it)"})
    intro_end = fields.Float(data_key="introEnd", allow_none=True, metadata={
        "example": 92.0, "description": "the intro's end, seconds: where «Пропустить заставку» goes"})
    credits_start = fields.Float(data_key="creditsStart", allow_none=True, metadata={
        "example": 2580.0, "description": "the end credits' start, seconds: the next-episode card shows from here"})


class AvailabilitySchema(Schema):
    available = fields.Bool(required=True, metadata={"example": True})


class EpisodesQuerySchema(Schema):
    content_id = Id(data_key="content-id", required=True, metadata={"example": 2})


class MostRelevantQuerySchema(PageQuerySchema):
    IN_QUERY: ClassVar[bool] = True

    content_type = Slug("film", 64, data_key="type", load_default=None,
                        metadata={"description": "a content type's slug: its contents only"})
    availableHere = available_here()


class AvailabilityQuerySchema(Schema):
    domain = Text(load_default=None, metadata={"description": "the embedding page's address or host",
                                               "example": "partner.example"})


EPISODES = EpisodeSchema(many=True)  # one instance: made per call, its nested schemas are made anew each time


def dump_episodes(episodes: list[Any], completed: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = EPISODES.dump(episodes)
    for row in rows:
        row["isCompleted"] = row["id"] in completed
    return rows
