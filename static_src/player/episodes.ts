// Episode order and lookups (spec §4: "episodes sorted by season order, then episode order").
import type { EpisodeData } from '../context';

const seasonRank = (episode: EpisodeData): number => (episode.season ? episode.season.order : -Infinity);

/** Spec §4: by season order, then episode order; episodes without a season (films) first; stable, a new array. */
export function sortEpisodes(episodes: readonly EpisodeData[]): EpisodeData[] {
  return [...episodes].sort((a, b) => {
    const ra = seasonRank(a);
    const rb = seasonRank(b);
    if (ra !== rb) return ra < rb ? -1 : 1;
    return a.order - b.order;
  });
}

/** Spec §4 next-episode card: the episode after `currentId` in sorted order; null at the end or if unknown. */
export function nextEpisode(episodes: readonly EpisodeData[], currentId: number | null): EpisodeData | null {
  if (currentId === null) return null;
  const sorted = sortEpisodes(episodes);
  const at = sorted.findIndex((episode) => episode.id === currentId);
  return at < 0 ? null : (sorted[at + 1] ?? null);
}

/** Spec §2 episodes menu: the episodes of one season, sorted; `null` → the episodes without a season. */
export function episodesOfSeason(episodes: readonly EpisodeData[], seasonId: number | null): EpisodeData[] {
  return sortEpisodes(episodes.filter((episode) => (episode.season?.id ?? null) === seasonId));
}

/** Spec §3 (episode.season.id): the season id of that episode; null without one or when it is unknown. */
export function seasonOf(episodes: readonly EpisodeData[], episodeId: number | null): number | null {
  if (episodeId === null) return null;
  return episodes.find((episode) => episode.id === episodeId)?.season?.id ?? null;
}
