// The events the controller emits for analytics (spec §7): seek, mute/unmute, quality, fullscreen, error stats.
import type { PlayerEvents } from '../core/events';
import { installFetch, jsonResponse, makeContext } from '../test/fixtures';
import { PlayerController } from './controller';
import { attachSource, type Engine, type EngineOptions } from './engine';

jest.mock('./engine', () => ({ attachSource: jest.fn() }));

const attachSourceMock = jest.mocked(attachSource);
const MASTER = { sources: [{ label: 'Оригинал', link: '/hls/12/orig/index.m3u8' }], subtitles: [] };
let restoreFetch: () => void;
let consoleError: jest.SpyInstance;

beforeEach(() => {
  restoreFetch = installFetch(jest.fn().mockResolvedValue(jsonResponse(MASTER)));
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  localStorage.clear();
});

afterEach(() => {
  restoreFetch();
  consoleError.mockRestore();
});

async function started(engine: Partial<Engine> = {}) {
  attachSourceMock.mockResolvedValue({
    dispose: jest.fn(), setLevel: jest.fn(), setAudioTrack: jest.fn(), setBufferAhead: jest.fn(), ...engine,
  });
  const controller = new PlayerController(makeContext(), 'https://player.example/');
  const video = document.createElement('video');
  jest.spyOn(video, 'play').mockResolvedValue(undefined);
  let time = 10;
  Object.defineProperty(video, 'currentTime', { configurable: true, get: () => time, set: (value) => (time = value) });
  Object.defineProperty(video, 'duration', { configurable: true, get: () => 100 });
  controller.attach(video);
  await controller.start();
  const seen: Array<[keyof PlayerEvents, unknown]> = [];
  const types = ['seek', 'muteChanged', 'qualityChanged', 'fullscreenChanged', 'error'] as const;
  for (const type of types) controller.events.on(type, (payload) => seen.push([type, payload]));
  return { controller, video, seen, options: attachSourceMock.mock.calls.at(-1)?.[2] as EngineOptions };
}

describe('the controller for analytics', () => {
  it('emits a seek from where it was to where it went', async () => {
    const { controller, seen } = await started();
    controller.seek(42);
    controller.seekBy(-50); // clamped at 0
    expect(seen).toEqual([['seek', { from: 10, to: 42 }], ['seek', { from: 42, to: 0 }]]);
  });

  it('emits mute and unmute when the viewer silences the sound or brings it back, and only then', async () => {
    const { controller, video, seen } = await started();
    controller.setVolume(0.5);
    controller.setMuted(true);
    controller.setMuted(true);
    controller.setVolume(0.7); // a volume above 0 unmutes
    controller.setVolume(0);
    controller.setMuted(false); // back to the default volume
    expect(seen).toEqual([
      ['muteChanged', { muted: true }],
      ['muteChanged', { muted: false }],
      ['muteChanged', { muted: true }],
      ['muteChanged', { muted: false }],
    ]);
    expect(video.volume).toBe(1);
  });

  it("emits the viewer's quality choice with its label, and fullscreen both ways", async () => {
    const { controller, seen, options } = await started();
    options.onLevels([{ index: 0, height: 240, bitrate: 4e5 }, { index: 1, height: 480, bitrate: 1.2e6 }]);
    controller.tracks.setLevel(1);
    controller.tracks.setLevel(-1);
    const container = document.createElement('div');
    const stop = controller.platform.watch(container);
    const fullscreenOf = (element: Element | null) => {
      Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => element });
      document.dispatchEvent(new Event('fullscreenchange'));
    };
    fullscreenOf(container);
    fullscreenOf(container); // no change: said once
    fullscreenOf(null);
    stop();
    expect(seen).toEqual([
      ['qualityChanged', { level: 1, label: '480p' }],
      ['qualityChanged', { level: -1, label: 'Auto' }],
      ['fullscreenChanged', { fullscreen: true }],
      ['fullscreenChanged', { fullscreen: false }],
    ]);
  });

  it("reads the engine's bandwidth and the dropped frames before an error releases the engine", async () => {
    const dispose = jest.fn();
    const released = () => dispose.mock.calls.length > 0;
    const { video, seen, options } = await started({ bandwidthEstimate: () => (released() ? 0 : 3e6), dispose });
    Object.defineProperty(video, 'getVideoPlaybackQuality', {
      configurable: true,
      value: () => ({ droppedVideoFrames: released() ? 0 : 9 }),
    });
    options.onFatal({ category: 'network', code: 'MEDIA_FATAL', fatal: true, message: 'x', id: 'e1' });
    expect(dispose).toHaveBeenCalled();
    const media = { bandwidthBps: 3e6, droppedFrames: 9 };
    expect(seen).toEqual([['error', { error: expect.objectContaining({ id: 'e1' }), media }]]);
  });
});
