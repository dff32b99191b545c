// Keyboard shortcuts of the player (spec §9: seek, volume and rate steps), as pure intents the controller runs.
import { DEFAULTS } from '../core/defaults';

export type KeyIntent =
  | { type: 'togglePlay' }
  | { type: 'seekBy'; seconds: number }
  | { type: 'seekTo'; fraction: number }
  | { type: 'volumeBy'; delta: number }
  | { type: 'rateBy'; delta: number }
  | { type: 'toggleMute' }
  | { type: 'toggleFullscreen' }
  | { type: 'toggleCaptions' };

export interface KeyInput {
  key: string;
  code?: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]$/;

/**
 * The key as a Latin layout would give it. A non-Latin layout (the Russian ЙЦУКЕН: 'л' on the K key) falls back to
 * the physical key, so the letter shortcuts work without switching layout.
 */
function latinKey(e: KeyInput): string {
  if (e.key.length !== 1) return e.key; // named keys: ' ' is one character, 'ArrowLeft' is not
  if (PRINTABLE_ASCII.test(e.key) || !e.code) return e.key.toLowerCase();
  const letter = /^Key([A-Z])$/.exec(e.code);
  if (letter) return letter[1].toLowerCase();
  const digit = /^(?:Digit|Numpad)(\d)$/.exec(e.code);
  if (digit) return digit[1];
  if (e.shiftKey && e.code === 'Period') return '>';
  if (e.shiftKey && e.code === 'Comma') return '<';
  return e.key;
}

/**
 * Spec §9: the intent of a key press in the content player, or null when the player should let it through. Any
 * press with Ctrl, Alt or Meta is left to the browser. Letters ignore case (Caps Lock) and Shift.
 */
export function keyIntent(e: KeyInput, mode: 'content' = 'content'): KeyIntent | null {
  if (mode !== 'content') return null;
  if (e.ctrlKey || e.altKey || e.metaKey) return null;
  const key = latinKey(e);
  switch (key) {
    case ' ':
    case 'Spacebar':
    case 'k':
      return { type: 'togglePlay' };
    case 'ArrowLeft':
      return { type: 'seekBy', seconds: -(e.shiftKey ? DEFAULTS.keySeekShiftS : DEFAULTS.keySeekS) };
    case 'ArrowRight':
      return { type: 'seekBy', seconds: e.shiftKey ? DEFAULTS.keySeekShiftS : DEFAULTS.keySeekS };
    case 'j':
      return { type: 'seekBy', seconds: -DEFAULTS.skipStepS }; // the skip buttons' step, as on YouTube
    case 'l':
      return { type: 'seekBy', seconds: DEFAULTS.skipStepS };
    case 'ArrowUp':
      return { type: 'volumeBy', delta: e.shiftKey ? DEFAULTS.keyVolumeShiftStep : DEFAULTS.keyVolumeStep };
    case 'ArrowDown':
      return { type: 'volumeBy', delta: -(e.shiftKey ? DEFAULTS.keyVolumeShiftStep : DEFAULTS.keyVolumeStep) };
    case '>':
      return { type: 'rateBy', delta: DEFAULTS.rateStep };
    case '<':
      return { type: 'rateBy', delta: -DEFAULTS.rateStep };
    case 'm':
      return { type: 'toggleMute' };
    case 'f':
      return { type: 'toggleFullscreen' };
    case 'c':
      return { type: 'toggleCaptions' };
    case 'Home':
      return { type: 'seekTo', fraction: 0 };
    case 'End':
      return { type: 'seekTo', fraction: 1 };
    default:
      return /^\d$/.test(key) ? { type: 'seekTo', fraction: Number(key) / 10 } : null;
  }
}

/** Input types that take no typing: the player's keys still work there. */
const NON_TEXT_INPUTS = new Set(['range', 'checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'color', 'file']);

/** True where a key press is typing (text fields, selects, contenteditable): the player ignores keys there. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false; // not an element (the window, a text node, null)
  const tag = el.tagName.toUpperCase();
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has((el as HTMLInputElement).type.toLowerCase());
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (el.isContentEditable === true) return true;
  // jsdom has no isContentEditable: the nearest contenteditable attribute decides ('false' switches it off).
  for (let node: Element | null = el; node; node = node.parentElement) {
    const value = node.getAttribute('contenteditable')?.toLowerCase();
    if (value === 'false') return false;
    if (value === '' || value === 'true' || value === 'plaintext-only') return true;
    // absent or invalid: inherited from the parent
  }
  return false;
}
