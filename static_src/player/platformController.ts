// What the browser offers around the video (spec §4), a sub-controller of player/controller: fullscreen (native, the
// video's own on iOS outside a frame, or pseudo: the parent page stretches the frame), picture-in-picture, Google
// Cast through the Remote Playback API, AirPlay, and the media session. Its constructor registers what it listens to
// for the player's life and destroy() removes it; watch() adds, while the interface is up, what only the interface
// shows. Every call the browser may refuse (no user activation, no device, a policy) is logged, never thrown.
import type { PlayerContext } from '../context';
import { DEFAULTS } from '../core/defaults';
import { Disposer } from '../core/dispose';
import type { Emitter, PlayerEvents } from '../core/events';
import type { Store } from '../core/store';
import type { PlatformIntents } from './intents';
import type { PlayerState } from './state';

/** What the platform controller needs from the coordinator that owns it: the state, the events, and the playback
 * intents the media session (the lock screen, a headset's buttons) sends. */
export interface PlatformHost {
  readonly store: Store<PlayerState>;
  readonly events: Emitter<PlayerEvents>;
  play(): Promise<void>;
  pause(): void;
  seek(seconds: number): void;
  seekBy(delta: number): void;
}

interface WebKitVideo extends HTMLVideoElement {
  webkitEnterFullscreen?: () => void;
  webkitShowPlaybackTargetPicker?: () => void;
  webkitSupportsPresentationMode?: (mode: string) => boolean;
  webkitSetPresentationMode?: (mode: string) => void;
  webkitPresentationMode?: string;
}

/** Runs a platform call that may throw or reject: logged, never thrown. */
function attempt(action: string, run: () => Promise<void> | void): void {
  try {
    void Promise.resolve(run()).catch((error: unknown) => console.warn(`player: ${action} failed`, error));
  } catch (error) {
    console.warn(`player: ${action} failed`, error);
  }
}

function isIOS(): boolean {
  const { userAgent, maxTouchPoints } = navigator;
  return /iPad|iPhone|iPod/.test(userAgent) || (userAgent.includes('Macintosh') && maxTouchPoints > 1);
}

function isFramed(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true; // reading top across origins throws: framed
  }
}

/**
 * How fullscreen is done: 'native' (the element API), 'video' (iOS outside a frame: the video's own fullscreen),
 * or 'pseudo' (the player stretches and tells the parent page, which resizes the frame: iOS in a frame, the
 * configured pseudo mode, or a frame without allow="fullscreen").
 */
function fullscreenKind(configured: 'native' | 'pseudo'): 'native' | 'video' | 'pseudo' {
  if (configured === 'pseudo') return 'pseudo';
  if (isIOS()) return isFramed() ? 'pseudo' : 'video';
  return document.fullscreenEnabled ? 'native' : 'pseudo';
}

function pipSupported(video: WebKitVideo): boolean {
  if (document.pictureInPictureEnabled && !video.disablePictureInPicture) return true;
  return typeof video.webkitSupportsPresentationMode === 'function'
    && video.webkitSupportsPresentationMode('picture-in-picture');
}

/** Reports whether AirPlay targets exist (Safari) and whether the Remote Playback API (Cast in Chrome) can play. */
function watchRemoteTargets(
  video: HTMLVideoElement,
  disposer: Disposer,
  report: (patch: { canAirplay?: boolean; canCast?: boolean }) => void,
): void {
  if ('WebKitPlaybackTargetAvailabilityEvent' in window) {
    disposer.listen(video, 'webkitplaybacktargetavailabilitychanged', (event) => {
      report({ canAirplay: (event as Event & { availability?: string }).availability === 'available' });
    });
  }
  const remote = video.remote as RemotePlayback | undefined;
  if (!remote || typeof remote.watchAvailability !== 'function') return;
  let id: number | null = null;
  remote
    .watchAvailability((available) => report({ canCast: available }))
    .then((watchId) => {
      id = watchId;
      if (disposer.disposed) void remote.cancelWatchAvailability(watchId).catch(() => undefined);
    })
    .catch(() => report({ canCast: false })); // NotSupportedError: MSE playback, or no Cast here
  disposer.add(() => {
    if (id !== null) void remote.cancelWatchAvailability(id).catch(() => undefined);
  });
}

export class PlatformController implements PlatformIntents {
  private readonly listeners = new Disposer(); // for the player's life
  private video: WebKitVideo | null = null;
  private watching: Disposer | null = null; // what watch() set up, while the interface is up
  private surface: HTMLElement | null = null; // the element fullscreen applies to (#player), while watched

  constructor(
    private readonly host: PlatformHost,
    private readonly context: PlayerContext,
  ) {
    this.listeners.listen(document, 'fullscreenchange', () => {
      if (this.surface) this.setFullscreen(document.fullscreenElement === this.surface, false);
    });
  }

  /** The media element its calls apply to from now. */
  attachMedia(video: HTMLVideoElement): void {
    this.video = video;
  }

  /**
   * Watched while the interface is up: fullscreen changes of `container` (which fullscreen applies to),
   * picture-in-picture support, AirPlay and Cast targets into the state, and the film's media session. Returns the
   * undo.
   */
  watch(container: HTMLElement): () => void {
    const video = this.video;
    if (!video) return () => undefined;
    this.watching?.dispose();
    const disposer = (this.watching = new Disposer());
    this.surface = container;
    this.host.store.set({ canPip: pipSupported(video) });
    watchRemoteTargets(video, disposer, (patch) => this.host.store.set(patch));
    this.bindMediaSession(disposer);
    disposer.add(() => {
      if (this.watching !== disposer) return;
      this.watching = null;
      this.surface = null;
    });
    return () => disposer.dispose();
  }

  /** The film's media session again, once an ad's is over (ads/layer). */
  restoreMediaSession(): void {
    this.bindMediaSession(this.watching ?? new Disposer());
  }

  togglePip(): void {
    const video = this.video;
    if (!video) return;
    attempt('picture-in-picture', async () => {
      if (document.pictureInPictureEnabled) {
        if (document.pictureInPictureElement) await document.exitPictureInPicture();
        else await video.requestPictureInPicture();
        return;
      }
      const next = video.webkitPresentationMode === 'picture-in-picture' ? 'inline' : 'picture-in-picture';
      video.webkitSetPresentationMode?.(next);
    });
  }

  cast(): void {
    const video = this.video;
    if (video) attempt('cast', () => video.remote.prompt());
  }

  airplay(): void {
    this.host.events.emit('airplayClicked', {}); // analytics: videoplayer_airplay_icon_click
    this.video?.webkitShowPlaybackTargetPicker?.();
  }

  /** Fullscreen on or off, as this browser does it (fullscreenKind). */
  toggleFullscreen(): void {
    const kind = fullscreenKind(this.context.config.fullscreenMode);
    if (kind === 'pseudo') return this.setFullscreen(!this.host.store.get().fullscreen); // the parent page stretches us
    if (kind === 'video') return this.video?.webkitEnterFullscreen?.();
    const container = this.surface;
    if (!container) return;
    attempt('fullscreen', () => (document.fullscreenElement ? document.exitFullscreen() : container.requestFullscreen()));
  }

  destroy(): void {
    this.watching?.dispose();
    this.listeners.dispose();
  }

  /** Records fullscreen; `announce` tells the parent page (pseudo fullscreen: it has to stretch the frame). */
  private setFullscreen(fullscreen: boolean, announce = true): void {
    if (this.host.store.get().fullscreen === fullscreen) return;
    this.host.store.set({ fullscreen });
    this.host.events.emit('fullscreenChanged', { fullscreen });
    if (announce) this.host.events.emit(fullscreen ? 'enterFullScreen' : 'exitFullScreen', {});
  }

  /** The film's media session handlers (spec §4): play, pause, seekto, seekforward, seekbackward (10 s default). */
  private bindMediaSession(disposer: Disposer): void {
    const session = navigator.mediaSession as MediaSession | undefined;
    if (!session) return;
    const { content } = this.context;
    try {
      const artwork = content.posterUrl ? [{ src: content.posterUrl }] : [];
      session.metadata = new MediaMetadata({ title: content.title, artist: '', artwork });
    } catch (error) {
      console.warn('player: media session metadata refused', error);
    }
    const { host } = this;
    const handlers: Array<[MediaSessionAction, MediaSessionActionHandler]> = [
      ['play', () => void host.play()],
      ['pause', () => host.pause()],
      ['seekto', (details) => details.seekTime !== undefined && host.seek(details.seekTime)],
      ['seekforward', (details) => host.seekBy(details.seekOffset ?? DEFAULTS.skipStepS)],
      ['seekbackward', (details) => host.seekBy(-(details.seekOffset ?? DEFAULTS.skipStepS))],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
        disposer.add(() => session.setActionHandler(action, null));
      } catch {
        // an action this browser does not know: skip it
      }
    }
  }
}
