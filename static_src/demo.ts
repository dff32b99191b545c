// The demo publisher page: embeds the player through /lib.js (window.PlayerHost, loaded by the page before this
// module), as a publisher would, shows every message it posts and sends it commands.
import './demo.css';
import type * as Lib from './embed/lib';

declare global {
  interface Window {
    PlayerHost?: typeof Lib;
  }
}

const EVENTS: Lib.PlayerEventType[] = ['ready', 'enterFullScreen', 'exitFullScreen', 'episodeChanged', 'timeProgressChanged'];
const MAX_ROWS = 200;

const form = document.querySelector<HTMLFormElement>('[data-demo-form]');
const slot = document.querySelector<HTMLElement>('[data-demo-frame]');
const commands = document.querySelector<HTMLFormElement>('[data-demo-commands]');
const log = document.querySelector<HTMLOListElement>('[data-demo-messages]');
let player: Lib.EmbeddedPlayer | null = null;

function whole(value: FormDataEntryValue | null): number | undefined {
  const number = Number.parseInt(String(value ?? ''), 10);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** The form's fields as lib.js options; fields marked data-demo-param go through as they are (the viewer's country). */
function optionsOf(fields: HTMLFormElement): Lib.PlayerOptions {
  const data = new FormData(fields);
  const params: Record<string, string> = {};
  for (const input of fields.querySelectorAll<HTMLInputElement>('[data-demo-param]')) {
    if (input.value.trim()) params[input.name] = input.value.trim();
  }
  return {
    movieId: whole(data.get('movie_id')) ?? 1,
    season: whole(data.get('season')),
    episode: whole(data.get('episode')),
    episodeId: whole(data.get('episode_id')),
    t: whole(data.get('t')),
    autoPlay: data.has('auto_play'),
    enabledShare: data.has('enabled_share'),
    params,
  };
}

function record(type: string, payload: unknown): void {
  if (!log) return;
  const row = document.createElement('li');
  row.dataset.type = type;
  row.textContent = `${new Date().toLocaleTimeString('ru-RU')}  ${type}  ${JSON.stringify(payload)}`;
  log.prepend(row);
  while (log.children.length > MAX_ROWS) log.lastElementChild?.remove();
}

function show(): void {
  const host = window.PlayerHost;
  if (!host || !form || !slot) return;
  player?.destroy();
  player = host.createPlayer(slot, optionsOf(form));
  for (const type of EVENTS) player.on(type, (payload) => record(type, payload));
}

form?.addEventListener('submit', (event) => {
  event.preventDefault();
  show();
});

commands?.addEventListener('click', (event) => {
  const button = (event.target as Element | null)?.closest<HTMLButtonElement>('[data-demo-command]');
  if (!button || !player || !commands) return;
  const data = new FormData(commands);
  switch (button.dataset.demoCommand) {
    case 'play':
      return player.play();
    case 'pause':
      return player.pause();
    case 'seek':
      return player.seek(Number.parseFloat(String(data.get('time'))) || 0);
    case 'setEpisode':
      return player.setEpisode(whole(data.get('episodeId')) ?? 0);
  }
});

show();
