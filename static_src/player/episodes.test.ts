import type { EpisodeData } from '../context';
import { episodesOfSeason, nextEpisode, seasonOf, sortEpisodes } from './episodes';

function episode(id: number, order: number, season: { id: number; order: number } | null): EpisodeData {
  return {
    id,
    order,
    title: `Episode ${id}`,
    description: '',
    duration: null,
    posterPath: null,
    m3u8MasterFilePath: null,
    isCompleted: false,
    season,
  };
}

const S1 = { id: 501, order: 1 };
const S2 = { id: 402, order: 2 }; // a smaller id than season 1: the order counts, not the id
const S10 = { id: 300, order: 10 }; // numeric, not string, order

// Deliberately shuffled.
const EPISODES = [
  episode(23, 3, S2),
  episode(11, 1, S1),
  episode(101, 1, S10),
  episode(21, 1, S2),
  episode(13, 10, S1),
  episode(12, 2, S1),
  episode(22, 2, S2),
];
const ids = (list: EpisodeData[]) => list.map((e) => e.id);

describe('sortEpisodes', () => {
  it('sorts by season order, then episode order (numerically)', () => {
    expect(ids(sortEpisodes(EPISODES))).toEqual([11, 12, 13, 21, 22, 23, 101]);
  });

  it('puts episodes without a season (films) first, by their order', () => {
    const list = [episode(11, 1, S1), episode(2, 2, null), episode(1, 1, null), episode(0, 0, { id: 9, order: 0 })];
    expect(ids(sortEpisodes(list))).toEqual([1, 2, 0, 11]);
  });

  it('keeps the original order of equal keys (stable)', () => {
    const list = [episode(3, 1, S1), episode(1, 1, S1), episode(2, 1, { id: 999, order: 1 })];
    expect(ids(sortEpisodes(list))).toEqual([3, 1, 2]);
  });

  it('never mutates the input', () => {
    const list = [...EPISODES];
    const sorted = sortEpisodes(list);
    expect(list).toEqual(EPISODES);
    expect(sorted).not.toBe(list);
  });

  it('handles an empty list', () => {
    expect(sortEpisodes([])).toEqual([]);
  });
});

describe('nextEpisode', () => {
  it('returns the next episode in sorted order, crossing into the next season', () => {
    expect(nextEpisode(EPISODES, 11)?.id).toBe(12);
    expect(nextEpisode(EPISODES, 13)?.id).toBe(21);
    expect(nextEpisode(EPISODES, 23)?.id).toBe(101);
  });

  it('returns null after the last episode', () => {
    expect(nextEpisode(EPISODES, 101)).toBeNull();
  });

  it('returns null for an unknown or absent current episode', () => {
    expect(nextEpisode(EPISODES, 999)).toBeNull();
    expect(nextEpisode(EPISODES, null)).toBeNull();
    expect(nextEpisode([], 11)).toBeNull();
  });

  it('returns null for a single film', () => {
    expect(nextEpisode([episode(1, 1, null)], 1)).toBeNull();
  });
});

describe('episodesOfSeason', () => {
  it("returns one season's episodes, sorted", () => {
    expect(ids(episodesOfSeason(EPISODES, S2.id))).toEqual([21, 22, 23]);
    expect(ids(episodesOfSeason(EPISODES, S1.id))).toEqual([11, 12, 13]);
  });

  it('returns the episodes without a season for null', () => {
    const list = [episode(11, 1, S1), episode(2, 2, null), episode(1, 1, null)];
    expect(ids(episodesOfSeason(list, null))).toEqual([1, 2]);
    expect(episodesOfSeason(EPISODES, null)).toEqual([]);
  });

  it('returns nothing for an unknown season', () => {
    expect(episodesOfSeason(EPISODES, 12345)).toEqual([]);
  });

  it('matches the season id, not its order', () => {
    expect(episodesOfSeason(EPISODES, 1)).toEqual([]);
  });
});

describe('seasonOf', () => {
  it('returns the season id of an episode', () => {
    expect(seasonOf(EPISODES, 22)).toBe(S2.id);
    expect(seasonOf(EPISODES, 101)).toBe(S10.id);
  });

  it('returns null for an episode without a season, an unknown one, or none', () => {
    expect(seasonOf([episode(1, 1, null)], 1)).toBeNull();
    expect(seasonOf(EPISODES, 999)).toBeNull();
    expect(seasonOf(EPISODES, null)).toBeNull();
  });
});
