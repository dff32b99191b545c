// The interface chunk: React and the player's components, mounted over the shell's markup with no visible jump.
import { startTransition, useLayoutEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import type { PlayerContext } from '../context';
import type { PlayerIntents } from '../player/intents';
import { Player } from './Player';

interface Mount {
  context: PlayerContext;
  controller: PlayerIntents;
  container: HTMLElement; // #player: its data attributes drive the stylesheet
  root: HTMLElement; // #player-ui: what React renders into
  onCommit?(): void; // the tree is on screen and its handlers answer: whatever served the shell until now stands down
}

/** Runs `onCommit` once the tree is on screen (a transition commits later than render() returns). */
function Committed({ onCommit, children }: { onCommit(): void; children: ReactNode }) {
  useLayoutEffect(() => onCommit(), [onCommit]);
  return children;
}

export function mountUi({ context, controller, container, root, onCommit: committed }: Mount): void {
  const hadFocus = document.activeElement?.hasAttribute('data-player-start') ?? false;
  // A transition: React renders in slices of a few milliseconds instead of one long task, then swaps the shell's
  // markup for its identical own in one commit.
  const onCommit = () => {
    document.documentElement.classList.remove('player-starting');
    if (hadFocus) root.querySelector<HTMLElement>('[data-player-start]')?.focus();
    committed?.();
  };
  const ui = (
    <Committed onCommit={onCommit}>
      <Player context={context} controller={controller} container={container} />
    </Committed>
  );
  startTransition(() => createRoot(root).render(ui));
}
