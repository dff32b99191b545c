// The viewer's language. Strings quoted exactly from the spec (§2, §8).
export const ru = {
  player: 'Видеоплеер',
  start: 'Смотреть',
  loading: 'Загрузка',
  seasonEpisode: 'Сезон {season}, серия {episode}. {title}',
  missingMovieId: 'Пропущен movie_id в запросе',
  loadError: 'Ошибка в загрузке: {address}',
  notAvailable: 'Контент не доступен',
  blocked:
    'Извините, данный контент недоступен в вашей стране. Если вы используете VPN, мы рекомендуем отключить его или сменить страну.',
  genericError: 'К сожалению, произошла ошибка, попробуйте перезагрузите страницу. Идентификатор ошибки: {id}',
  reload: 'Перезагрузить страницу',
} as const;

export type MessageKey = keyof typeof ru;
