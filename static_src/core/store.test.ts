import { createStore } from './store';

interface State {
  phase: string;
  count: number;
  list: number[];
}

const initial = (): State => ({ phase: 'idle', count: 0, list: [] });

describe('createStore', () => {
  it('merges a patch into the state and notifies subscribers', () => {
    const store = createStore(initial());
    const listener = jest.fn();
    store.subscribe(listener);

    store.set({ count: 1 });

    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get()).toEqual({ phase: 'idle', count: 1, list: [] });
  });

  it('replaces the state object rather than mutating it (what useSyncExternalStore needs)', () => {
    const store = createStore(initial());
    const before = store.get();

    store.set({ phase: 'loading' });

    expect(store.get()).not.toBe(before);
    expect(before.phase).toBe('idle');
  });

  it('does not notify, nor change the state object, when a patch changes nothing', () => {
    const store = createStore(initial());
    const before = store.get();
    const listener = jest.fn();
    store.subscribe(listener);

    store.set({ phase: 'idle', count: 0, list: before.list });
    store.set({});

    expect(listener).not.toHaveBeenCalled();
    expect(store.get()).toBe(before);
  });

  it('compares values by identity: a new but equal array is a change', () => {
    const store = createStore(initial());
    const listener = jest.fn();
    store.subscribe(listener);

    store.set({ list: [] });

    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('stops notifying after unsubscribe', () => {
    const store = createStore(initial());
    const kept = jest.fn();
    const dropped = jest.fn();
    store.subscribe(kept);
    const unsubscribe = store.subscribe(dropped);

    store.set({ count: 1 });
    unsubscribe();
    store.set({ count: 2 });

    expect(kept).toHaveBeenCalledTimes(2);
    expect(dropped).toHaveBeenCalledTimes(1);
  });
});
