// React's view of a core/store Store: a component re-renders when the store changes.
import { useSyncExternalStore } from 'react';
import type { Store } from '../core/store';

export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
