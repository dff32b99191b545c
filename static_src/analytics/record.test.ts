import { DEFAULTS } from '../core/defaults';
import { Emitter, type PlayerEvents } from '../core/events';
import { createStore } from '../core/store';
import type { PlayerController } from '../player/controller';
import { initialState } from '../player/state';
import { makeContext } from '../test/fixtures';
import { recordAnalytics, RECORDED, type AnalyticsEvent } from './record';

function fakeController() {
  return {
    events: new Emitter<PlayerEvents>(),
    store: createStore(initialState(101, 1, false)),
    episodes: [],
  } as unknown as PlayerController;
}

const WITH_STATS = makeContext({ config: { ...makeContext().config, statisticsFunction: 'sendStatistics' } });

describe('recordAnalytics', () => {
  it('does nothing at all without a statistics function', () => {
    const controller = fakeController();
    const on = jest.spyOn(controller.events, 'on');
    const load = jest.fn();
    expect(recordAnalytics(makeContext(), controller, load)).toBeNull();
    expect(on).not.toHaveBeenCalled();
    expect(load).not.toHaveBeenCalled();
  });

  it('notes events with the state and time of their moment, then replays them to the session in order', async () => {
    const controller = fakeController();
    let clock = 100;
    const received: AnalyticsEvent[] = [];
    const startSession = jest.fn(() => (event: AnalyticsEvent) => received.push(event));
    const recorder = recordAnalytics(WITH_STATS, controller, () => Promise.resolve({ startSession }), () => clock);
    controller.store.set({ phase: 'playing', currentTime: 1 });
    controller.events.emit('phaseChanged', { phase: 'playing' });
    clock = 5000;
    controller.store.set({ currentTime: 4.9 });
    controller.events.emit('timeProgressChanged', { currentTime: 4.9, duration: 100 });
    expect(startSession).not.toHaveBeenCalled(); // nothing but the note before the load
    await recorder?.load();
    expect(startSession).toHaveBeenCalledWith(WITH_STATS, controller, 'sendStatistics');
    expect(received.map((event) => [event.type, event.state.currentTime, event.at])).toEqual([
      ['phaseChanged', 1, 100],
      ['timeProgressChanged', 4.9, 5000],
    ]);
    controller.store.set({ currentTime: 50 });
    controller.events.emit('seek', { from: 4.9, to: 50 }); // from now on, in idle time, with the state of its moment
    controller.store.set({ currentTime: 52 });
    expect(received.at(-1)?.type).toBe('timeProgressChanged');
    await new Promise((resolve) => setTimeout(resolve, 0)); // jsdom has no requestIdleCallback: whenIdle's timer
    expect(received.at(-1)).toMatchObject({ type: 'seek', state: { currentTime: 50 } });
    await recorder?.load(); // once
    expect(startSession).toHaveBeenCalledTimes(1);
  });

  it('listens to every event the analytics reports', () => {
    const controller = fakeController();
    const on = jest.spyOn(controller.events, 'on');
    recordAnalytics(WITH_STATS, controller, jest.fn());
    expect(on.mock.calls.map(([type]) => type)).toEqual([...RECORDED]);
  });

  it('keeps at most DEFAULTS.analyticsBufferMax events before the load', async () => {
    const controller = fakeController();
    const received: AnalyticsEvent[] = [];
    const recorder = recordAnalytics(WITH_STATS, controller, () =>
      Promise.resolve({ startSession: () => (event: AnalyticsEvent) => received.push(event) }));
    for (let i = 0; i < DEFAULTS.analyticsBufferMax + 50; i += 1) {
      controller.events.emit('timeProgressChanged', { currentTime: i, duration: 1000 });
    }
    await recorder?.load();
    expect(received).toHaveLength(DEFAULTS.analyticsBufferMax);
  });

  it('drops everything, with a warning, when the chunk does not load', async () => {
    const controller = fakeController();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const recorder = recordAnalytics(WITH_STATS, controller, () => Promise.reject(new Error('offline')));
    controller.events.emit('phaseChanged', { phase: 'playing' });
    await recorder?.load();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(() => controller.events.emit('phaseChanged', { phase: 'paused' })).not.toThrow();
    warn.mockRestore();
  });

  it('hands over what is still waiting for idle time when the page goes away', async () => {
    const controller = fakeController();
    const received: AnalyticsEvent[] = [];
    const recorder = recordAnalytics(WITH_STATS, controller, () =>
      Promise.resolve({ startSession: () => (event: AnalyticsEvent) => received.push(event) }));
    await recorder?.load();
    controller.events.emit('phaseChanged', { phase: 'paused' });
    expect(received).toEqual([]);
    dispatchEvent(new Event('pagehide'));
    expect(received.map((event) => event.type)).toEqual(['phaseChanged']);
    recorder?.stop();
  });

  it('stops listening on stop()', async () => {
    const controller = fakeController();
    const received: AnalyticsEvent[] = [];
    const recorder = recordAnalytics(WITH_STATS, controller, () =>
      Promise.resolve({ startSession: () => (event: AnalyticsEvent) => received.push(event) }));
    await recorder?.load();
    controller.events.emit('phaseChanged', { phase: 'playing' }); // waiting for idle time when stop() comes
    recorder?.stop();
    controller.events.emit('phaseChanged', { phase: 'paused' });
    dispatchEvent(new Event('pagehide'));
    await new Promise((resolve) => setTimeout(resolve, 0)); // whenIdle's timer in jsdom
    expect(received).toEqual([]);
  });
});
