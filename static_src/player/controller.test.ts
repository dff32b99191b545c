import { DEFAULTS } from '../core/defaults';
import type { PlaybackPhase } from '../core/events';
import { ErrorCode, playerError, type PlayerError } from '../core/errors';
import { MASTER_PATH, installFetch, jsonResponse, makeContext, makeEpisode } from '../test/fixtures';
import { PlayerController } from './controller';
import { initialState } from './state';
import { attachSource, type Engine, type EngineOptions } from './engine';
import { AudioBoost } from './gain';

jest.mock('./engine', () => ({ attachSource: jest.fn() }));

const attachSourceMock = jest.mocked(attachSource);
const BASE = 'https://player.example/embed/12';
const MASTER_URL = `https://player.example${MASTER_PATH}`;
const INITIAL = initialState(101); // the fixture's episode

const MASTER = {
  sources: [
    { label: 'Оригинал', link: '/hls/12/orig/index.m3u8' },
    { label: 'Дубляж', link: '/hls/12/dub/index.m3u8', isDefault: true },
  ],
  subtitles: [{ label: 'Русские', language: 'ru', src: '/subs/12/ru.vtt' }],
};

const fetchMock = jest.fn();
let restoreFetch: () => void;
let consoleError: jest.SpyInstance;
let engine: Engine & { dispose: jest.Mock; setLevel: jest.Mock; setAudioTrack: jest.Mock; setBufferAhead: jest.Mock };

beforeEach(() => {
  restoreFetch = installFetch(fetchMock);
  fetchMock.mockResolvedValue(jsonResponse(MASTER));
  engine = { dispose: jest.fn(), setLevel: jest.fn(), setAudioTrack: jest.fn(), setBufferAhead: jest.fn() };
  attachSourceMock.mockResolvedValue(engine);
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined); // fail() logs every error
});

afterEach(() => {
  restoreFetch();
  consoleError.mockRestore();
});

/** A controller attached to a real jsdom <video> whose play() (not implemented by jsdom) is stubbed. */
function setup(context = makeContext()) {
  const controller = new PlayerController(context, BASE);
  const video = document.createElement('video');
  const play = jest.spyOn(video, 'play').mockResolvedValue(undefined);
  controller.attach(video);
  const phases: PlaybackPhase[] = [];
  const errors: PlayerError[] = [];
  controller.events.on('phaseChanged', ({ phase }) => phases.push(phase));
  controller.events.on('error', ({ error }) => errors.push(error));
  const fire = (type: string) => video.dispatchEvent(new Event(type));
  return { controller, video, play, phases, errors, fire };
}

/** The options the controller passed to the engine on its last attach. */
function engineOptions(): EngineOptions {
  const call = attachSourceMock.mock.calls.at(-1);
  if (!call) throw new Error('attachSource was not called');
  return call[2];
}

describe('PlayerController.start', () => {
  it('goes to loading at once, then attaches the default source and plays', async () => {
    const { controller, video, play, phases } = setup();

    const started = controller.start();
    expect(controller.store.get()).toMatchObject({ phase: 'loading', started: true, error: null });
    expect(phases).toEqual(['loading']);
    expect(play).not.toHaveBeenCalled();

    await started;

    expect(fetchMock).toHaveBeenCalledWith(MASTER_URL, expect.objectContaining({ credentials: 'same-origin' }));
    expect(attachSourceMock).toHaveBeenCalledTimes(1);
    expect(attachSourceMock).toHaveBeenCalledWith(
      video,
      'https://player.example/hls/12/dub/index.m3u8',
      expect.objectContaining({ assetsPath: '/static/dist/', startPosition: null, onFatal: expect.any(Function) }),
    );
    expect(play).toHaveBeenCalledTimes(1);
    expect(attachSourceMock.mock.invocationCallOrder[0]).toBeLessThan(play.mock.invocationCallOrder[0]);
    expect(controller.store.get().subtitles).toEqual([
      { label: 'Русские', language: 'ru', src: 'https://player.example/subs/12/ru.vtt' },
    ]);
    expect(controller.store.get().phase).toBe('loading'); // until the video reports 'playing'
  });

  it('with a hold (a pre-roll), loads the episode once the ad is on screen, plays once the hold settles', async () => {
    const { controller, play } = setup();
    let release: () => void = () => undefined;
    let adOnScreen: () => void = () => undefined;
    controller.holdPlayback((contentMayLoad) => {
      adOnScreen = contentMayLoad;
      return new Promise<void>((resolve) => (release = resolve));
    });
    const started = controller.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fetchMock).toHaveBeenCalledWith(MASTER_URL, expect.anything()); // the master comes beside the ad
    expect(attachSourceMock).not.toHaveBeenCalled(); // nothing competes with the ad's first frame
    adOnScreen();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(attachSourceMock).toHaveBeenCalledTimes(1); // the manifest and first segments load under the ad
    // only what the switch to the film needs: the forward buffer is bounded until the ad is over
    expect(attachSourceMock.mock.calls[0][2].bufferAheadS).toBe(DEFAULTS.prerollBufferAheadS);
    expect(play).not.toHaveBeenCalled();
    expect(engine.setBufferAhead).not.toHaveBeenCalled();
    release();
    await started;
    expect(play).toHaveBeenCalledTimes(1);
    expect(engine.setBufferAhead.mock.calls).toEqual([[null]]); // the whole buffer policy, before the film plays
    expect(engine.setBufferAhead.mock.invocationCallOrder[0]).toBeLessThan(play.mock.invocationCallOrder[0]);
  });

  it("hands the engine the page's copy of the first playlist for the source it names, and for no other", async () => {
    const firstPlaylist = {
      url: '/hls/12/dub/index.m3u8',
      text: '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n',
      media: ['/hls/12/dub/v.m3u8'],
    };
    const { controller } = setup(makeContext({ firstPlaylist }));
    await controller.start();
    expect(attachSourceMock.mock.calls[0][1]).toBe('https://player.example/hls/12/dub/index.m3u8');
    expect(engineOptions().playlist).toBe(firstPlaylist.text);
    expect(engineOptions().media).toEqual(['https://player.example/hls/12/dub/v.m3u8']); // as hls.js resolves it

    attachSourceMock.mockClear(); // a viewer whose saved voice is the other source: that one is asked for
    const other = setup(makeContext({ firstPlaylist: { ...firstPlaylist, url: '/hls/12/orig/index.m3u8' } }));
    await other.controller.start();
    expect(attachSourceMock.mock.calls[0][1]).toBe('https://player.example/hls/12/dub/index.m3u8');
    expect(engineOptions().playlist).toBeUndefined();
    expect(engineOptions().media).toBeUndefined(); // nor another source's media playlists
  });

  it('without a hold, the film buffers as far as its policy says from the start', async () => {
    const { controller } = setup();
    await controller.start();
    expect(attachSourceMock.mock.calls[0][2].bufferAheadS).toBeUndefined();
  });

  it('under a hold whose ad never shows, the episode loads after the gate anyway', async () => {
    jest.useFakeTimers();
    try {
      const { controller, play } = setup();
      let release: () => void = () => undefined;
      controller.holdPlayback(() => new Promise<void>((resolve) => (release = resolve)));
      const started = controller.start();
      await jest.advanceTimersByTimeAsync(DEFAULTS.contentLoadGateMs - 1);
      expect(attachSourceMock).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(1);
      expect(attachSourceMock).toHaveBeenCalledTimes(1);
      release();
      await started;
      expect(play).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a failing hold still lets the film play', async () => {
    const { controller, play } = setup();
    controller.holdPlayback(() => Promise.reject(new Error('ads exploded')));
    await controller.start();
    expect(play).toHaveBeenCalledTimes(1);
  });

  it('a hold while the film plays (a mid-roll) pauses it now and plays it once the hold settles', async () => {
    const { controller, play, video, fire } = setup();
    await controller.start();
    fire('playing');
    const pause = jest.spyOn(video, 'pause').mockImplementation(() => fire('pause'));
    let release: () => void = () => undefined;
    controller.holdPlayback(() => new Promise<void>((resolve) => (release = resolve)));
    expect(pause).toHaveBeenCalledTimes(1);
    expect(controller.store.get().phase).toBe('paused');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(play).toHaveBeenCalledTimes(1); // the start's only
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(play).toHaveBeenCalledTimes(2);
    await controller.start(); // and the next start is not held: that hold was this break's
    expect(play).toHaveBeenCalledTimes(3);
  });

  it("a mid-roll with nothing to show gives the film back before the video's 'pause' event has come", async () => {
    const { controller, play, video, fire } = setup();
    await controller.start();
    fire('playing');
    const pause = jest.spyOn(video, 'pause').mockImplementation(() => undefined); // its event comes later
    controller.holdPlayback(() => Promise.resolve());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(pause).toHaveBeenCalledTimes(1);
    expect(play).toHaveBeenCalledTimes(2);
  });

  it('a mid-roll that fails still gives the film back; one that ends after a new episode plays nothing', async () => {
    const { controller, play, video, fire } = setup(makeContext({ episodes: [makeEpisode(), makeEpisode({ id: 102, order: 2 })] }));
    await controller.start();
    fire('playing');
    jest.spyOn(video, 'pause').mockImplementation(() => fire('pause'));
    controller.holdPlayback(() => Promise.reject(new Error('ads exploded')));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(play).toHaveBeenCalledTimes(2);

    fire('playing');
    let release: () => void = () => undefined;
    controller.holdPlayback(() => new Promise<void>((resolve) => (release = resolve)));
    await controller.selectEpisode(102, false); // the viewer moves on under the ad: playback had started, so it plays
    const calls = play.mock.calls.length;
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(play).toHaveBeenCalledTimes(calls); // the old break's end does not start anything
  });

  it('starts at the time code, else at the remembered episode time', async () => {
    const first = setup(makeContext({ timeCode: 90, episodeTime: 30 }));
    await first.controller.start();
    expect(engineOptions().startPosition).toBe(90);

    const second = setup(makeContext({ timeCode: null, episodeTime: 30 }));
    await second.controller.start();
    expect(engineOptions().startPosition).toBe(30);
  });

  it('does nothing before a video element is attached', async () => {
    const controller = new PlayerController(makeContext(), BASE);

    await controller.start();

    expect(controller.store.get()).toEqual(INITIAL);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('ignores a second start while loading', async () => {
    const { controller } = setup();

    const first = controller.start();
    await controller.start();
    await first;

    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(attachSourceMock).toHaveBeenCalledTimes(1);
  });

  it('fails with NO_SOURCE, without fetching, when the episode has no master file', async () => {
    const context = makeContext({ episodes: [makeEpisode({ m3u8MasterFilePath: null })] });
    const { controller, errors, phases } = setup(context);

    await controller.start();

    expect(controller.store.get().phase).toBe('error');
    expect(controller.store.get().error?.code).toBe(ErrorCode.NO_SOURCE);
    expect(errors.map((e) => e.code)).toEqual([ErrorCode.NO_SOURCE]);
    expect(phases).toEqual(['loading', 'error']);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(attachSourceMock).not.toHaveBeenCalled();
  });

  it('fails with NO_SOURCE when the chosen episode is not in the context', async () => {
    const { controller } = setup(makeContext({ episodeId: 999 }));

    await controller.start();

    expect(controller.store.get().error?.code).toBe(ErrorCode.NO_SOURCE);
  });

  it('fails with MASTER_LOAD_FAILED naming the master address when the master is a 404', async () => {
    fetchMock.mockResolvedValue(jsonResponse({}, 404));
    const { controller, play, errors, phases } = setup();

    await controller.start();

    const state = controller.store.get();
    expect(state.phase).toBe('error');
    expect(state.buffering).toBe(false);
    expect(state.error).toMatchObject({ code: ErrorCode.MASTER_LOAD_FAILED, address: MASTER_URL });
    expect(errors).toEqual([state.error]);
    expect(phases).toEqual(['loading', 'error']);
    expect(attachSourceMock).not.toHaveBeenCalled();
    expect(play).not.toHaveBeenCalled();
    expect(consoleError).toHaveBeenCalledWith(expect.stringContaining(ErrorCode.MASTER_LOAD_FAILED));
  });

  it('reports an engine that cannot attach as the error it threw', async () => {
    attachSourceMock.mockRejectedValue(playerError('media', ErrorCode.NO_ENGINE, 'no MSE, no native HLS'));
    const { controller } = setup();

    await controller.start();

    expect(controller.store.get().error?.code).toBe(ErrorCode.NO_ENGINE);
  });

  it('wraps an unexpected exception as MEDIA_FATAL', async () => {
    attachSourceMock.mockRejectedValue(new Error('chunk failed to load'));
    const { controller } = setup();

    await controller.start();

    expect(controller.store.get().error).toMatchObject({
      code: ErrorCode.MEDIA_FATAL,
      message: expect.stringContaining('chunk failed to load'),
    });
  });
});

describe('PlayerController media events', () => {
  it("follows the video: 'playing', 'pause', 'ended', each emitting phaseChanged once", async () => {
    const { controller, phases, fire } = setup();
    await controller.start();

    fire('playing');
    expect(controller.store.get().phase).toBe('playing');
    expect(phases).toEqual(['loading', 'playing']);

    fire('playing'); // no change, no event
    expect(phases).toEqual(['loading', 'playing']);

    fire('pause');
    expect(controller.store.get().phase).toBe('paused');

    fire('playing');
    fire('ended');
    expect(controller.store.get().phase).toBe('ended');
    expect(phases).toEqual(['loading', 'playing', 'paused', 'playing', 'ended']);
  });

  it("does not report the 'pause' that comes with the end as paused", async () => {
    const { controller, video, fire, phases } = setup();
    await controller.start();
    fire('playing');
    Object.defineProperty(video, 'ended', { configurable: true, get: () => true });

    fire('pause');
    expect(controller.store.get().phase).toBe('playing');
    fire('ended');

    expect(controller.store.get().phase).toBe('ended');
    expect(phases).toEqual(['loading', 'playing', 'ended']);
  });

  it("tracks buffering between 'waiting' and 'canplay' / 'playing'", async () => {
    const { controller, fire } = setup();
    await controller.start();

    fire('waiting');
    expect(controller.store.get().buffering).toBe(true);
    fire('canplay');
    expect(controller.store.get().buffering).toBe(false);
    fire('waiting');
    fire('playing');
    expect(controller.store.get().buffering).toBe(false);
  });

  it("emits timeProgressChanged with the video's time and duration on 'timeupdate'", () => {
    const { controller, video, fire } = setup();
    const progress = jest.fn();
    controller.events.on('timeProgressChanged', progress);
    Object.defineProperty(video, 'currentTime', { configurable: true, get: () => 12.5 });
    Object.defineProperty(video, 'duration', { configurable: true, get: () => 3600 });

    fire('timeupdate');

    expect(progress).toHaveBeenCalledWith({ currentTime: 12.5, duration: 3600 });
  });

  it('reports an unknown (NaN) duration as 0', () => {
    const { controller, fire } = setup(); // jsdom's video has no media: duration is NaN
    const progress = jest.fn();
    controller.events.on('timeProgressChanged', progress);

    fire('timeupdate');

    expect(progress).toHaveBeenCalledWith({ currentTime: 0, duration: 0 });
  });

  it('resumes with play() when started again while paused', async () => {
    const { controller, play, fire } = setup();
    await controller.start();
    fire('playing');
    fire('pause');

    await controller.start();

    expect(play).toHaveBeenCalledTimes(2);
    expect(fetchMock).toHaveBeenCalledTimes(1); // no second load
    expect(attachSourceMock).toHaveBeenCalledTimes(1);
  });

  it('listens only to the last attached video', async () => {
    const { controller, fire } = setup();
    const other = document.createElement('video');
    controller.attach(other);

    fire('playing');
    expect(controller.store.get().phase).toBe('idle');

    other.dispatchEvent(new Event('playing'));
    expect(controller.store.get().phase).toBe('playing');
  });
});

describe('PlayerController under an ad', () => {
  it("sends the viewer's play/pause to the ad and leaves the film where it is", async () => {
    const { controller, video, play, fire } = setup();
    await controller.start();
    fire('playing');
    const pause = jest.spyOn(video, 'pause');
    const requests: Array<boolean | 'toggle'> = [];
    controller.events.on('playbackRequested', (request) => {
      requests.push(request.play);
      request.handled = true;
    });
    play.mockClear();

    controller.setAd('playing');
    controller.togglePlay();
    controller.setAd('paused');
    controller.togglePlay();
    expect(requests).toEqual(['toggle', 'toggle']); // the ad's own video decides (ads/layer)
    expect(pause).not.toHaveBeenCalled();
    expect(play).not.toHaveBeenCalled();

    Object.defineProperty(video, 'duration', { configurable: true, get: () => 1860 });
    video.currentTime = 30;
    controller.seek(100);
    controller.seekBy(10);
    controller.setRate(2);
    expect(video.currentTime).toBe(30);
    expect(video.playbackRate).toBe(1);

    controller.setAd(null);
    controller.seekBy(10);
    controller.togglePlay();
    expect(video.currentTime).toBe(40);
    expect(pause).toHaveBeenCalledTimes(1);
    expect(requests).toEqual(['toggle', 'toggle']); // none once the ad is gone
  });

  it('keeps the ad state across a new episode (the ad path ends that ad itself)', async () => {
    const episodes = [makeEpisode({ id: 101 }), makeEpisode({ id: 102, order: 2 })];
    const { controller } = setup(makeContext({ episodes }));
    controller.setAd('playing');
    await controller.selectEpisode(102);
    expect(controller.store.get().ad).toBe('playing');
  });
});

describe('PlayerController autoplay policy', () => {
  it('mutes and retries play() once when the browser refuses a loud start', async () => {
    const { controller, video, play } = setup();
    play.mockRejectedValueOnce(new DOMException('play() needs a user gesture', 'NotAllowedError'));
    expect(video.muted).toBe(false);

    await controller.start();

    expect(video.muted).toBe(true);
    expect(play).toHaveBeenCalledTimes(2);
    expect(controller.store.get().error).toBeNull();
  });

  it('fails with PLAY_FAILED when even a muted start is refused', async () => {
    const { controller, video, play } = setup();
    play.mockRejectedValue(new DOMException('blocked', 'NotAllowedError'));

    await controller.start();

    expect(video.muted).toBe(true);
    expect(play).toHaveBeenCalledTimes(2);
    expect(controller.store.get().error?.code).toBe(ErrorCode.PLAY_FAILED);
    expect(engine.dispose).toHaveBeenCalledTimes(1);
  });

  it('ignores an AbortError from play() (a newer load superseded it)', async () => {
    const { controller, play } = setup();
    play.mockRejectedValue(new DOMException('interrupted', 'AbortError'));

    await controller.start();

    expect(play).toHaveBeenCalledTimes(1);
    expect(controller.store.get().phase).toBe('loading');
    expect(controller.store.get().error).toBeNull();
  });
});

describe('PlayerController reset and dispose', () => {
  it('reset() after a fatal engine error returns to the initial state with the engine released', async () => {
    const { controller, errors } = setup();
    await controller.start();
    expect(engine.dispose).not.toHaveBeenCalled();

    engineOptions().onFatal(playerError('media', ErrorCode.MEDIA_FATAL, 'hls.js networkError: manifestLoadError'));
    expect(controller.store.get().phase).toBe('error');
    expect(errors.map((e) => e.code)).toEqual([ErrorCode.MEDIA_FATAL]);
    expect(engine.dispose).toHaveBeenCalledTimes(1);

    controller.reset();

    expect(controller.store.get()).toEqual(INITIAL);
    expect(engine.dispose).toHaveBeenCalledTimes(1); // released once, not again
  });

  it('reset() after a master load error returns to the initial state, and start() works again', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({}, 404));
    const { controller, play, phases } = setup();
    await controller.start();
    expect(controller.store.get().phase).toBe('error');

    controller.reset();
    expect(controller.store.get()).toEqual(INITIAL);
    expect(phases).toEqual(['loading', 'error', 'idle']); // subscribers see the return to idle

    await controller.start();
    expect(controller.store.get().error).toBeNull();
    expect(play).toHaveBeenCalledTimes(1);
  });

  it('reset() while playing disposes the engine', async () => {
    const { controller, fire } = setup();
    await controller.start();
    fire('playing');

    controller.reset();

    expect(engine.dispose).toHaveBeenCalledTimes(1);
    expect(controller.store.get()).toEqual(INITIAL);
  });

  it('reset() during the master fetch abandons the load without an error', async () => {
    let respond: (response: Response) => void = () => undefined;
    fetchMock.mockImplementation((_url: string, init: RequestInit) => {
      expect(init.signal?.aborted).toBe(false);
      return new Promise<Response>((resolve) => (respond = resolve));
    });
    const { controller, errors, play } = setup();

    const started = controller.start();
    await Promise.resolve();
    controller.reset();
    expect(fetchMock.mock.calls[0][1].signal.aborted).toBe(true);
    respond(jsonResponse(MASTER));
    await started;

    expect(controller.store.get()).toEqual(INITIAL);
    expect(errors).toEqual([]);
    expect(attachSourceMock).not.toHaveBeenCalled();
    expect(play).not.toHaveBeenCalled();
  });

  it('dispose() twice is safe: the engine is released once, events and video listeners are gone', async () => {
    const { controller, fire, phases } = setup();
    await controller.start();
    const progress = jest.fn();
    controller.events.on('timeProgressChanged', progress);

    controller.dispose();
    expect(() => controller.dispose()).not.toThrow();

    expect(engine.dispose).toHaveBeenCalledTimes(1);
    fire('playing');
    fire('timeupdate');
    expect(controller.store.get().phase).toBe('idle');
    expect(progress).not.toHaveBeenCalled();
    expect(phases).not.toContain('playing');
  });
});

describe('PlayerController episodes', () => {
  const episodes = [
    makeEpisode({ id: 3, order: 1, season: { id: 2, order: 2 } }),
    makeEpisode({ id: 1, order: 1, season: { id: 1, order: 1 } }),
    makeEpisode({ id: 2, order: 2, season: { id: 1, order: 1 } }),
  ];

  it('orders episodes by season then episode, and advances to the next one on ended', async () => {
    const { controller, fire } = setup(makeContext({ episodes, episodeId: 2 }));
    const changed: number[] = [];
    controller.events.on('episodeChanged', ({ episode }) => changed.push(episode.id));
    expect(controller.episodes.map((episode) => episode.id)).toEqual([1, 2, 3]);
    await controller.start();
    fire('playing');

    fire('ended');
    await Promise.resolve();

    expect(changed).toEqual([3]);
    expect(controller.store.get().episodeId).toBe(3);
    expect(controller.store.get().phase).toBe('loading'); // the next episode is already loading
  });

  it('refuses to change the episode when the content is not available', async () => {
    const { controller } = setup(makeContext({ episodes, episodeId: 1, isAvailable: false }));
    const changed = jest.fn();
    controller.events.on('episodeChanged', changed);
    expect(await controller.selectEpisode(2)).toBe(false);
    expect(controller.store.get().episodeId).toBe(1);
    expect(changed).not.toHaveBeenCalled();
  });

  it('plays the placeholder clip when not available, then raises BLOCKED on its end', async () => {
    const { controller, video, fire, errors } = setup(makeContext({ isAvailable: false }));
    await controller.start();
    expect(video.getAttribute('src')).toBe('/clips/not-available.mp4');
    expect(attachSourceMock).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();

    fire('ended');
    expect(errors.map((error) => error.code)).toEqual([ErrorCode.BLOCKED]);
    expect(video.hasAttribute('src')).toBe(false);
  });
});

describe('PlayerController settings', () => {
  afterEach(() => localStorage.clear());

  it("saves volume and mute on the viewer's change only, not on the autoplay muted retry", async () => {
    const { controller, video, play } = setup();
    play.mockRejectedValueOnce(new DOMException('no', 'NotAllowedError'));
    await controller.start();
    expect(video.muted).toBe(true);
    expect(localStorage.getItem('player-muted')).toBeNull();

    controller.setVolume(0.35);
    expect(video.volume).toBe(0.35);
    expect(video.muted).toBe(false); // raising the volume unmutes
    expect(localStorage.getItem('player-volume')).toBe('0.35');
    expect(localStorage.getItem('player-muted')).toBe('false');
  });

  it('restores the saved volume and mute on attach', () => {
    localStorage.setItem('player-volume', '0.4');
    localStorage.setItem('player-muted', 'true');
    const { video } = setup();
    expect(video.volume).toBe(0.4);
    expect(video.muted).toBe(true);
  });

  it('clamps the playback rate to 0.25–2 and keeps it across a source change', () => {
    const { controller, video } = setup();
    controller.setRate(3);
    expect(video.playbackRate).toBe(2);
    expect(video.defaultPlaybackRate).toBe(2);
    controller.setRate(0.1);
    expect(video.playbackRate).toBe(0.25);
  });

  it('switches voice: the other source loads at the current time and keeps playing', async () => {
    const { controller, video, play } = setup();
    await controller.start();
    const options = engineOptions();
    options.onAudioTracks([]);
    expect(controller.store.get().audio.map((option) => option.label)).toEqual(['Оригинал', 'Дубляж']);
    Object.defineProperty(video, 'currentTime', { value: 42, configurable: true });
    Object.defineProperty(video, 'paused', { value: false, configurable: true });
    play.mockClear();

    await controller.tracks.setAudio('0');

    expect(attachSourceMock).toHaveBeenLastCalledWith(
      video,
      'https://player.example/hls/12/orig/index.m3u8',
      expect.objectContaining({ startPosition: 42 }),
    );
    expect(engine.dispose).toHaveBeenCalledTimes(1); // the first source's engine
    expect(play).toHaveBeenCalledTimes(1);
    expect(JSON.parse(localStorage.getItem('favoriteAudioTracks') ?? '{}')).toEqual({ 12: 'Оригинал' });
  });

  it('chooses renditions by lang_order, and a rendition switch stays on the same engine', async () => {
    const { controller } = setup(makeContext({ langOrder: ['en'] }));
    await controller.start();
    engineOptions().onAudioTracks([
      { index: 0, label: 'Русский', language: 'ru', codec: 'mp4a.40.2', channels: 2 },
      { index: 1, label: 'English', language: 'en', codec: 'mp4a.40.2', channels: 2 },
    ]);
    expect(engine.setAudioTrack).toHaveBeenLastCalledWith(1); // the preferred language first
    const english = controller.store.get().audio.find((option) => option.label === 'Дубляж · English');
    const russian = controller.store.get().audio.find((option) => option.label === 'Дубляж · Русский');
    expect(controller.store.get().audioKey).toBe(english?.key);

    await controller.tracks.setAudio(russian?.key ?? '');
    expect(engine.setAudioTrack).toHaveBeenLastCalledWith(0);
    expect(attachSourceMock).toHaveBeenCalledTimes(1);
  });
});

describe('PlayerController progress', () => {
  afterEach(() => {
    localStorage.clear();
    jest.restoreAllMocks();
  });

  it('saves progress at most every 10 s, never on the first tick, to storage and the API', async () => {
    let now = 0;
    jest.spyOn(performance, 'now').mockImplementation(() => now);
    const api = { time: jest.fn().mockResolvedValue(true), completed: jest.fn().mockResolvedValue(true) };
    const controller = new PlayerController(makeContext(), BASE, api);
    const video = document.createElement('video');
    jest.spyOn(video, 'play').mockResolvedValue(undefined);
    controller.attach(video);
    await controller.start();
    video.dispatchEvent(new Event('playing'));
    const tick = (seconds: number, at: number) => {
      now = at;
      Object.defineProperty(video, 'currentTime', { value: seconds, configurable: true });
      video.dispatchEvent(new Event('timeupdate'));
    };

    tick(1, 0);
    tick(5, 4000);
    expect(api.time).not.toHaveBeenCalled();
    tick(11.7, 10_000);
    expect(api.time).toHaveBeenCalledWith(101, 11);
    expect(JSON.parse(localStorage.getItem('episodesTimeProgress') ?? '{}')).toEqual({ 101: 11 });
    tick(15, 15_000);
    expect(api.time).toHaveBeenCalledTimes(1);

    video.dispatchEvent(new Event('ended'));
    expect(api.completed).toHaveBeenCalledWith(101);
  });
});

describe('PlayerController audio keys', () => {
  afterEach(() => localStorage.clear());

  it('after a voice switch the old voice key no longer stands for the choice until the new one is known', async () => {
    const { controller, video } = setup();
    await controller.start();
    engineOptions().onAudioTracks([
      { index: 0, label: 'Русский', language: 'ru', codec: 'mp4a.40.2', channels: 2 },
      { index: 1, label: 'English', language: 'en', codec: 'mp4a.40.2', channels: 2 },
    ]);
    expect(controller.store.get().audioKey).toBe('1:0');
    Object.defineProperty(video, 'paused', { value: true, configurable: true });

    await controller.tracks.setAudio('0');

    expect(controller.store.get().audioKey).toBe('0'); // the voice just loaded, not the old '1:0'
    engineOptions().onAudioTracks([{ index: 0, label: 'Русский', language: 'ru', codec: null, channels: 6 }]);
    expect(controller.store.get().audioKey).toBe('0');
  });

  it('gives the gain the channel count of the rendition playing, also when the voice has only one', async () => {
    const setGain = jest.spyOn(AudioBoost.prototype, 'setGain').mockResolvedValue(true);
    const { controller } = setup();
    await controller.start();
    engineOptions().onAudioTracks([{ index: 0, label: 'Русский', language: 'ru', codec: null, channels: 6 }]);

    await controller.tracks.setGain(2);

    expect(setGain).toHaveBeenCalledWith(2, 6);
    expect(controller.store.get().gain).toBe(2);
    setGain.mockRestore();
  });
});
