// What only the interface knows: the open menu (spec §4: none or one of seven), the share popup, whether the
// controls show, the caption style. The controller never reads it.
import { DEFAULTS, STORAGE_KEYS } from '../core/defaults';
import { readJson, writeJson } from '../core/storage';
import { createStore, type Store } from '../core/store';

export type MenuName = 'main' | 'quality' | 'playback-rate' | 'subs' | 'audio-tracks' | 'episodes' | 'seasons';

export interface CaptionStyle {
  size: number; // a multiple of the base caption size
  color: 'white' | 'yellow' | 'cyan';
  background: 'none' | 'semi' | 'solid';
}

export const CAPTION_SIZES = [0.75, 1, 1.5, 2] as const;
export const CAPTION_COLORS = ['white', 'yellow', 'cyan'] as const;
export const CAPTION_BACKGROUNDS = ['none', 'semi', 'solid'] as const;
const DEFAULT_CAPTION_STYLE: CaptionStyle = { size: 1, color: 'white', background: 'semi' };

export interface UiState {
  menu: MenuName | null;
  menuSeason: number | null; // the season the episodes menu shows
  shareOpen: boolean;
  controlsVisible: boolean;
  captionStyle: CaptionStyle;
  captionSample: boolean; // 'Captions look like this.' after a style change
  seekFlash: number | null; // the last double-tap seek, shown briefly (+10 / -10)
  // A tap has just shown the controls: for a double tap's length they let taps through to the video underneath, so
  // the second tap of a double tap is the gesture's, not a press of the button that appeared under the finger
  tapGuard: boolean;
}

function isCaptionStyle(value: unknown): value is CaptionStyle {
  const style = value as CaptionStyle;
  return (
    typeof value === 'object' &&
    value !== null &&
    (CAPTION_SIZES as readonly number[]).includes(style.size) &&
    (CAPTION_COLORS as readonly string[]).includes(style.color) &&
    (CAPTION_BACKGROUNDS as readonly string[]).includes(style.background)
  );
}

export class UiController {
  readonly store: Store<UiState>;
  private sampleTimer: ReturnType<typeof setTimeout> | undefined;
  private flashTimer: ReturnType<typeof setTimeout> | undefined;
  private guardTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.store = createStore<UiState>({
      menu: null,
      menuSeason: null,
      shareOpen: false,
      controlsVisible: true,
      captionStyle: readJson(STORAGE_KEYS.captionStyle, DEFAULT_CAPTION_STYLE, isCaptionStyle),
      captionSample: false,
      seekFlash: null,
      tapGuard: false,
    });
  }

  openMenu(menu: MenuName | null, season: number | null = this.store.get().menuSeason): void {
    this.store.set({ menu, menuSeason: season, shareOpen: false });
  }

  toggleMenu(menu: MenuName): void {
    this.openMenu(this.store.get().menu === menu ? null : menu);
  }

  setShareOpen(shareOpen: boolean): void {
    this.store.set({ shareOpen, menu: null });
  }

  setControlsVisible(controlsVisible: boolean): void {
    this.store.set({ controlsVisible });
  }

  /** A tap shows the controls (the phone's single tap): they ignore taps for `DEFAULTS.doubleTapMs` (see tapGuard). */
  revealControlsByTap(): void {
    this.store.set({ controlsVisible: true, tapGuard: true });
    clearTimeout(this.guardTimer);
    this.guardTimer = setTimeout(() => this.store.set({ tapGuard: false }), DEFAULTS.doubleTapMs);
  }

  setCaptionStyle(patch: Partial<CaptionStyle>): void {
    const captionStyle = { ...this.store.get().captionStyle, ...patch };
    this.store.set({ captionStyle, captionSample: true });
    writeJson(STORAGE_KEYS.captionStyle, captionStyle);
    clearTimeout(this.sampleTimer);
    this.sampleTimer = setTimeout(() => this.store.set({ captionSample: false }), DEFAULTS.captionsSampleMs);
  }

  /** Shows the last double-tap seek (+10 / −10) for a moment; each further seek restarts the moment. */
  flashSeek(seconds: number): void {
    this.store.set({ seekFlash: seconds });
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => this.store.set({ seekFlash: null }), DEFAULTS.seekFlashMs);
  }

  dispose(): void {
    clearTimeout(this.sampleTimer);
    clearTimeout(this.flashTimer);
    clearTimeout(this.guardTimer);
  }
}
