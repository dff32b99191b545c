import { createStore } from '../core/store';
import { initialState, type PlayerState } from '../player/state';
import { createVideo, reflectPhase } from './state';

describe('reflectPhase', () => {
  it("writes the controller's phase to the container at once and on every change, until stopped", () => {
    const store = createStore<PlayerState>(initialState(1));
    const container = document.createElement('main');
    container.dataset.state = 'stale';

    const stop = reflectPhase(container, store);
    expect(container.dataset.state).toBe('idle');
    store.set({ phase: 'loading' });
    expect(container.dataset.state).toBe('loading');
    store.set({ phase: 'playing' });
    expect(container.dataset.state).toBe('playing');

    stop();
    store.set({ phase: 'paused' });
    expect(container.dataset.state).toBe('playing');
  });
});

describe('createVideo', () => {
  it('makes an inline, unloaded, CORS-enabled <video> without controls, labelled with the title', () => {
    const video = createVideo('Фильм');
    expect(video.isConnected).toBe(false);
    expect(video.className).toBe('player__video');
    expect(video.playsInline).toBe(true);
    expect(video.getAttribute('preload')).toBe('none');
    expect(video.getAttribute('crossorigin')).toBe('anonymous');
    expect(video.getAttribute('aria-label')).toBe('Фильм');
    expect(video.controls).toBe(false);
  });
});
