import { DEFAULTS } from '../core/defaults';
import { UiController } from './uiState';

describe('UiController', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    localStorage.clear();
  });

  it('keeps a double-tap seek on screen for 600 ms after the last seek, whatever else changes', () => {
    const ui = new UiController();
    ui.flashSeek(10);
    jest.advanceTimersByTime(400);
    ui.setControlsVisible(false); // other state changes do not restart or cancel it
    ui.flashSeek(10);
    jest.advanceTimersByTime(400);
    expect(ui.store.get().seekFlash).toBe(10);
    jest.advanceTimersByTime(200);
    expect(ui.store.get().seekFlash).toBeNull();
  });

  it('guards controls shown by a tap for a double tap\'s length, restarting with each reveal', () => {
    const ui = new UiController();
    ui.revealControlsByTap();
    expect(ui.store.get()).toMatchObject({ controlsVisible: true, tapGuard: true });
    jest.advanceTimersByTime(DEFAULTS.doubleTapMs - 100);
    ui.revealControlsByTap();
    jest.advanceTimersByTime(DEFAULTS.doubleTapMs - 1);
    expect(ui.store.get().tapGuard).toBe(true);
    jest.advanceTimersByTime(1);
    expect(ui.store.get()).toMatchObject({ controlsVisible: true, tapGuard: false });
    ui.revealControlsByTap();
    ui.dispose(); // no timer outlives the player
    expect(jest.getTimerCount()).toBe(0);
  });

  it("shows the captions sample for 2500 ms after a style change and remembers the style", () => {
    const ui = new UiController();
    ui.setCaptionStyle({ size: 1.5 });
    expect(ui.store.get().captionSample).toBe(true);
    jest.advanceTimersByTime(2499);
    expect(ui.store.get().captionSample).toBe(true);
    jest.advanceTimersByTime(1);
    expect(ui.store.get().captionSample).toBe(false);
    expect(new UiController().store.get().captionStyle).toEqual({ size: 1.5, color: 'white', background: 'semi' });
  });

  it('ignores a stored caption style that is not one it offers', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    jest.resetModules(); // a fresh page: core/storage has logged no failure yet
    const fresh = await import('./uiState');
    localStorage.setItem('player-caption-style', JSON.stringify({ size: 9, color: 'red', background: 'semi' }));
    expect(new fresh.UiController().store.get().captionStyle).toEqual({ size: 1, color: 'white', background: 'semi' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('storage invalid failed (player-caption-style)'), undefined);
    warn.mockRestore();
  });

  it('opens one menu at a time and closes the share popup when a menu opens', () => {
    const ui = new UiController();
    ui.setShareOpen(true);
    ui.openMenu('quality');
    expect(ui.store.get()).toMatchObject({ menu: 'quality', shareOpen: false });
    ui.toggleMenu('quality');
    expect(ui.store.get().menu).toBeNull();
  });
});
