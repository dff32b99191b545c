import { DEFAULTS, STORAGE_KEYS } from './defaults';

const isNumber = (value: unknown): value is number => typeof value === 'number';

/** A Storage whose every method throws, as in a browser that blocks or has filled its storage. */
function throwingStorage(error: unknown = new DOMException('The quota has been exceeded.', 'QuotaExceededError')) {
  const fail = () => {
    throw error;
  };
  return {
    getItem: jest.fn(fail),
    setItem: jest.fn(fail),
    removeItem: jest.fn(fail),
    clear: jest.fn(fail),
    key: jest.fn(fail),
    length: 0,
  } satisfies Storage;
}

let warn: jest.SpyInstance;

let persist: typeof import('./storage'); // the module under test

beforeEach(async () => {
  window.localStorage.clear();
  jest.resetModules(); // a fresh module each time, as on a page load: no failure logged yet
  persist = await import('./storage');
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  warn.mockRestore();
});

describe('readJson', () => {
  it("reads JSON from the window's localStorage by default", () => {
    window.localStorage.setItem('k', '42');
    expect(persist.readJson('k', 0, isNumber)).toBe(42);
  });

  it('returns the fallback, silently, for a missing key', () => {
    expect(persist.readJson('missing', 7, isNumber)).toBe(7);
    expect(warn).not.toHaveBeenCalled();
  });

  it('returns the fallback, with a warning, for invalid JSON', () => {
    window.localStorage.setItem('k', '{not json');
    expect(persist.readJson('k', 7, isNumber)).toBe(7);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('returns the fallback for a value that fails isValid', () => {
    window.localStorage.setItem('k', '"42"');
    expect(persist.readJson('k', 7, isNumber)).toBe(7);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('uses the storage it is given', () => {
    const storage = { getItem: jest.fn(() => '5') } as unknown as Storage;
    window.localStorage.setItem('k', '42');
    expect(persist.readJson('k', 0, isNumber, storage)).toBe(5);
    expect(storage.getItem).toHaveBeenCalledWith('k');
  });

  it('returns the fallback when the storage is absent (null)', () => {
    window.localStorage.setItem('k', '42');
    expect(persist.readJson('k', 7, isNumber, null)).toBe(7);
  });

  it('returns the fallback, and warns once, when getItem throws', () => {
    const storage = throwingStorage(new DOMException('denied', 'SecurityError'));
    expect(persist.readJson('a', 1, isNumber, storage)).toBe(1);
    expect(persist.readJson('b', 2, isNumber, storage)).toBe(2);
    expect(storage.getItem).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('survives window.localStorage itself throwing (cookies blocked)', () => {
    const getter = jest.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    try {
      expect(persist.readJson('k', 3, isNumber)).toBe(3);
      expect(persist.writeJson('k', 4)).toBe(false);
      expect(getter).toHaveBeenCalled();
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      getter.mockRestore();
    }
  });

  it('looks window.localStorage up at each call, not once at import', () => {
    const getter = jest.spyOn(window, 'localStorage', 'get');
    try {
      persist.readJson('k', 0, isNumber);
      persist.readJson('k', 0, isNumber);
      expect(getter).toHaveBeenCalledTimes(2);
    } finally {
      getter.mockRestore();
    }
  });
});

describe('writeJson', () => {
  it('stores the value as JSON and returns true', () => {
    expect(persist.writeJson('k', { a: [1, 'x'] })).toBe(true);
    expect(window.localStorage.getItem('k')).toBe('{"a":[1,"x"]}');
  });

  it('returns false, warning once per kind of failure, when setItem throws', () => {
    const storage = throwingStorage();
    expect(persist.writeJson('a', 1, storage)).toBe(false);
    expect(persist.writeJson('b', 2, storage)).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);

    expect(persist.readJson('a', 0, isNumber, storage)).toBe(0); // another kind: logged too
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('returns false for a value JSON cannot represent', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(persist.writeJson('k', circular)).toBe(false);
    expect(persist.writeJson('k', undefined)).toBe(false);
    expect(persist.writeJson('k', 10n)).toBe(false);
    expect(window.localStorage.getItem('k')).toBeNull();
  });

  it('returns false when the storage is absent', () => {
    expect(persist.writeJson('k', 1, null)).toBe(false);
  });
});

describe('volume', () => {
  it('defaults to DEFAULTS.defaultVolume', () => {
    expect(persist.loadVolume()).toBe(DEFAULTS.defaultVolume);
  });

  it('round-trips under the player-volume key', () => {
    expect(persist.saveVolume(0.35)).toBe(true);
    expect(window.localStorage.getItem(STORAGE_KEYS.volume)).toBe('0.35');
    expect(persist.loadVolume()).toBe(0.35);
  });

  it('keeps 0 (not the default)', () => {
    persist.saveVolume(0);
    expect(persist.loadVolume()).toBe(0);
  });

  it.each([
    ['1.5', 1],
    ['-0.2', 0],
  ])('clamps a stored %p to %p', (stored, volume) => {
    window.localStorage.setItem(STORAGE_KEYS.volume, stored);
    expect(persist.loadVolume()).toBe(volume);
  });

  it.each(['1e999', '-1e999', '"0.5"', 'null', 'true', 'NaN', 'garbage'])(
    'reads %p as the default',
    (stored) => {
      window.localStorage.setItem(STORAGE_KEYS.volume, stored);
      expect(persist.loadVolume()).toBe(DEFAULTS.defaultVolume);
    },
  );

  it('clamps when saving and ignores a non-finite volume', () => {
    persist.saveVolume(3);
    expect(window.localStorage.getItem(STORAGE_KEYS.volume)).toBe('1');
    persist.saveVolume(-1);
    expect(window.localStorage.getItem(STORAGE_KEYS.volume)).toBe('0');
    expect(persist.saveVolume(NaN)).toBe(false);
    expect(persist.saveVolume(Infinity)).toBe(false);
    expect(window.localStorage.getItem(STORAGE_KEYS.volume)).toBe('0');
  });

  it('never throws with a broken storage', () => {
    const storage = throwingStorage();
    expect(persist.loadVolume(storage)).toBe(DEFAULTS.defaultVolume);
    expect(persist.saveVolume(0.5, storage)).toBe(false);
  });
});

describe('muted', () => {
  it('defaults to DEFAULTS.defaultMuted', () => {
    expect(persist.loadMuted()).toBe(DEFAULTS.defaultMuted);
  });

  it('round-trips both values under the player-muted key', () => {
    persist.saveMuted(true);
    expect(window.localStorage.getItem(STORAGE_KEYS.muted)).toBe('true');
    expect(persist.loadMuted()).toBe(true);
    persist.saveMuted(false);
    expect(persist.loadMuted()).toBe(false);
  });

  it.each(['1', '"true"', 'null', '{}'])('reads %p as the default', (stored) => {
    window.localStorage.setItem(STORAGE_KEYS.muted, stored);
    expect(persist.loadMuted()).toBe(DEFAULTS.defaultMuted);
  });

  it('never throws with a broken storage', () => {
    expect(persist.loadMuted(throwingStorage())).toBe(DEFAULTS.defaultMuted);
    expect(persist.saveMuted(true, throwingStorage())).toBe(false);
  });
});

describe('favorite audio', () => {
  it('is null when nothing is saved', () => {
    expect(persist.loadFavoriteAudio(12)).toBeNull();
  });

  it('saves per content id under favoriteAudioTracks, keeping the other entries', () => {
    window.localStorage.setItem(STORAGE_KEYS.favoriteAudio, JSON.stringify({ 7: 'Оригинал', 9: 'LostFilm' }));

    persist.saveFavoriteAudio(12, 'Дубляж');
    persist.saveFavoriteAudio(7, 'Кубик в кубе');

    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.favoriteAudio) ?? '')).toEqual({
      7: 'Кубик в кубе',
      9: 'LostFilm',
      12: 'Дубляж',
    });
    expect(persist.loadFavoriteAudio(12)).toBe('Дубляж');
    expect(persist.loadFavoriteAudio(7)).toBe('Кубик в кубе');
    expect(persist.loadFavoriteAudio(9)).toBe('LostFilm');
    expect(persist.loadFavoriteAudio(8)).toBeNull();
  });

  it('ignores entries that are not non-empty strings', () => {
    window.localStorage.setItem(STORAGE_KEYS.favoriteAudio, JSON.stringify({ 1: 5, 2: null, 3: ' ', 4: ['x'] }));
    expect([1, 2, 3, 4].map((id) => persist.loadFavoriteAudio(id))).toEqual([null, null, null, null]);
  });

  it.each(['["Дубляж"]', '"Дубляж"', 'null', '{oops'])('replaces a stored %p that is not a map', (stored) => {
    window.localStorage.setItem(STORAGE_KEYS.favoriteAudio, stored);
    expect(persist.loadFavoriteAudio(0)).toBeNull();
    expect(persist.saveFavoriteAudio(5, 'Дубляж')).toBe(true);
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.favoriteAudio) ?? '')).toEqual({ 5: 'Дубляж' });
  });

  it('does not read inherited properties', () => {
    expect(persist.loadFavoriteAudio('toString' as unknown as number)).toBeNull();
  });

  it('never throws with a broken storage', () => {
    expect(persist.loadFavoriteAudio(1, throwingStorage())).toBeNull();
    expect(persist.saveFavoriteAudio(1, 'x', throwingStorage())).toBe(false);
  });
});

describe('progress', () => {
  it('is null when nothing is saved', () => {
    expect(persist.loadProgress(3)).toBeNull();
  });

  it('saves whole seconds per episode under episodesTimeProgress, keeping the other entries', () => {
    window.localStorage.setItem(STORAGE_KEYS.progress, JSON.stringify({ 1: 100 }));

    expect(persist.saveProgress(2, 61.9)).toBe(true);
    persist.saveProgress(3, 0);

    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.progress) ?? '')).toEqual({ 1: 100, 2: 61, 3: 0 });
    expect(persist.loadProgress(1)).toBe(100);
    expect(persist.loadProgress(2)).toBe(61);
    expect(persist.loadProgress(3)).toBe(0);
  });

  it('overwrites the entry of the same episode', () => {
    persist.saveProgress(2, 10);
    persist.saveProgress(2, 20);
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.progress) ?? '')).toEqual({ 2: 20 });
  });

  it.each([NaN, Infinity, -Infinity, -1])('ignores %p seconds', (seconds) => {
    persist.saveProgress(2, 10);
    expect(persist.saveProgress(2, seconds)).toBe(false);
    expect(persist.loadProgress(2)).toBe(10);
  });

  it('reads a stored fraction as whole seconds and a bad entry as null', () => {
    window.localStorage.setItem(STORAGE_KEYS.progress, JSON.stringify({ 1: 12.7, 2: '30', 3: -4, 4: null }));
    expect([1, 2, 3, 4].map((id) => persist.loadProgress(id))).toEqual([12, null, null, null]);
  });

  it('replaces a stored value that is not a map', () => {
    window.localStorage.setItem(STORAGE_KEYS.progress, '[1,2,3]');
    expect(persist.loadProgress(1)).toBeNull();
    persist.saveProgress(1, 5);
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.progress) ?? '')).toEqual({ 1: 5 });
  });

  it('never throws with a broken storage', () => {
    expect(persist.loadProgress(1, throwingStorage())).toBeNull();
    expect(persist.saveProgress(1, 5, throwingStorage())).toBe(false);
  });
});
