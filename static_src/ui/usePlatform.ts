// Fullscreen, picture-in-picture, AirPlay, Cast and the media session, wired to the player's container and video.
import { useEffect, useMemo, useState } from 'react';
import { Disposer } from '../core/dispose';
import type { PlayerContext } from '../context';
import type { PlayerController } from '../player/controller';
import {
  bindContentMediaSession,
  enterVideoFullscreen,
  fullscreenKind,
  pipSupported,
  promptCast,
  showAirplayPicker,
  togglePip,
  watchRemoteTargets,
} from '../player/platform';

export interface Platform {
  canPip: boolean;
  canCast: boolean;
  canAirplay: boolean;
  pip(): void;
  cast(): void;
  airplay(): void;
  toggleFullscreen(): void;
}

function logged(action: string, run: () => Promise<void> | void): void {
  try {
    void Promise.resolve(run()).catch((error: unknown) => console.warn(`player: ${action} failed`, error));
  } catch (error) {
    console.warn(`player: ${action} failed`, error);
  }
}

export function usePlatform(
  controller: PlayerController,
  context: PlayerContext,
  container: HTMLElement,
  video: HTMLVideoElement | null,
): Platform {
  const [remote, setRemote] = useState({ canCast: false, canAirplay: false });
  const kind = useMemo(() => fullscreenKind(context.config.fullscreenMode), [context.config.fullscreenMode]);

  useEffect(() => {
    if (!video) return;
    const disposer = new Disposer();
    watchRemoteTargets(video, disposer, (patch) => setRemote((previous) => ({ ...previous, ...patch })));
    disposer.listen(document, 'fullscreenchange', () => controller.setFullscreen(document.fullscreenElement === container, false));
    bindContentMediaSession(context, controller, disposer);
    return () => disposer.dispose();
  }, [controller, context, container, video]);

  // One object per change of what it depends on: hooks and components that take it keep their identity.
  return useMemo<Platform>(
    () => ({
      ...remote,
      canPip: !!video && pipSupported(video),
      pip: () => video && logged('picture-in-picture', () => togglePip(video)),
      cast: () => video && logged('cast', () => promptCast(video)),
      airplay: () => video && logged('AirPlay', () => showAirplayPicker(video)),
      toggleFullscreen: () => {
        const on = controller.store.get().fullscreen;
        if (kind === 'pseudo') return controller.setFullscreen(!on); // the stylesheet stretches, the parent is told
        if (kind === 'video' && video) return enterVideoFullscreen(video);
        logged('fullscreen', () => (document.fullscreenElement ? document.exitFullscreen() : container.requestFullscreen()));
      },
    }),
    [remote, video, kind, controller, container],
  );
}
