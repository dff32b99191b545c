import { chooseAudioTrack, isAc3, normalizeLanguage, orderAudioTracks, type AudioCandidate } from './audio';

interface Track extends AudioCandidate {
  id: string;
}

const track = (id: string, language: string, codec: string | null = 'mp4a.40.2', label = id): Track => ({
  id,
  label,
  language,
  codec,
});
const ids = (tracks: Track[]) => tracks.map((t) => t.id);

describe('normalizeLanguage', () => {
  it.each([
    ['ru', 'ru'],
    ['RU', 'ru'],
    ['ru-RU', 'ru'],
    ['en_US', 'en'],
    [' rus ', 'ru'],
    ['eng', 'en'],
    ['ukr', 'uk'],
    ['ger', 'de'],
    ['deu', 'de'],
    ['xyz', 'xyz'],
    ['', ''],
  ])('%p → %p', (code, normalized) => {
    expect(normalizeLanguage(code)).toBe(normalized);
  });

  it('does not map names inherited from Object.prototype', () => {
    expect(normalizeLanguage('constructor')).toBe('constructor');
  });
});

describe('isAc3', () => {
  it.each(['ac-3', 'ec-3', 'AC-3', 'EC-3', ' ac-3 ', 'ac3', 'eac3', 'mp4a.a5', 'mp4a.A6', 'mp4a.40.2,ac-3'])(
    'codec %p is AC3',
    (codec) => {
      expect(isAc3({ label: 'Дубляж', language: 'ru', codec })).toBe(true);
    },
  );

  it.each([null, '', 'mp4a.40.2', 'mp4a.40.5', 'opus', 'flac', 'ac-4', 'mp4a.a50'])('codec %p is not AC3', (codec) => {
    expect(isAc3({ label: 'Дубляж', language: 'ru', codec })).toBe(false);
  });

  it.each([
    'Дубляж AC3',
    'Дубляж (AC-3 5.1)',
    'Original [E-AC3]',
    'eac3 atmos',
    'ac3',
    'Дубляж, Dolby Digital 5.1',
    'dolby  digital plus',
    'Многоголосый/AC3',
  ])('label %p marks AC3 when the codec is unknown', (label) => {
    expect(isAc3({ label, language: 'ru', codec: null })).toBe(true);
  });

  it.each(['TRAC3', 'AC35', 'Дубляж', 'Dolby Atmos', 'AAC', 'ac-4', 'Дубляжac3'])('label %p is not AC3', (label) => {
    expect(isAc3({ label, language: 'ru', codec: 'mp4a.40.2' })).toBe(false);
  });
});

describe('orderAudioTracks', () => {
  it('puts preferred languages first, in preference order, then the rest in their order (AC3 kept)', () => {
    const tracks = [
      track('de', 'de'),
      track('en1', 'en'),
      track('ac3', 'fr', 'ac-3'),
      track('ru1', 'ru'),
      track('en2', 'en-GB'),
      track('ru2', 'rus'),
    ];

    expect(ids(orderAudioTracks(tracks, ['ru', 'en']))).toEqual(['ru1', 'ru2', 'en1', 'en2', 'de', 'ac3']);
  });

  it('matches case-insensitively, by primary subtag and by the common three-letter codes', () => {
    const tracks = [track('a', 'ENG'), track('b', 'uk-UA'), track('c', 'RU-ru'), track('d', 'ukr')];

    expect(ids(orderAudioTracks(tracks, ['ru', 'uk']))).toEqual(['c', 'b', 'd', 'a']);
    expect(ids(orderAudioTracks(tracks, ['RUS', 'en-US']))).toEqual(['c', 'a', 'b', 'd']);
  });

  it('keeps a preferred AC3 track', () => {
    const tracks = [track('aac', 'en'), track('ac3', 'ru', 'ac-3')];
    expect(ids(orderAudioTracks(tracks, ['ru']))).toEqual(['ac3', 'aac']);
  });

  it('ignores repeated and empty preferred codes', () => {
    const tracks = [track('en', 'en'), track('ru', 'ru')];
    expect(ids(orderAudioTracks(tracks, ['', 'ru', 'RU', 'en', 'ru']))).toEqual(['ru', 'en']);
  });

  it('drops AC3 tracks when no preferred language matches', () => {
    const tracks = [track('a', 'ru', 'ac-3'), track('b', 'ru'), track('c', 'en', null, 'Original AC3'), track('d', 'en')];

    expect(ids(orderAudioTracks(tracks, ['de']))).toEqual(['b', 'd']);
  });

  it('drops AC3 tracks when there are no preferred codes', () => {
    const tracks = [track('a', 'ru', 'ec-3'), track('b', 'ru')];
    expect(ids(orderAudioTracks(tracks, []))).toEqual(['b']);
  });

  it('does not treat a track without a language as matching an empty code', () => {
    const tracks = [track('a', '', 'ac-3'), track('b', '')];
    expect(ids(orderAudioTracks(tracks, ['']))).toEqual(['b']);
  });

  it('keeps every track when all of them are AC3', () => {
    const tracks = [track('a', 'ru', 'ac-3'), track('b', 'en', 'ec-3')];
    expect(ids(orderAudioTracks(tracks, ['de']))).toEqual(['a', 'b']);
  });

  it('returns an empty list for no tracks', () => {
    expect(orderAudioTracks([], ['ru'])).toEqual([]);
  });

  it('never mutates the input and always returns a new array', () => {
    const tracks = [track('en', 'en'), track('ru', 'ru')];
    const copy = [...tracks];
    const preferred = ['ru'];

    const byLanguage = orderAudioTracks(tracks, preferred);
    const all = orderAudioTracks([track('x', 'ru', 'ac-3')], []);

    expect(tracks).toEqual(copy);
    expect(preferred).toEqual(['ru']);
    expect(byLanguage).not.toBe(tracks);
    expect(all).toHaveLength(1);
    expect(orderAudioTracks(tracks, ['de'])).not.toBe(tracks);
  });
});

describe('chooseAudioTrack', () => {
  const tracks = [
    track('first', 'ru', null, 'Дубляж'),
    track('studio', 'ru', null, 'LostFilm'),
    track('other', 'ru', null, 'HDrezka Studio'),
    track('orig', 'en', null, 'Original'),
  ];

  it('has nothing to choose from an empty list', () => {
    expect(chooseAudioTrack([], 'Дубляж', 'LostFilm')).toBeNull();
  });

  it('prefers the saved label (exact, trimmed, case-insensitive) over the voice author', () => {
    expect(chooseAudioTrack(tracks, '  original ', 'LostFilm')?.id).toBe('orig');
  });

  it('needs the saved label to match exactly, not partly', () => {
    expect(chooseAudioTrack(tracks, 'Orig', null)?.id).toBe('first');
    expect(chooseAudioTrack(tracks, 'HDrezka', null)?.id).toBe('first');
  });

  it('falls back to the voice author when the saved label is not there', () => {
    expect(chooseAudioTrack(tracks, 'Кубик в кубе', 'lostfilm')?.id).toBe('studio');
  });

  it('matches a voice author contained in the label, trimmed and case-insensitive', () => {
    expect(chooseAudioTrack(tracks, null, '  hdrezka ')?.id).toBe('other');
  });

  it('takes the first match of the voice author in list order', () => {
    const list = [track('a', 'ru', null, 'Кубик'), track('b', 'ru', null, 'Кубик в кубе')];
    expect(chooseAudioTrack(list, null, 'кубик')?.id).toBe('a');
  });

  it('never matches an empty voice author or an empty saved label', () => {
    const list = [track('a', 'ru', null, 'Дубляж'), track('b', 'ru', null, '')];
    expect(chooseAudioTrack(list, '', '')?.id).toBe('a');
    expect(chooseAudioTrack(list, '   ', '   ')?.id).toBe('a');
  });

  it('takes the first track when nothing matches', () => {
    expect(chooseAudioTrack(tracks, null, null)?.id).toBe('first');
    expect(chooseAudioTrack(tracks, 'nope', 'nobody')?.id).toBe('first');
  });

  it('returns the very object from the list', () => {
    expect(chooseAudioTrack(tracks, 'LostFilm', null)).toBe(tracks[1]);
  });
});
