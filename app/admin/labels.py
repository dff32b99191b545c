"""The Russian names of the fields editors see, one place for the forms, the lists and the audit trail's history."""

from __future__ import annotations

FIELDS = {
    "title": "Название", "original_title": "Оригинальное название", "slug": "Адрес (slug)",
    "description": "Описание", "age_rating": "Возрастная маркировка", "published": "Опубликован",
    "publish_at": "Опубликовать в", "unpublish_at": "Снять с публикации в",
    "position": "Порядок", "content_type": "Тип", "content_type_id": "Тип", "year": "Год",
    "has_multiple_episodes": "Несколько серий", "poster_url": "Постер", "kinopoisk_id": "ID Кинопоиска",
    "kinopoisk_rating": "Рейтинг Кинопоиска", "imdb_id": "ID IMDb", "imdb_rating": "Рейтинг IMDb",
    "created_at": "Добавлен", "updated_at": "Изменён", "countries": "Страны", "languages": "Языки",
    "subtitles": "Субтитры", "genres": "Жанры", "tags": "Теги", "voice_authors": "Озвучка",
    "seasons": "Сезоны", "episodes": "Серии", "loose_episodes": "Серия фильма (без сезона)",
    "availability_rules": "Правила доступности", "order": "Номер", "duration": "Длительность, с",
    "poster_path": "Кадр", "master_file_path": "Мастер-файл (JSON)",
    "intro_start": "Начало заставки, с", "intro_end": "Конец заставки, с", "credits_start": "Начало титров, с",
    "kind": "Правило", "value": "Значение",
    "season": "Сезон", "season_id": "Сезон", "content": "Фильм или сериал", "content_id": "Фильм или сериал",
    "parent": "Родитель", "parent_id": "Родитель", "children": "Вложенные", "main_mart": "На главной витрине",
    "name": "Имя", "original_name": "Имя в оригинале", "photo_url": "Фото", "code": "Код", "email": "Почта",
    "role": "Роль", "blocked_at": "Заблокирован", "confirmed_at": "Подтверждён", "image_url": "Картинка",
    "active_from": "Показывать с", "active_until": "Показывать до", "url": "Адрес", "from_path": "Старый адрес",
    "to_path": "Новый адрес", "status": "Код ответа", "person": "Персона", "person_type": "Роль в фильме",
    "character": "Персонаж", "category": "Категория", "category_links": "Категории", "categories": "Категории",
    "persons": "Участники", "password_hash": "Пароль", "visibility": "Кто видит", "items": "Фильмы и сериалы",
    "account_id": "Учётная запись", "playlist_id": "Подборка", "added_at": "Добавлен", "rating": "Оценка",
    "text": "Текст", "hidden_at": "Скрыта", "edited_at": "Изменена автором", "note": "Заметка редактора",
    "handled_at": "Рассмотрена", "handled_by_id": "Кем рассмотрена", "alternative_titles": "Другие названия",
    "language": "Язык",
}

# The tables the audit trail names, as editors call what they hold.
TABLES = {
    "contents": "Фильм или сериал", "seasons": "Сезон", "episodes": "Серия",
    "availability_rules": "Правило доступности",
    "content_types": "Тип", "categories": "Категория", "content_categories": "Место в категории", "genres": "Жанр",
    "tags": "Тег", "countries": "Страна", "languages": "Язык", "voice_authors": "Озвучка", "persons": "Персона",
    "person_types": "Роль персон", "content_persons": "Участие в фильме", "promo_slides": "Промо-слайд",
    "menu_items": "Пункт меню", "redirects": "Перенаправление", "accounts": "Учётная запись",
    "ad_creatives": "Рекламный ролик", "ad_media_files": "Файл ролика", "ad_placements": "Размещение рекламы",
    "playlists": "Подборка", "playlist_items": "Место в подборке", "reviews": "Рецензия", "abuse_reports": "Жалоба",
    "alternative_titles": "Другое название",
}
