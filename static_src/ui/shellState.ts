// The shell's stylesheet keys everything off #player's data-state. The entry keeps it in step with the controller
// from the start, so a video that plays before the interface chunk has mounted is already uncovered.
import type { Store } from '../core/store';
import type { PlayerState } from '../player/controller';

export function reflectPhase(container: HTMLElement, store: Store<PlayerState>): () => void {
  const update = () => {
    const { phase } = store.get();
    if (container.dataset.state !== phase) container.dataset.state = phase;
  };
  update();
  return store.subscribe(update);
}
