// What the browser offers around the video (spec §4): fullscreen (native, or stretched inside a frame on iOS),
// picture-in-picture, AirPlay, Google Cast through the Remote Playback API, and the media session.
// The controller performs them as intents (togglePip, cast, airplay, toggleFullscreen, watchPlatform).
import { DEFAULTS } from '../core/defaults';
import type { Disposer } from '../core/dispose';

interface WebKitVideo extends HTMLVideoElement {
  webkitEnterFullscreen?: () => void;
  webkitShowPlaybackTargetPicker?: () => void;
  webkitSupportsPresentationMode?: (mode: string) => boolean;
  webkitSetPresentationMode?: (mode: string) => void;
  webkitPresentationMode?: string;
}

export interface PlatformSupport {
  fullscreen: boolean;
  pip: boolean;
}

/** Runs a platform call that may throw or reject (no user activation, no device, a policy): logged, never thrown. */
export function attempt(action: string, run: () => Promise<void> | void): void {
  try {
    void Promise.resolve(run()).catch((error: unknown) => console.warn(`player: ${action} failed`, error));
  } catch (error) {
    console.warn(`player: ${action} failed`, error);
  }
}

export function isIOS(nav: Navigator = navigator): boolean {
  return /iPad|iPhone|iPod/.test(nav.userAgent) || (nav.userAgent.includes('Macintosh') && nav.maxTouchPoints > 1);
}

export function isFramed(win: Window = window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true; // reading top across origins throws: framed
  }
}

/**
 * How fullscreen is done: 'native' (the element API), 'video' (iOS outside a frame: the video's own fullscreen),
 * or 'pseudo' (the player stretches and tells the parent page, which resizes the frame: iOS in a frame, the
 * configured pseudo mode, or a frame without allow="fullscreen").
 */
export function fullscreenKind(configured: 'native' | 'pseudo', doc: Document = document): 'native' | 'video' | 'pseudo' {
  if (configured === 'pseudo') return 'pseudo';
  if (isIOS()) return isFramed() ? 'pseudo' : 'video';
  return doc.fullscreenEnabled ? 'native' : 'pseudo';
}

export function pipSupported(video: HTMLVideoElement, doc: Document = document): boolean {
  const webkit = video as WebKitVideo;
  if (doc.pictureInPictureEnabled && !video.disablePictureInPicture) return true;
  return typeof webkit.webkitSupportsPresentationMode === 'function' && webkit.webkitSupportsPresentationMode('picture-in-picture');
}

export async function togglePip(video: HTMLVideoElement, doc: Document = document): Promise<void> {
  const webkit = video as WebKitVideo;
  if (doc.pictureInPictureEnabled) {
    if (doc.pictureInPictureElement) await doc.exitPictureInPicture();
    else await video.requestPictureInPicture();
    return;
  }
  const next = webkit.webkitPresentationMode === 'picture-in-picture' ? 'inline' : 'picture-in-picture';
  webkit.webkitSetPresentationMode?.(next);
}

export function enterVideoFullscreen(video: HTMLVideoElement): void {
  (video as WebKitVideo).webkitEnterFullscreen?.();
}

/** Reports whether AirPlay targets exist (Safari) and whether the Remote Playback API (Cast in Chrome) can play. */
export function watchRemoteTargets(
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

export function showAirplayPicker(video: HTMLVideoElement): void {
  (video as WebKitVideo).webkitShowPlaybackTargetPicker?.();
}

export async function promptCast(video: HTMLVideoElement): Promise<void> {
  await video.remote.prompt();
}

export interface MediaSessionActions {
  play(): void;
  pause(): void;
  seekTo(seconds: number): void;
  seekBy(seconds: number): void;
}

/** The content's media session handlers (spec §4): pause, play, seekto, seekforward, seekbackward (10 s default). */
export function bindMediaSession(
  metadata: { title: string; artist?: string; artwork?: string | null },
  actions: MediaSessionActions,
  disposer: Disposer,
  nav: Navigator = navigator,
): void {
  const session = nav.mediaSession as MediaSession | undefined;
  if (!session) return;
  try {
    session.metadata = new MediaMetadata({
      title: metadata.title,
      artist: metadata.artist ?? '',
      artwork: metadata.artwork ? [{ src: metadata.artwork }] : [],
    });
  } catch (error) {
    console.warn('player: media session metadata refused', error);
  }
  const handlers: Array<[MediaSessionAction, MediaSessionActionHandler]> = [
    ['play', () => actions.play()],
    ['pause', () => actions.pause()],
    ['seekto', (details) => details.seekTime !== undefined && actions.seekTo(details.seekTime)],
    ['seekforward', (details) => actions.seekBy(details.seekOffset ?? DEFAULTS.skipStepS)],
    ['seekbackward', (details) => actions.seekBy(-(details.seekOffset ?? DEFAULTS.skipStepS))],
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
