import type { MessageKey } from './ru';

export const en: Record<MessageKey, string> = {
  player: 'Video player',
  start: 'Play',
  loading: 'Loading',
  seasonEpisode: 'Season {season}, episode {episode}. {title}',
  missingMovieId: 'movie_id is missing from the request',
  loadError: 'Failed to load: {address}',
  notAvailable: 'Content is not available',
  blocked: 'Sorry, this content is not available in your country. If you use a VPN, turn it off or change the country.',
  genericError: 'Sorry, something went wrong, try reloading the page. Error id: {id}',
  reload: 'Reload the page',
};
