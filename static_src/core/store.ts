// A small observable store, free of React (the entry runs without it); ui/useStore reads it from components.

export interface Store<T> {
  get(): T;
  set(patch: Partial<T>): void;
  subscribe(listener: () => void): () => void;
}

/** A store as its readers see it (the interface reads the player's state; only the controller writes it). */
export type ReadableStore<T> = Pick<Store<T>, 'get' | 'subscribe'>;

export function createStore<T extends object>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(patch) {
      const next = { ...state, ...patch };
      if (Object.keys(patch).every((key) => Object.is(next[key as keyof T], state[key as keyof T]))) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
