// The shell's start button until the interface has mounted: the entry serves it from here (the page's inline script
// remembers a click that comes even earlier). React's commit replaces the shell's button with its own identical one;
// a press that began on the first and ends on the second makes no click (the browser sends it to their common
// ancestor), so that press's release starts playback instead: a tap on a slow phone takes long enough to span it.
import { Disposer } from '../core/dispose';

const START = '[data-player-start]';

const startButton = (event: Event) => (event.target as Element | null)?.closest?.(START) ?? null;

export interface ShellStart {
  /** The interface is on screen and serves its own button: stop, once a press in progress is released. */
  handOver(): void;
}

export function serveShellStart(start: () => void, doc: Document = document): ShellStart {
  const disposer = new Disposer();
  let pressed: Element | null = null; // the start button a press began on, until its release
  let handedOver = false;
  disposer.listen(doc, 'click', (event) => {
    if (startButton(event)) start();
  });
  disposer.listen(doc, 'pointerdown', (event) => {
    pressed = startButton(event);
  });
  disposer.listen(doc, 'pointerup', (event) => {
    if (pressed && !pressed.isConnected && startButton(event)) start(); // the button was swapped under the press
    pressed = null;
    if (handedOver) disposer.dispose();
  });
  return {
    handOver() {
      handedOver = true;
      if (!pressed) disposer.dispose();
    },
  };
}
