// Keyboard control (spec §9) anywhere in the frame, except while typing or inside an open menu or popup: each key's
// intent (ui/keys) sent to the player.
import { useEffect } from 'react';
import type { PlayerIntents } from '../player/intents';
import { isTypingTarget, keyIntent, type KeyIntent } from './keys';
import type { UiController } from './uiState';

function runKeyIntent(intent: KeyIntent, controller: PlayerIntents): void {
  const state = controller.store.get();
  switch (intent.type) {
    case 'togglePlay':
      return controller.togglePlay();
    case 'seekBy':
      return controller.seekBy(intent.seconds);
    case 'seekTo':
      return controller.seekToFraction(intent.fraction);
    case 'volumeBy':
      return controller.changeVolume(intent.delta);
    case 'rateBy':
      return controller.changeRate(intent.delta);
    case 'toggleMute':
      return controller.setMuted(!state.muted);
    case 'toggleFullscreen':
      return controller.platform.toggleFullscreen();
    case 'toggleCaptions':
      return controller.tracks.setSubtitle(state.subtitle >= 0 ? -1 : 0);
  }
}

export function useKeyboard(controller: PlayerIntents, ui: UiController) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      if (ui.store.get().menu || ui.store.get().shareOpen) {
        if (event.key === 'Escape') ui.openMenu(null);
        return;
      }
      const target = event.target as HTMLElement | null;
      const onButton = target?.closest?.('button, a, [role^="menuitem"]');
      if (onButton && (event.key === ' ' || event.key === 'Enter')) return; // the focused control's own activation
      const onVolume = target instanceof HTMLInputElement && target.classList.contains('player__volume-input');
      if (onVolume && /^(Arrow|Page|Home|End)/.test(event.key)) return; // the focused volume slider moves itself
      const intent = keyIntent(event);
      if (!intent || controller.store.get().phase === 'error') return;
      event.preventDefault();
      runKeyIntent(intent, controller);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [controller, ui]);
}
