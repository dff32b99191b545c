// The player entry: reads the server's context, mounts the island over the shell, and plays on request.
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createApiClient, progressApi } from './api/client';
import { readContext } from './context';
import { connectParent } from './embed/bridge';
import { setLanguage } from './i18n';
import { PlayerController } from './player/controller';
import { preloadEngine } from './player/engine';
import { Player } from './ui/Player';
import './styles/controls.css';

/** The controls' stylesheet, preloaded by the page without blocking its first paint, applied now. */
function applyStyles(): void {
  for (const preload of document.querySelectorAll<HTMLLinkElement>('link[data-player-styles]')) {
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = preload.href;
    document.head.append(sheet);
  }
}

function mount(): void {
  const container = document.getElementById('player');
  const context = readContext();
  if (!container || !context || container.dataset.state === 'error') return; // server-rendered screens stay
  applyStyles();
  setLanguage(document.documentElement.lang || 'ru');
  preloadEngine(); // the hls.js chunk starts downloading now, off the first paint's path

  const api = progressApi(createApiClient(context.config.baseUrl || window.location.origin), context.content.id);
  const controller = new PlayerController(context, document.baseURI, api);
  connectParent(controller.events);
  const hadFocus = document.activeElement?.hasAttribute('data-player-start') ?? false;
  const root = createRoot(container);
  // Committed synchronously, so the video element is attached before a remembered click is honoured.
  flushSync(() => root.render(<Player context={context} controller={controller} container={container} />));

  window.__playerMounted = true; // the page's early click handler stands down
  document.documentElement.classList.remove('player-starting');
  if (hadFocus) container.querySelector<HTMLElement>('[data-player-start]')?.focus();
  if (window.__playerStartRequested || context.autoPlay) void controller.start();
}

mount();
