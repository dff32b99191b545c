// The media operations around the film are the controller's intents (the interface never touches the <video>):
// subtitles drawn from the chosen track's cues, picture-in-picture, Cast, AirPlay, fullscreen, the media session.
import { installFetch, jsonResponse, makeContext } from '../test/fixtures';
import { PlayerController } from './controller';
import { attachSource } from './engine';

jest.mock('./engine', () => ({ attachSource: jest.fn() }));

const MASTER = {
  sources: [{ label: 'Оригинал', link: '/hls/12/orig/index.m3u8' }],
  subtitles: [
    { label: 'Русские', language: 'ru', src: 'https://player.example/subs/ru.vtt' },
    { label: 'English', language: 'en', src: 'https://player.example/subs/en.vtt' },
  ],
};

/** jsdom has no text tracks: each <track> the controller adds gets one, listed on the video as a browser lists it. */
class FakeTrack extends EventTarget {
  mode: TextTrackMode = 'disabled';
  activeCues: Array<{ text: string }> = [];
}

function withTextTracks(video: HTMLVideoElement): FakeTrack[] {
  const tracks: FakeTrack[] = [];
  const append = video.append.bind(video);
  video.append = (...nodes) => {
    for (const node of nodes) {
      if (node instanceof HTMLTrackElement) {
        const track = new FakeTrack();
        tracks.push(track);
        Object.defineProperty(node, 'track', { value: track });
      }
    }
    append(...nodes);
  };
  Object.defineProperty(video, 'textTracks', {
    get: () => Array.from(video.querySelectorAll('track'), (element) => (element as unknown as { track: FakeTrack }).track),
  });
  return tracks;
}

let restoreFetch: () => void;

beforeEach(() => {
  restoreFetch = installFetch(jest.fn().mockResolvedValue(jsonResponse(MASTER)));
  jest.mocked(attachSource).mockResolvedValue({ dispose: jest.fn(), setLevel: jest.fn(), setAudioTrack: jest.fn(), setBufferAhead: jest.fn() });
});

afterEach(() => {
  restoreFetch();
  document.body.innerHTML = '';
});

async function playing(context = makeContext()) {
  const controller = new PlayerController(context, 'https://player.example/');
  const video = document.createElement('video');
  jest.spyOn(video, 'play').mockResolvedValue(undefined);
  const tracks = withTextTracks(video);
  controller.attach(video);
  await controller.start();
  return { controller, video, tracks };
}

describe('subtitles', () => {
  it("turns on the chosen track for its cues (the browser doesn't draw it) and puts their lines in the state", async () => {
    const { controller, tracks } = await playing();
    expect(tracks.map((track) => track.mode)).toEqual(['disabled', 'disabled']);

    controller.tracks.setSubtitle(1);
    expect(tracks.map((track) => track.mode)).toEqual(['disabled', 'hidden']);
    tracks[1].activeCues = [{ text: 'Hello,\n<i>world</i>' }];
    tracks[1].dispatchEvent(new Event('cuechange'));
    expect(controller.store.get().cues).toEqual(['Hello,', 'world']); // text, tags stripped: never HTML

    tracks[0].activeCues = [{ text: 'not shown' }];
    tracks[0].dispatchEvent(new Event('cuechange'));
    expect(controller.store.get().cues).toEqual(['Hello,', 'world']); // an unchosen track says nothing

    controller.tracks.setSubtitle(-1);
    expect(tracks.map((track) => track.mode)).toEqual(['disabled', 'disabled']);
    expect(controller.store.get().cues).toEqual([]);
    tracks[1].dispatchEvent(new Event('cuechange'));
    expect(controller.store.get().cues).toEqual([]); // its listener is gone
  });

  it('clears the cues when playback stops', async () => {
    const { controller, tracks } = await playing();
    controller.tracks.setSubtitle(0);
    tracks[0].activeCues = [{ text: 'Привет' }];
    tracks[0].dispatchEvent(new Event('cuechange'));
    controller.reset();
    expect(controller.store.get().cues).toEqual([]);
  });
});

describe('platform.watch', () => {
  it('follows fullscreen of its container, and stops when undone', async () => {
    const { controller } = await playing();
    const container = document.body.appendChild(document.createElement('div'));
    const stop = controller.platform.watch(container);
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => container });
    document.dispatchEvent(new Event('fullscreenchange'));
    expect(controller.store.get().fullscreen).toBe(true);
    stop();
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => null });
    document.dispatchEvent(new Event('fullscreenchange'));
    expect(controller.store.get().fullscreen).toBe(true); // no longer watched
  });

  it('reports picture-in-picture support and binds the media session to the film, unbound when undone', async () => {
    const handlers = new Map<string, unknown>();
    const session = { metadata: null, setActionHandler: (action: string, handler: unknown) => handlers.set(action, handler) };
    Object.defineProperty(navigator, 'mediaSession', { configurable: true, value: session });
    Object.defineProperty(document, 'pictureInPictureEnabled', { configurable: true, value: true });
    (globalThis as { MediaMetadata?: unknown }).MediaMetadata = class { constructor(readonly init: unknown) {} };
    const { controller } = await playing();
    const stop = controller.platform.watch(document.createElement('div'));
    expect(controller.store.get().canPip).toBe(true);
    expect(handlers.get('pause')).toEqual(expect.any(Function));
    stop();
    expect(handlers.get('pause')).toBeNull();
    delete (navigator as { mediaSession?: unknown }).mediaSession;
    delete (document as { pictureInPictureEnabled?: unknown }).pictureInPictureEnabled;
  });

  it("is undone with the controller: nothing it listened to is heard after dispose(), which is safe twice", async () => {
    const { controller } = await playing();
    const container = document.body.appendChild(document.createElement('div'));
    controller.platform.watch(container);
    controller.dispose();
    controller.dispose();
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => container });
    document.dispatchEvent(new Event('fullscreenchange'));
    expect(controller.store.get().fullscreen).toBe(false);
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => null });
  });

  it('keeps what the browser offers across a new episode', async () => {
    const { controller } = await playing();
    controller.store.set({ canCast: true, canAirplay: true, canPip: true });
    controller.reset();
    expect(controller.store.get()).toMatchObject({ canCast: true, canAirplay: true, canPip: true });
  });
});

describe('fullscreen, picture-in-picture, Cast', () => {
  it('in pseudo mode stretches the player and tells the parent page, both ways', async () => {
    const context = makeContext();
    context.config.fullscreenMode = 'pseudo';
    const { controller } = await playing(context);
    const told: string[] = [];
    controller.events.on('enterFullScreen', () => told.push('enter'));
    controller.events.on('exitFullScreen', () => told.push('exit'));
    controller.platform.toggleFullscreen();
    controller.platform.toggleFullscreen();
    expect(told).toEqual(['enter', 'exit']);
  });

  it('natively asks for fullscreen of the watched container, and leaves it when in it', async () => {
    const { controller } = await playing();
    const container = document.createElement('div');
    const request = jest.fn().mockResolvedValue(undefined);
    container.requestFullscreen = request;
    Object.defineProperty(document, 'fullscreenEnabled', { configurable: true, value: true });
    controller.platform.watch(container);
    controller.platform.toggleFullscreen();
    expect(request).toHaveBeenCalledTimes(1);
    const exit = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => container });
    document.exitFullscreen = exit;
    controller.platform.toggleFullscreen();
    expect(exit).toHaveBeenCalledTimes(1);
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => null });
  });

  it('asks the video for picture-in-picture and the Remote Playback prompt for Cast; a refusal is only logged', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { controller, video } = await playing();
    Object.defineProperty(document, 'pictureInPictureEnabled', { configurable: true, value: true });
    const requestPip = jest.fn().mockRejectedValue(new DOMException('no activation', 'NotAllowedError'));
    Object.assign(video, { requestPictureInPicture: requestPip });
    const prompt = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(video, 'remote', { configurable: true, value: { prompt } });
    controller.platform.togglePip();
    controller.platform.cast();
    await Promise.resolve();
    await Promise.resolve();
    expect(requestPip).toHaveBeenCalledTimes(1);
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('player: picture-in-picture failed', expect.any(DOMException));
    warn.mockRestore();
    delete (document as { pictureInPictureEnabled?: unknown }).pictureInPictureEnabled;
  });
});
