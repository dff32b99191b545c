import { act, fireEvent, render, screen } from '@testing-library/react';
import { ErrorCode, playerError } from '../core/errors';
import { PlayerController } from '../player/controller';
import { makeContent, makeContext, makeEpisode } from '../test/fixtures';
import { Player } from './Player';

jest.mock('../player/engine', () => ({ attachSource: jest.fn() })); // never load hls.js here

function renderPlayer(context = makeContext()) {
  const controller = new PlayerController(context, 'https://player.example/');
  const start = jest.spyOn(controller, 'start').mockResolvedValue(undefined);
  const reset = jest.spyOn(controller, 'reset');
  const attach = jest.spyOn(controller, 'attach');
  const container = document.createElement('div');
  container.className = 'player';
  document.body.append(container);
  render(<Player context={context} controller={controller} container={container} />, { container });
  return { controller, container, start, reset, attach };
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

  it('attaches the rendered video element to the controller', () => {
    const { container, attach } = renderPlayer();
    expect(attach).toHaveBeenCalledWith(container.querySelector('video'));
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
    expect(screen.getByRole('button', { name: 'Смотреть: Брат' })).toBeTruthy();
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
    expect(screen.getByRole('alert').textContent).toBe(`Ошибка в загрузке: ${address}`);
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
});
