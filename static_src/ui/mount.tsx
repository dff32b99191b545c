// The interface chunk: React and the player's components, mounted over the shell's markup with no visible jump.
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { PlayerContext } from '../context';
import type { PlayerController } from '../player/controller';
import { Player } from './Player';

interface Mount {
  context: PlayerContext;
  controller: PlayerController;
  container: HTMLElement; // #player: its data attributes drive the stylesheet
  root: HTMLElement; // #player-ui: what React renders into
}

export function mountUi({ context, controller, container, root }: Mount): void {
  const hadFocus = document.activeElement?.hasAttribute('data-player-start') ?? false;
  flushSync(() => createRoot(root).render(<Player context={context} controller={controller} container={container} />));
  document.documentElement.classList.remove('player-starting');
  if (hadFocus) root.querySelector<HTMLElement>('[data-player-start]')?.focus();
}
