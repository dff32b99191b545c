// The interface emits what analytics reports (menu clicks, share actions, AirPlay) and nothing more.
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { PlayerEvents } from '../core/events';
import { PlayerController } from '../player/controller';
import { makeContext } from '../test/fixtures';
import { Player } from './Player';

jest.mock('../player/engine', () => ({ attachSource: jest.fn() })); // never load hls.js here
const showPicker = jest.fn();

function renderPlaying() {
  const context = makeContext();
  const controller = new PlayerController(context, 'https://player.example/');
  const container = document.createElement('div');
  // a Safari video element: AirPlay's target picker
  const video = Object.assign(document.createElement('video'), { webkitShowPlaybackTargetPicker: showPicker });
  const root = document.createElement('div');
  container.append(video, root);
  document.body.append(container);
  controller.attach(video);
  render(<Player context={context} controller={controller} container={container} />, { container: root });
  // playing, in a browser that has an AirPlay target (the controller's platform watch reports it)
  act(() => controller.store.set({ phase: 'playing', started: true, duration: 100, canAirplay: true }));
  const seen: Array<[string, unknown]> = [];
  const types: Array<keyof PlayerEvents> = ['menuClicked', 'shareAction', 'airplayClicked'];
  for (const type of types) controller.events.on(type, (payload) => seen.push([type, payload]));
  return { controller, seen, container };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('analytics intents of the interface', () => {
  it("emits each menu item clicked with its menu's name and the item's label", () => {
    const { seen } = renderPlaying();
    fireEvent.click(screen.getByRole('button', { name: 'Настройки' }));
    fireEvent.click(screen.getByRole('menuitem', { name: /Скорость/ }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: '1.5×' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Закрыть' }));
    expect(seen).toEqual([
      ['menuClicked', { menu: 'main', item: 'Скорость' }],
      ['menuClicked', { menu: 'playback-rate', item: '1.5×' }],
      ['menuClicked', { menu: 'main', item: 'close' }],
    ]);
  });

  it('emits the share popup actions: open, the time code, copy, close', () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const { seen } = renderPlaying();
    fireEvent.click(screen.getByRole('button', { name: 'Поделиться' }));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Копировать' }));
    fireEvent.click(screen.getByRole('button', { name: 'Закрыть' }));
    expect(seen.map(([, payload]) => (payload as { action: string }).action)).toEqual([
      'open', 'timecode_on', 'timecode_off', 'copy', 'close',
    ]);
    expect(seen.every(([type]) => type === 'shareAction')).toBe(true);
    expect(writeText).toHaveBeenCalledTimes(1);
  });

  it('emits the AirPlay click, and opens the picker', () => {
    const { seen } = renderPlaying();
    fireEvent.click(screen.getByRole('button', { name: 'AirPlay' }));
    expect(seen).toEqual([['airplayClicked', {}]]);
    expect(showPicker).toHaveBeenCalledTimes(1);
  });
});
