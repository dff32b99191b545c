// Controls that hide when idle (spec §9): 2000 ms after the last activity, only while playing and with no menu open.
import { useEffect } from 'react';
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import type { PlayerIntents } from '../player/intents';
import type { UiController } from './uiState';

export function useIdleControls(controller: PlayerIntents, ui: UiController, container: HTMLElement, pinned: boolean) {
  useEffect(() => {
    const disposer = new Disposer();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      if (pinned || controller.store.get().phase !== 'playing') return;
      timer = setTimeout(() => ui.setControlsVisible(false), DEFAULTS.controlsHideMs);
    };
    const wake = () => {
      ui.setControlsVisible(true);
      schedule();
    };
    disposer.listen(container, 'pointermove', wake);
    disposer.listen(container, 'focusin', wake);
    disposer.listen(document, 'keydown', wake);
    disposer.add(controller.store.subscribe(() => {
      if (controller.store.get().phase !== 'playing') ui.setControlsVisible(true);
    }));
    disposer.add(controller.events.on('phaseChanged', () => schedule()));
    disposer.add(() => clearTimeout(timer));
    schedule();
    return () => disposer.dispose();
  }, [controller, ui, container, pinned]);
}
