// How the viewer drives the player besides buttons: layout by width, controls that hide when idle, the keyboard,
// and taps on the video (spec §9).
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type PointerEvent, type RefObject } from 'react';
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import type { PlayerIntents } from '../player/intents';
import { createTapRecognizer } from './gestures';
import { isTypingTarget, keyIntent, type KeyIntent } from './keys';
import type { UiController } from './uiState';

export type Layout = 'desktop' | 'mobile';

/** A ref that always holds the latest value: handlers registered once read it instead of being re-registered. */
function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

export function layoutFor(width: number): Layout {
  return width > 0 && width <= DEFAULTS.smallBreakpointPx ? 'mobile' : 'desktop';
}

/** Mobile at and below the small breakpoint (spec §2), following the container's width. */
export function useLayout(container: HTMLElement): Layout {
  const [layout, setLayout] = useState<Layout>(() => layoutFor(container.clientWidth));
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setLayout(layoutFor(container.clientWidth)));
    observer.observe(container);
    return () => observer.disconnect();
  }, [container]);
  return layout;
}

/** Spec §9: controls hide 2000 ms after the last activity, only while playing and with no menu open. */
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

export function runKeyIntent(intent: KeyIntent, controller: PlayerIntents): void {
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

/** Keyboard control (spec §9) anywhere in the frame, except while typing or inside an open menu or popup. */
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

/** Taps on the video (spec §9): single toggles pause (mobile: shows the controls), double seeks or fullscreens. */
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
