"""The server's viewer-facing strings, quoted exactly from the spec (§2, §8). The front end has its own dictionary."""

MISSING_MOVIE_ID = "Пропущен movie_id в запросе"
CONTENT_NOT_AVAILABLE = "Контент не доступен"
BLOCKED_IN_COUNTRY = (
    "Извините, данный контент недоступен в вашей стране. "
    "Если вы используете VPN, мы рекомендуем отключить его или сменить страну."
)
GENERIC_ERROR = "К сожалению, произошла ошибка, попробуйте перезагрузите страницу."
ERROR_ID_LABEL = "Идентификатор ошибки:"
RELOAD_PAGE = "Перезагрузить страницу"
START_PLAYBACK = "Смотреть"
NO_SCRIPT = "Для просмотра включите JavaScript в браузере."
