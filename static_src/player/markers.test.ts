import { introSkipTo, nextCardDue } from './markers';

describe('introSkipTo', () => {
  const episode = { introStart: 30, introEnd: 60.5, creditsStart: null };

  it("is the intro's end while the playhead is inside the intro", () => {
    expect(introSkipTo(episode, 30)).toBe(60.5);
    expect(introSkipTo(episode, 45)).toBe(60.5);
    expect(introSkipTo(episode, 60.4)).toBe(60.5);
  });

  it('is null before and after it', () => {
    expect(introSkipTo(episode, 29.9)).toBeNull();
    expect(introSkipTo(episode, 60.5)).toBeNull();
    expect(introSkipTo(episode, 900)).toBeNull();
  });

  it('is null without both ends, for an intro that ends before it starts, and without an episode', () => {
    expect(introSkipTo({ introStart: 30 }, 40)).toBeNull();
    expect(introSkipTo({ introStart: null, introEnd: 60 }, 40)).toBeNull();
    expect(introSkipTo({ introStart: 60, introEnd: 30 }, 40)).toBeNull();
    expect(introSkipTo(null, 40)).toBeNull();
  });

  it('counts an intro at the very start', () => {
    expect(introSkipTo({ introStart: 0, introEnd: 20 }, 0)).toBe(20);
  });
});

describe('nextCardDue', () => {
  const at = (currentTime: number, phase: 'playing' | 'paused' | 'idle' | 'ended' = 'playing') => ({
    phase,
    currentTime,
    duration: 2700,
  });

  it('shows from the credits when the episode has them', () => {
    expect(nextCardDue(at(2399), 2400, 10)).toBe(false);
    expect(nextCardDue(at(2400), 2400, 10)).toBe(true);
    expect(nextCardDue(at(2500, 'paused'), 2400, 10)).toBe(true);
  });

  it('keeps the last seconds without credits, or with credits outside the episode', () => {
    for (const credits of [null, undefined, 0, 2700, 9000]) {
      expect(nextCardDue(at(2400), credits, 10)).toBe(false);
      expect(nextCardDue(at(2690), credits, 10)).toBe(true);
    }
  });

  it('shows at the end always, never before a start, nor for a short film without credits', () => {
    expect(nextCardDue(at(0, 'ended'), 2400, 10)).toBe(true);
    expect(nextCardDue(at(2600, 'idle'), 2400, 10)).toBe(false);
    expect(nextCardDue({ phase: 'playing', currentTime: 15, duration: 18 }, null, 10)).toBe(false);
    expect(nextCardDue({ phase: 'playing', currentTime: 12, duration: 18 }, 10, 10)).toBe(true);
  });
});
