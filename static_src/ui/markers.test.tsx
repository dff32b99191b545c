import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { PlayerController } from '../player/controller';
import { installFetch, jsonResponse, makeContent, makeContext, makeEpisode } from '../test/fixtures';
import { Player } from './Player';

jest.mock('../player/engine', () => ({ attachSource: jest.fn() })); // never load hls.js here

// jsdom has no PointerEvent: a mouse event with a pointer type stands in (React reads clientX and pointerType)
class PointerEventStub extends MouseEvent {
  readonly pointerType: string;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerType = init.pointerType ?? 'mouse';
  }
}
beforeAll(() => {
  (window as { PointerEvent?: unknown }).PointerEvent ??= PointerEventStub;
});

const MAP = 'WEBVTT\n\n00:00.000 --> 00:10.000\nsb.jpg#xywh=0,0,160,90\n\n00:10.000 --> 00:20.000\nsb.jpg#xywh=160,0,160,90\n';

function series() {
  const episodes = [
    makeEpisode({ id: 201, order: 1, title: 'Серия 1', season: { id: 9, order: 1 }, introStart: 5, introEnd: 25, creditsStart: 40 }),
    makeEpisode({ id: 202, order: 2, title: 'Серия 2', season: { id: 9, order: 1 } }),
  ];
  return makeContext({ content: makeContent({ hasMultipleEpisodes: true }), episodes, episodeId: 201, seasons: [{ id: 9, order: 1, title: null }] });
}

function playing() {
  const context = series();
  const controller = new PlayerController(context, 'https://player.example/');
  const container = document.createElement('div');
  const video = document.createElement('video');
  const root = document.createElement('div');
  container.append(video, root);
  document.body.append(container);
  controller.attach(video);
  render(<Player context={context} controller={controller} container={container} />, { container: root });
  act(() => controller.store.set({ phase: 'playing', started: true, duration: 60 }));
  return { controller, container };
}

const skip = () => screen.queryByRole('button', { name: 'Пропустить заставку' });

describe('«Пропустить заставку»', () => {
  it('shows inside the intro only, and its click seeks to the intro end', () => {
    const { controller } = playing();
    act(() => controller.store.set({ currentTime: 4 }));
    expect(skip()).toBeNull();
    act(() => controller.store.set({ currentTime: 5 }));
    const seek = jest.spyOn(controller, 'seek').mockImplementation(() => undefined);
    fireEvent.click(skip()!);
    expect(seek).toHaveBeenCalledWith(25);
    act(() => controller.store.set({ currentTime: 25 }));
    expect(skip()).toBeNull();
  });

  it('is not shown under an ad', () => {
    const { controller } = playing();
    act(() => controller.store.set({ currentTime: 10, ad: 'playing' }));
    expect(skip()).toBeNull();
    act(() => controller.store.set({ ad: null }));
    expect(skip()).not.toBeNull();
  });
});

describe('the next-episode card', () => {
  it('shows from the credits of an episode that has them', () => {
    const { controller } = playing();
    act(() => controller.store.set({ currentTime: 39 }));
    expect(screen.queryByRole('region', { name: 'Следующая серия' })).toBeNull();
    act(() => controller.store.set({ currentTime: 40 }));
    expect(screen.getByRole('region', { name: 'Следующая серия' })).toBeTruthy();
  });
});

describe('seek thumbnails', () => {
  it('load at the first hover and show the tile for the time under the pointer', async () => {
    const fetch = jest.fn((address: string) =>
      Promise.resolve(
        address.endsWith('.json')
          ? jsonResponse({ sources: [], storyboard: 'storyboard/map.vtt' })
          : ({ ok: true, status: 200, text: () => Promise.resolve(MAP) } as Response),
      ),
    );
    const restore = installFetch(fetch);
    try {
      const { container } = playing();
      const bar = container.querySelector<HTMLInputElement>('.player__seek-input')!;
      bar.getBoundingClientRect = () => ({ left: 0, width: 600, top: 0, height: 10, right: 600, bottom: 10 }) as DOMRect;
      expect(fetch).not.toHaveBeenCalled();
      fireEvent.pointerMove(bar, { clientX: 150, pointerType: 'mouse' }); // a quarter: 15 s of 60
      const frame = await waitFor(() => {
        const found = container.querySelector<HTMLElement>('.player__thumbnail-frame');
        expect(found).not.toBeNull();
        return found!;
      });
      expect(frame.style.backgroundImage).toContain('/media/content/12/storyboard/sb.jpg');
      expect(frame.style.backgroundPosition).toBe('-160px 0px');
      expect(screen.getByRole('img', { name: 'Кадр на 0:00:15' })).toBeTruthy();
      fireEvent.pointerLeave(bar, { pointerType: 'mouse' });
      expect(container.querySelector('.player__thumbnail')).toBeNull();
      expect(fetch).toHaveBeenCalledTimes(2); // the master, then the map
    } finally {
      restore();
    }
  });

  it('follow the finger while it drags the bar, and go when it lifts', async () => {
    const fetch = jest.fn((address: string) =>
      Promise.resolve(
        address.endsWith('.json')
          ? jsonResponse({ sources: [], storyboard: 'storyboard/map.vtt' })
          : ({ ok: true, status: 200, text: () => Promise.resolve(MAP) } as Response),
      ),
    );
    const restore = installFetch(fetch);
    try {
      const { container, controller } = playing();
      jest.spyOn(controller, 'seek').mockImplementation(() => undefined);
      const bar = container.querySelector<HTMLInputElement>('.player__seek-input')!;
      bar.getBoundingClientRect = () => ({ left: 0, width: 600, top: 0, height: 10, right: 600, bottom: 10 }) as DOMRect;
      fireEvent.pointerMove(bar, { clientX: 300, pointerType: 'touch' }); // a finger not down: nothing
      expect(container.querySelector('.player__thumbnail')).toBeNull();
      fireEvent.pointerDown(bar, { clientX: 30, pointerType: 'touch' }); // 3 s: the first tile
      await waitFor(() => expect(screen.getByRole('img', { name: 'Кадр на 0:00:03' })).toBeTruthy());
      fireEvent.change(bar, { target: { value: '12' } }); // the range follows the finger
      const frame = container.querySelector<HTMLElement>('.player__thumbnail-frame')!;
      expect(frame.style.backgroundPosition).toBe('-160px 0px');
      expect(screen.getByRole('img', { name: 'Кадр на 0:00:12' })).toBeTruthy();
      fireEvent.pointerLeave(bar, { pointerType: 'touch' }); // the finger left the bar's box but still drags
      expect(container.querySelector('.player__thumbnail')).not.toBeNull();
      fireEvent.pointerUp(bar, { pointerType: 'touch' });
      expect(container.querySelector('.player__thumbnail')).toBeNull();
    } finally {
      restore();
    }
  });
});
