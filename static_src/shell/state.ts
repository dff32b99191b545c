// shell/: what serves the server's shell (templates/player/player.html) before and under the interface: its state
// attribute and <video> (state.ts), its start button (start.ts), the interface's stylesheet (styles.ts), and the icon
// paths both the interface and the ad bar draw (iconPaths.ts). No React.
// The shell's stylesheet keys everything off #player's data-state. The entry keeps it in step with the controller
// from the start, so a video that plays before the interface chunk has mounted is already uncovered.
import type { Store } from '../core/store';
import type { PlayerState } from '../player/state';

export function reflectPhase(container: HTMLElement, store: Store<PlayerState>): () => void {
  const update = () => {
    const { phase } = store.get();
    if (container.dataset.state !== phase) container.dataset.state = phase;
  };
  update();
  return store.subscribe(update);
}

/**
 * The page's <video>, made by the entry rather than served in the markup: a media element's default styles and
 * controls are the most expensive part of a first paint the poster covers anyway. It is made detached (hls.js and
 * MSE need no layout, so playback can start before the first paint) and goes first in #player, under the interface.
 */
export function createVideo(label: string): HTMLVideoElement {
  const video = document.createElement('video');
  video.className = 'player__video';
  video.playsInline = true;
  video.preload = 'none';
  video.crossOrigin = 'anonymous';
  video.setAttribute('aria-label', label);
  return video;
}
