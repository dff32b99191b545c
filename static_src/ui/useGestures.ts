// Taps on the video (spec §9): a single tap toggles pause (on a phone it shows or hides the controls), a double tap
// seeks on the side fifths and toggles fullscreen in the middle (ui/gestures recognises them).
import { useEffect, useLayoutEffect, useMemo, useRef, type PointerEvent, type RefObject } from 'react';
import { DEFAULTS } from '../core/defaults';
import type { PlayerIntents } from '../player/intents';
import { createTapRecognizer } from './gestures';
import type { UiController } from './uiState';

/** A ref that always holds the latest value: handlers registered once read it instead of being re-registered. */
function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

export function useGestures(controller: PlayerIntents, ui: UiController, mobile: boolean) {
  const latest = useLatest({ mobile });
  const recognizer = useMemo(
    () =>
      createTapRecognizer((gesture) => {
        if (ui.store.get().menu || ui.store.get().shareOpen) return ui.openMenu(null);
        if (gesture.type === 'single') {
          if (latest.current.mobile) {
            return ui.store.get().controlsVisible ? ui.setControlsVisible(false) : ui.revealControlsByTap();
          }
          return controller.togglePlay();
        }
        if (gesture.zone === 'center') return controller.platform.toggleFullscreen();
        const step = gesture.zone === 'left' ? -DEFAULTS.skipStepS : DEFAULTS.skipStepS;
        controller.seekBy(step);
        ui.flashSeek(step);
      }),
    [controller, ui, latest], // one recognizer for the player's life: a pending single tap survives re-renders
  );
  useEffect(() => () => recognizer.dispose(), [recognizer]);
  return (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    const box = event.currentTarget.getBoundingClientRect();
    recognizer.tap(event.clientX - box.left, box.width, event.timeStamp);
  };
}
