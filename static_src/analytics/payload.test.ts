import { playerError, ErrorCode } from '../core/errors';
import { initialState, type PlayerState } from '../player/state';
import { makeContent, makeContext, makeEpisode } from '../test/fixtures';
import {
  adFields,
  contentFields,
  errorFields,
  playbackFields,
  qualityLabel,
  round2,
  sessionFields,
} from './payload';

const QUALITY = [
  { value: -1, label: 'Auto' },
  { value: 2, label: '480p' },
  { value: 1, label: '360p' },
];

function state(patch: Partial<PlayerState> = {}): PlayerState {
  return { ...initialState(101, 1, false), ...patch };
}

describe('round2', () => {
  it('keeps seconds to the hundredth, for the payload and the session\'s own fields', () => {
    expect(round2(2699.456)).toBe(2699.46);
    expect(round2(12.3)).toBe(12.3);
    expect(round2(0.004)).toBe(0);
  });
});

describe('contentFields', () => {
  it('names the film with the spec\'s fields and spelling', () => {
    const episode = makeEpisode();
    const content = makeContent({ countries: [{ slug: 'ru' }, { slug: 'by' }] });
    expect(contentFields(content, episode, state({ duration: 2699.456 }))).toEqual({
        video_id: 12,
        video_title: 'Брат',
        duration: 2699.46,
        player_type: 'embedded',
        video_category: 'movie',
        video_thumbnail: 'https://img.example/posters/12.jpg',
        kinopoisk_raiting: 8.3,
        kinopoisk_id: 41519,
        IMDb_raiting: 7.8,
        IMDb_id: 'tt0118767',
        year: 1997,
        countries: 'ru,by',
      });
  });

  it("takes the episode's duration and poster before the media's are known, -2 when neither is", () => {
    const episode = makeEpisode({ duration: 300, posterPath: '/posters/e1.jpg' });
    const fields = contentFields(makeContent(), episode, state({ duration: Number.NaN }));
    expect(fields.duration).toBe(300);
    expect(fields.video_thumbnail).toBe('/posters/e1.jpg');
    expect(contentFields(makeContent({ posterUrl: null }), null, state()).duration).toBe(-2);
    expect(contentFields(makeContent({ posterUrl: null }), null, state()).video_thumbnail).toBeNull();
  });

  it('keeps unknown ratings and ids as null', () => {
    const content = makeContent({ kinopoiskId: null, imdbId: null, year: null, countries: [],
      rating: { kinopoisk: { value: null }, imdb: { value: null, url: null } } });
    expect(contentFields(content, null, state())).toMatchObject({
      kinopoisk_raiting: null, kinopoisk_id: null, IMDb_raiting: null, IMDb_id: null, year: null, countries: '',
    });
  });
});

describe('playbackFields', () => {
  it('says where and how it plays', () => {
    const episode = makeEpisode({ order: 3, season: { id: 7, order: 2 } });
    const audio = [
      { key: '0', source: 0, track: null, label: 'Русский', language: 'ru', codec: null },
      { key: '1', source: 1, track: null, label: 'English', language: '', codec: null },
    ];
    const playing = state({
      currentTime: 61.237, rate: 1.5, quality: QUALITY, level: -1, playingLevel: 2, audio, audioKey: '0',
    });
    expect(playbackFields(playing, episode, { realSeconds: 40, videoSeconds: 60 })).toEqual({
      current_time: 61.24,
      playback_rate: 1.5,
      real_time_played_sec: 40,
      video_time_played_sec: 60,
      video_quality: '480p',
      season: 2,
      episode: 3,
      language: 'ru',
    });
    expect(playbackFields({ ...playing, audioKey: '1' }, episode, { realSeconds: 0, videoSeconds: 0 }).language)
      .toBe('English'); // a voice without a language code: its label
  });

  it('has no season for a film and no language before the audio is known', () => {
    expect(playbackFields(state(), makeEpisode(), { realSeconds: 0, videoSeconds: 0 })).toMatchObject({
      season: null, episode: 1, language: null, video_quality: '',
    });
  });
});

describe('qualityLabel', () => {
  it('is the level on screen, else the chosen one, else Auto', () => {
    expect(qualityLabel(state({ quality: QUALITY, level: 1, playingLevel: 2 }))).toBe('480p');
    expect(qualityLabel(state({ quality: QUALITY, level: 1, playingLevel: -1 }))).toBe('360p');
    expect(qualityLabel(state({ quality: QUALITY, level: -1, playingLevel: -1 }))).toBe('Auto');
    expect(qualityLabel(state())).toBe(''); // native HLS: no levels
  });
});

describe('sessionFields', () => {
  it('carries the device, the user id and isTrailer "0"', () => {
    expect(sessionFields(makeContext({ userId: 'u-42' }), 'tablet')).toEqual({
      device_type: 'tablet', user_id: 'u-42', isTrailer: '0',
    });
    expect(sessionFields(makeContext(), 'desktop').user_id).toBeNull();
  });
});

describe('adFields', () => {
  it('copies the ad history item (spec §3)', () => {
    expect(adFields({ id: 'house-1', type: 'midroll', position: 2, duration: 15, perc: 50 })).toEqual({
      ad_id: 'house-1', ad_type: 'midroll', ad_duration_sec: 15, ad_position_perc: 50, ad_position: 2,
    });
    expect(Object.values(adFields(null)).every((value) => value === null)).toBe(true);
  });
});

describe('errorFields', () => {
  it('has the error type, network type, buffer length and dropped frames', () => {
    const error = playerError('network', ErrorCode.MEDIA_FATAL, 'hls.js networkError: fragLoadError');
    const fields = errorFields(error, state({ currentTime: 10, bufferedEnd: 22.5 }), 7, 600);
    expect(fields).toEqual({
      error_type: 'network',
      error_code: 'MEDIA_FATAL',
      error_id: error.id,
      error_fatal: 1,
      network_type: '3g',
      buffer_length: 12.5,
      fps_drop: 7,
    });
    expect(errorFields(error, state({ currentTime: 10, bufferedEnd: 0 }), null, null)).toMatchObject({
      buffer_length: 0, fps_drop: null, network_type: 'unknown',
    });
  });
});
