import { act, fireEvent, render, screen } from '@testing-library/react';
import { ErrorCode, playerError } from '../core/errors';
import { PlayerController } from '../player/controller';
import { makeContent, makeContext, makeEpisode } from '../test/fixtures';
import { Player } from './Player';
import { reflectPhase } from '../shell/state';

jest.mock('../player/engine', () => ({ attachSource: jest.fn() })); // never load hls.js here

function renderPlayer(context = makeContext()) {
  const controller = new PlayerController(context, 'https://player.example/');
  const start = jest.spyOn(controller, 'start').mockResolvedValue(undefined);
  const reset = jest.spyOn(controller, 'reset');
  const container = document.createElement('div');
  container.className = 'player';
  const video = document.createElement('video'); // the shell's video, attached by the entry before React mounts
  const root = document.createElement('div');
  container.append(video, root);
  document.body.append(container);
  controller.attach(video);
  reflectPhase(container, controller.store); // what the entry does before the interface mounts
  render(<Player context={context} controller={controller} container={container} />, { container: root });
  return { controller, container, start, reset, video };
}

describe('Player', () => {
  it('renders the poster, the title and the start button named after the title', () => {
    const { container } = renderPlayer();

    expect(container.querySelector('img.player__poster-img')?.getAttribute('src')).toBe(
      'https://img.example/posters/12.jpg',
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Брат');
    expect(screen.getByRole('button', { name: 'Смотреть: Брат' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull(); // no spinner while idle
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('renders no poster image when the content has none', () => {
    const { container } = renderPlayer(makeContext({ content: makeContent({ posterUrl: null }) }));
    expect(container.querySelector('img')).toBeNull();
  });

  it('shows season and episode under the title of a series', () => {
    const episode = makeEpisode({ id: 5, order: 3, title: 'Развязка', season: { id: 2, order: 2 } });
    renderPlayer(
      makeContext({ content: makeContent({ hasMultipleEpisodes: true }), episodes: [episode], episodeId: 5 }),
    );

    expect(screen.getByText('Сезон 2, серия 3. Развязка')).toBeTruthy();
  });

  it('renders no video of its own: the shell keeps the one the entry attached', () => {
    const { container, video } = renderPlayer();
    expect(container.querySelectorAll('video')).toHaveLength(1);
    expect(container.querySelector('video')).toBe(video);
  });

  it('calls controller.start when the start button is clicked', () => {
    const { start } = renderPlayer();

    fireEvent.click(screen.getByRole('button', { name: 'Смотреть: Брат' }));

    expect(start).toHaveBeenCalledTimes(1);
  });

  it('keeps the container data-state in step with the phase', () => {
    const { controller, container } = renderPlayer();
    expect(container.dataset.state).toBe('idle');

    act(() => controller.store.set({ phase: 'loading', started: true }));
    expect(container.dataset.state).toBe('loading');
    expect(screen.getByRole('status', { name: 'Загрузка' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Смотреть: Брат' })).toBeNull();

    act(() => controller.store.set({ phase: 'playing' }));
    expect(container.dataset.state).toBe('playing');
    expect(screen.queryByRole('status')).toBeNull();

    act(() => controller.store.set({ phase: 'paused' }));
    expect(container.dataset.state).toBe('paused');
    expect(screen.getByRole('button', { name: 'Воспроизвести: Брат' })).toBeTruthy(); // the overlay comes back
  });

  it('names the address on a master load error, with no reload button', () => {
    const { controller, container } = renderPlayer();
    const address = 'https://player.example/media/content/12/master.json';

    act(() =>
      controller.store.set({
        phase: 'error',
        error: playerError('network', ErrorCode.MASTER_LOAD_FAILED, 'HTTP 404', { address }),
      }),
    );

    expect(container.dataset.state).toBe('error');
    const alert = screen.getByRole('alert');
    expect(alert.querySelector('.player__error-text')?.textContent).toBe(`Ошибка в загрузке: ${address}`);
    expect(alert.querySelector('.player__error-id')?.textContent).toMatch(/^Идентификатор ошибки: [0-9a-f]{16}$/);
    expect(screen.queryByRole('button', { name: 'Перезагрузить страницу' })).toBeNull();
  });

  it('shows the error id and a reload button that resets the controller on any other error', () => {
    const { controller, reset } = renderPlayer();
    const error = playerError('media', ErrorCode.MEDIA_FATAL, 'hls.js mediaError: bufferStalledError');

    act(() => controller.store.set({ phase: 'error', error }));

    expect(screen.getByRole('alert').textContent).toContain(`Идентификатор ошибки: ${error.id}`);
    fireEvent.click(screen.getByRole('button', { name: 'Перезагрузить страницу' }));

    expect(reset).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).toBeNull(); // the real reset() brought the start overlay back
    expect(screen.getByRole('button', { name: 'Смотреть: Брат' })).toBeTruthy();
  });

  it.each([
    [ErrorCode.HTTP_404, 'Контент не доступен'],
    [
      ErrorCode.BLOCKED,
      'Извините, данный контент недоступен в вашей стране. Если вы используете VPN, мы рекомендуем отключить его или сменить страну.',
    ],
  ])('shows the spec text for %s, and no reload button', (code, text) => {
    const { controller } = renderPlayer();
    act(() => controller.store.set({ phase: 'error', error: playerError('content', code, 'x') }));
    expect(screen.getByRole('alert').querySelector('.player__error-text')?.textContent).toBe(text);
    expect(screen.queryByRole('button', { name: 'Перезагрузить страницу' })).toBeNull();
    // a fault's id, for a report; none on the blocked screen, a licence's answer the viewer cannot act on
    expect(screen.getByRole('alert').querySelector('.player__error-id') !== null).toBe(code !== ErrorCode.BLOCKED);
  });
});

describe('Player menus and popups', () => {
  const series = () => {
    const episodes = [1, 2, 3].map((order) =>
      makeEpisode({ id: 200 + order, order, title: `Серия ${order}`, season: { id: 9, order: 1 } }),
    );
    return makeContext({ content: makeContent({ hasMultipleEpisodes: true }), episodes, episodeId: 201, seasons: [{ id: 9, order: 1, title: null }] });
  };

  function playing(context = makeContext()) {
    const rendered = renderPlayer(context);
    act(() => rendered.controller.store.set({ phase: 'playing', started: true }));
    return rendered;
  }

  it('opens one menu at a time; back returns to main; Escape and close shut it', () => {
    const { container } = playing(series());
    fireEvent.click(screen.getByRole('button', { name: 'Настройки' }));
    expect(screen.getByRole('menu', { name: 'Настройки' })).toBeTruthy();

    fireEvent.click(screen.getByRole('menuitem', { name: /Скорость/ }));
    expect(screen.getAllByRole('menu')).toHaveLength(1);
    const rates = screen.getAllByRole('menuitemradio').map((item) => item.textContent);
    expect(rates).toEqual(['0.25×', '0.5×', '0.75×', 'Обычная', '1.25×', '1.5×', '1.75×', '2×']);
    expect(screen.getByRole('menuitemradio', { name: 'Обычная' }).getAttribute('aria-checked')).toBe('true');

    fireEvent.click(screen.getByRole('menuitem', { name: 'Скорость' })); // the back button carries the menu's name
    expect(screen.getByRole('menu', { name: 'Настройки' })).toBeTruthy();

    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Серии' }));
    expect(container.querySelector('[data-menu="episodes"]')).not.toBeNull();
    expect(screen.getAllByRole('menuitemradio').map((item) => item.textContent)).toEqual(['1. Серия 1', '2. Серия 2', '3. Серия 3']);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Закрыть' }));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('sends the chosen episode to the controller and closes the menu', () => {
    const { controller } = playing(series());
    const select = jest.spyOn(controller, 'selectEpisode').mockResolvedValue(true);
    fireEvent.click(screen.getByRole('button', { name: 'Серии' }));
    fireEvent.click(screen.getByRole('menuitemradio', { name: '3. Серия 3' }));
    expect(select).toHaveBeenCalledWith(203);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('offers sharing only when the context enables it', () => {
    playing(makeContext({ isEnabledShare: false }));
    expect(screen.queryByRole('button', { name: 'Поделиться' })).toBeNull();
  });

  it('opens the share popup with the five services', () => {
    playing(makeContext({ isEnabledShare: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Поделиться' }));
    const dialog = screen.getByRole('dialog', { name: 'Поделиться' });
    const links = Array.from(dialog.querySelectorAll('a')).map((link) => [link.textContent, link.rel, link.target]);
    expect(links).toEqual(
      ['Telegram', 'WhatsApp', 'Facebook', 'X', 'VK'].map((name) => [name, 'noopener noreferrer', '_blank']),
    );
  });

  it("offers the 'stopped here' prompt from the saved progress and starts over from 0", () => {
    localStorage.setItem('episodesTimeProgress', JSON.stringify({ 101: 125 }));
    try {
      const { start } = renderPlayer();
      expect(screen.getByText('Вы остановились на 0:02:05')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Продолжить' }));
      expect(start).toHaveBeenLastCalledWith(125);
      fireEvent.click(screen.getByRole('button', { name: 'Начать сначала' }));
      expect(start).toHaveBeenLastCalledWith(0);
    } finally {
      localStorage.clear();
    }
  });

  it('shows the next-episode card over the last seconds of an episode', () => {
    const { controller } = playing(series());
    act(() => controller.store.set({ duration: 60, currentTime: 40 }));
    expect(screen.queryByRole('region', { name: 'Следующая серия' })).toBeNull();
    act(() => controller.store.set({ currentTime: 52 }));
    const playNext = jest.spyOn(controller, 'playNext').mockResolvedValue(true);
    fireEvent.click(screen.getByRole('button', { name: 'Смотреть следующую серию' }));
    expect(playNext).toHaveBeenCalledTimes(1);
  });
});

