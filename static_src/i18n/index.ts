// One dictionary per language; Russian is the interface language, English sits beside it. The language is the page's
// (<html lang>, which the server sets), read at the first lookup: only the lazy chunks that draw text (the interface,
// the ad layer) import this module, so its dictionaries stay off the entry and the first frame's path.
import { en } from './en';
import { ru, type MessageKey } from './ru';

const dictionaries: Record<string, Record<MessageKey, string>> = { ru, en };
let active: Record<MessageKey, string> | null = null;

export function setLanguage(code: string): void {
  active = Object.prototype.hasOwnProperty.call(dictionaries, code) ? dictionaries[code] : ru; // not "toString"
}

export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  if (!active) setLanguage(typeof document === 'undefined' ? 'ru' : document.documentElement.lang || 'ru');
  return (active ?? ru)[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export type { MessageKey };
