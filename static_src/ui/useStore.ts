// React's view of a core/store Store: a component re-renders when the store changes.
import { useSyncExternalStore } from 'react';
import type { ReadableStore } from '../core/store';

export function useStore<T>(store: ReadableStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
