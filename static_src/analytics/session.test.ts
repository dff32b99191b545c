import type { PlayerEvents } from '../core/events';
import { ErrorCode, playerError } from '../core/errors';
import { initialState, type PlayerState } from '../player/state';
import { makeContext, makeEpisode } from '../test/fixtures';
import type { Payload } from './payload';
import type { AnalyticsEvent, RecordedType } from './record';
import { browserEnv, createSession } from './session';

const EPISODES = [
  makeEpisode({ id: 101, order: 1, duration: 100, season: { id: 1, order: 1 } }),
  makeEpisode({ id: 102, order: 2, duration: 100, season: { id: 1, order: 1 } }),
];
const AD = { id: 'house-1', type: 'preroll' as const, position: 1, duration: 15, perc: 0 };

function setup(contextPatch = {}) {
  const context = makeContext({ episodes: EPISODES, userId: 'u-1', ...contextPatch });
  const sent: Array<[string, Payload]> = [];
  const session = createSession(context, EPISODES, {
    send: (name, payload) => sent.push([name, payload]),
    device: 'desktop',
    downlink: () => 10,
  });
  let current: PlayerState = { ...initialState(101, 1, false), duration: 100, started: true };
  type Emit = <K extends RecordedType>(
    type: K, payload: PlayerEvents[K], at?: number, patch?: Partial<PlayerState>) => void;
  const emit: Emit = (type, payload, at = 0, patch = {}) => {
    current = { ...current, ...patch };
    session({ type, payload, state: current, at } as AnalyticsEvent);
  };
  const names = () => sent.map(([name]) => name);
  const last = () => sent.at(-1)?.[1] ?? {};
  return { emit, sent, names, last };
}

/** Time updates every 250 ms while playing, from `fromS` for `seconds`. */
function playFor(emit: ReturnType<typeof setup>['emit'], fromS: number, seconds: number, startAt = 0) {
  for (let t = 0; t <= seconds * 1000; t += 250) {
    const time = fromS + t / 1000;
    const state = { currentTime: time, phase: 'playing' as const };
    emit('timeProgressChanged', { currentTime: time, duration: 100 }, startAt + t, state);
  }
}

describe('analytics session', () => {
  it('sends play and pause with the content, playback and session fields', () => {
    const { emit, sent } = setup();
    emit('phaseChanged', { phase: 'playing' }, 0, { phase: 'playing', currentTime: 3 });
    emit('phaseChanged', { phase: 'paused' }, 0, { phase: 'paused' });
    expect(sent.map(([name]) => name)).toEqual(['play', 'pause']);
    expect(sent[0][1]).toMatchObject({
      video_id: 12, video_title: 'Брат', duration: 100, player_type: 'embedded', current_time: 3, season: 1,
      episode: 1, device_type: 'desktop', user_id: 'u-1', isTrailer: '0', playback_rate: 1,
    });
  });

  it('sends the viewer\'s moves with their own fields', () => {
    const { emit, sent, names } = setup();
    emit('seek', { from: 10.123, to: 50 }, 0, { currentTime: 50 });
    emit('muteChanged', { muted: true });
    emit('muteChanged', { muted: false });
    emit('fullscreenChanged', { fullscreen: true });
    emit('fullscreenChanged', { fullscreen: false });
    emit('qualityChanged', { level: 1, label: '360p' });
    emit('menuClicked', { menu: 'quality', item: '360p' });
    emit('shareAction', { action: 'telegram' });
    emit('airplayClicked', {});
    expect(names()).toEqual(['seek', 'mute', 'unmute', 'fullscreen', 'fullscreen', 'quality_change', 'menu_click',
      'share', 'videoplayer_airplay_icon_click']);
    const by = (index: number) => sent[index][1];
    expect(by(0)).toMatchObject({ seek_from: 10.12, seek_to: 50, current_time: 50 });
    expect([by(3).fullscreen_state, by(4).fullscreen_state]).toEqual(['enter', 'exit']);
    expect(by(5)).toMatchObject({ video_quality: '360p', quality_level: 1 });
    expect(by(6)).toMatchObject({ menu_name: 'quality', menu_item: '360p' });
    expect(by(7)).toMatchObject({ share_action: 'telegram', video_id: 12 });
  });

  it('sends timeupdate every 60 s of playing, with the played times, never while paused', () => {
    const { emit, sent, names } = setup();
    emit('phaseChanged', { phase: 'playing' }, 0, { phase: 'playing' });
    playFor(emit, 0, 50);
    emit('phaseChanged', { phase: 'paused' }, 50_000, { phase: 'paused' });
    for (let at = 50_000; at < 200_000; at += 250) {
      emit('timeProgressChanged', { currentTime: 50, duration: 100 }, at, { phase: 'paused' }); // a paused player
    }
    expect(names()).not.toContain('timeupdate');
    emit('phaseChanged', { phase: 'playing' }, 200_000, { phase: 'playing' });
    playFor(emit, 50, 75, 200_000);
    const updates = sent.filter(([name]) => name === 'timeupdate').map(([, payload]) => payload);
    expect(updates.map((payload) => payload.real_time_played_sec)).toEqual([60, 120]);
    expect(updates[0].video_time_played_sec).toBe(60);
  });

  it('sends each milestone once per episode, a seek past several included, and 100 % at the end', () => {
    const { emit, sent } = setup();
    const progress = () => sent.filter(([name]) => name === 'progress').map(([, payload]) => payload.progress_perc);
    emit('timeProgressChanged', { currentTime: 12, duration: 100 }, 0, { currentTime: 12 });
    emit('seek', { from: 12, to: 80 }, 10, { currentTime: 80 });
    emit('timeProgressChanged', { currentTime: 80, duration: 100 }, 20, { currentTime: 80 });
    emit('seek', { from: 80, to: 30 }, 30, { currentTime: 30 });
    emit('timeProgressChanged', { currentTime: 60, duration: 100 }, 40, { currentTime: 60 });
    expect(progress()).toEqual([10, 25, 50, 75]);
    emit('timeProgressChanged', { currentTime: 99.9, duration: 100 }, 50, { currentTime: 99.9 });
    emit('phaseChanged', { phase: 'ended' }, 60, { phase: 'ended' });
    emit('phaseChanged', { phase: 'ended' }, 70, { phase: 'ended' });
    expect(progress()).toEqual([10, 25, 50, 75, 95, 100]);
    const hundred = sent.find(([name, payload]) => name === 'progress' && payload.progress_perc === 100);
    expect(hundred?.[1].episode).toBe(1);
    // the next episode starts over
    emit('episodeChanged', { episode: EPISODES[1] }, 80, { episodeId: 102, currentTime: 0 });
    emit('timeProgressChanged', { currentTime: 30, duration: 100 }, 90, { currentTime: 30 });
    expect(progress()).toEqual([10, 25, 50, 75, 95, 100, 10, 25]);
    expect(sent.at(-1)?.[1].episode).toBe(2);
  });

  it('sends no progress for the placeholder clip of content not available here', () => {
    const { emit, names } = setup({ isAvailable: false });
    emit('timeProgressChanged', { currentTime: 2, duration: 2 }, 0, { currentTime: 2 });
    emit('phaseChanged', { phase: 'ended' }, 0, { phase: 'ended' });
    expect(names()).toEqual([]);
  });

  it('sends an error with its type, the network class, the buffer ahead and the dropped frames', () => {
    const { emit, last } = setup();
    const error = playerError('network', ErrorCode.MEDIA_FATAL, 'hls.js networkError: fragLoadError');
    const media = { bandwidthBps: 4_000_000, droppedFrames: 4 }; // 500 KB/s
    emit('error', { error, media }, 0, { currentTime: 20, bufferedEnd: 26 });
    expect(last()).toMatchObject({
      error_type: 'network', error_code: 'MEDIA_FATAL', network_type: '3g', buffer_length: 6, fps_drop: 4,
    });
    emit('error', { error }, 0); // no engine estimate: the browser's downlink (10 Mbit/s = 1250 KB/s)
    expect(last()).toMatchObject({ network_type: '4g', fps_drop: null });
  });

  it('prefixes ad events, carries the ad history item, and sends ad_timeupdate at most once a second', () => {
    const { emit, sent, names } = setup();
    const ad = (name: PlayerEvents['adEvent']['name'], at: number, adTime = 0) =>
      emit('adEvent', { name, ad: AD, adTime, status: 'PLAYING' }, at);
    ad('ad_init', 0);
    ad('ad_play', 10);
    for (let at = 0; at < 3000; at += 250) ad('ad_timeupdate', 100 + at, at / 1000);
    ad('ad_skip_btn_click', 3200);
    expect(names()).toEqual(['videoplayer_ad_init', 'videoplayer_ad_play', 'videoplayer_ad_timeupdate',
      'videoplayer_ad_timeupdate', 'videoplayer_ad_timeupdate', 'videoplayer_ad_skip_btn_click']);
    const ticks = sent.filter(([name]) => name === 'videoplayer_ad_timeupdate').map(([, payload]) => payload);
    expect(ticks.map((payload) => payload.ad_current_time)).toEqual([0, 1, 2]);
    expect(sent[0][1]).toMatchObject({
      ad_id: 'house-1', ad_type: 'preroll', ad_duration_sec: 15, ad_position_perc: 0, ad_position: 1, video_id: 12,
    });
  });

  it('never throws into the player, whatever the page\'s function does', () => {
    const win = {
      navigator: { userAgent: 'Mozilla/5.0 (iPhone)', maxTouchPoints: 5 },
      stats: () => {
        throw new Error('publisher bug');
      },
    } as unknown as Window;
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const env = browserEnv('stats', win);
    expect(env.device).toBe('mobile');
    const session = createSession(makeContext(), [], env);
    const state = initialState(101, 1, false);
    expect(() => {
      session({ type: 'phaseChanged', payload: { phase: 'playing' }, state, at: 0 });
      session({ type: 'phaseChanged', payload: { phase: 'paused' }, state, at: 0 });
    }).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
