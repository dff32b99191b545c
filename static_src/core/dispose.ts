// The one teardown contract: whatever registers a timer, listener or observer hands its undo to a Disposer.
// dispose() runs them newest first, once; calling it again does nothing.

export class Disposer {
  private undo: Array<() => void> = [];
  private done = false;

  get disposed(): boolean {
    return this.done;
  }

  add(fn: () => void): void {
    if (this.done) {
      fn(); // registered after teardown: undo at once
      return;
    }
    this.undo.push(fn);
  }

  listen<K extends keyof HTMLMediaElementEventMap>(
    target: HTMLMediaElement,
    type: K,
    handler: (event: HTMLMediaElementEventMap[K]) => void,
  ): void;
  listen(target: EventTarget, type: string, handler: (event: Event) => void): void;
  listen(target: EventTarget, type: string, handler: (event: never) => void): void {
    const listener = handler as EventListener;
    target.addEventListener(type, listener);
    this.add(() => target.removeEventListener(type, listener));
  }

  dispose(): void {
    if (this.done) return;
    this.done = true;
    for (const fn of this.undo.reverse()) {
      try {
        fn();
      } catch (error) {
        console.error('player: teardown step failed', error);
      }
    }
    this.undo = [];
  }
}
