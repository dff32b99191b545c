// The demo publisher page: shows every message the player posts to its parent window.
import './demo.css';

const frame = document.querySelector<HTMLIFrameElement>('iframe[name="player-frame"]');
const log = document.querySelector<HTMLOListElement>('[data-demo-messages]');
const MAX_ROWS = 200;

window.addEventListener('message', (event: MessageEvent) => {
  // Only the player's frame, from the player's origin (this page embeds the player of its own server).
  if (!frame || !log || event.source !== frame.contentWindow || event.origin !== window.location.origin) return;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || (data as { source?: unknown }).source !== 'player') return;
  const { type, payload } = data as { type: unknown; payload: unknown };
  const row = document.createElement('li');
  row.dataset.type = String(type);
  row.textContent = `${new Date().toLocaleTimeString('ru-RU')}  ${String(type)}  ${JSON.stringify(payload)}`;
  log.prepend(row);
  while (log.children.length > MAX_ROWS) log.lastElementChild?.remove();
});
