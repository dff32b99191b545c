// One dictionary per language; Russian is the interface language, English sits beside it.
import { en } from './en';
import { ru, type MessageKey } from './ru';

const dictionaries: Record<string, Record<MessageKey, string>> = { ru, en };
let active: Record<MessageKey, string> = ru;

export function setLanguage(code: string): void {
  active = Object.prototype.hasOwnProperty.call(dictionaries, code) ? dictionaries[code] : ru; // not "toString"
}

export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  return active[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export type { MessageKey };
